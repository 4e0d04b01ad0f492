import { useTranslation } from 'react-i18next';
import { usePrintDiscount } from '~/app/lib/use-currency';
import type { PriceLookup } from '~/core/pricing';
import { formatMoney } from './format';

/**
 * What the article costs under each price list that prices its group: the sales price and the
 * discount a row gets (the same rule as the price lookup, core/pricing).
 */
export function PriceListPrices({ prices }: { prices: { priceListId: string; title: string; lookup: PriceLookup }[] }) {
  const { t } = useTranslation('articles');
  const printDiscount = usePrintDiscount();
  return (
    <section aria-labelledby="pricelists-heading" className="grid gap-2">
      <h2 id="pricelists-heading" className="text-lg font-medium">
        {t('priceLists.onArticle')}
      </h2>
      {prices.length === 0 ? (
        <p className="text-sm text-slate-500">{t('priceLists.onArticle.empty')}</p>
      ) : (
        <table className="w-full text-sm">
          <thead className="text-slate-600">
            <tr>
              <th className="py-1 pe-3 text-start font-medium">{t('priceLists.col.title')}</th>
              <th className="py-1 pe-3 text-end font-medium">{t('priceLists.col.salesPrice')}</th>
              <th className="py-1 text-end font-medium">{t('priceLists.col.discount')}</th>
            </tr>
          </thead>
          <tbody>
            {prices.map((p) => (
              <tr key={p.priceListId} className="border-t border-slate-100">
                <td className="py-1 pe-3">{p.title}</td>
                <td className="py-1 pe-3 text-end tabular-nums">{formatMoney(p.lookup.salesPrice)}</td>
                <td className="py-1 text-end tabular-nums">
                  {printDiscount({ type: p.lookup.discountType, value: p.lookup.discountValue }) || '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
