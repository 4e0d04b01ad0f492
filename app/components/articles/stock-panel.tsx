import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, TextField, useToast } from '~/app/components/ui';
import { formatMoney, formatQuantity } from './format';

export interface StockMovementView {
  id: string;
  type: 'add' | 'remove';
  amount: string;
  price?: string | null;
  balance: string;
  userName: string | null;
  when: string;
}

type Result = { ok?: boolean; code?: string; fields?: Record<string, string[]> };

/**
 * The article's stock (spec: POST /articles/{id}/stock): the balance and where it is kept, a small
 * form to take in or take out an amount, and the latest movements. Taking out more than there is
 * is refused next to the amount (ERROR_STOCK_NOT_ENOUGH).
 */
export function StockPanel({
  stockAmount,
  stockLocation,
  unit,
  movements,
  totalCount,
  canEdit,
  canSeePurchasePrice,
}: {
  stockAmount: string;
  stockLocation: string | null;
  unit: string | null;
  movements: StockMovementView[];
  totalCount: number;
  canEdit: boolean;
  canSeePurchasePrice: boolean;
}) {
  const { t } = useTranslation('articles');
  const { t: tc } = useTranslation();
  const fetcher = useFetcher<Result>();
  const toast = useToast();
  const result = fetcher.data;
  useEffect(() => {
    if (result?.ok) toast.show({ kind: 'success', message: t('stock.saved') });
    else if (result?.code && !result.fields) toast.show({ kind: 'error', message: tc(result.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);
  const err = (name: string) => result?.fields?.[name]?.map((k) => tc(k));
  const pendingType = fetcher.state !== 'idle' ? fetcher.formData?.get('type') : null;
  return (
    <section aria-labelledby="stock-heading" className="grid gap-3">
      <h2 id="stock-heading" className="text-lg font-medium">
        {t('stock.title')}
      </h2>
      <p className="text-sm text-slate-700">
        <span className="text-2xl font-semibold tabular-nums" data-testid="stock-amount">
          {formatQuantity(stockAmount)}
        </span>{' '}
        {unit ?? ''}
        {stockLocation ? (
          <span className="ms-2 text-slate-500">· {t('stock.location', { location: stockLocation })}</span>
        ) : null}
      </p>
      {canEdit ? (
        <fetcher.Form method="post" className="grid gap-3 sm:grid-cols-2" key={stockAmount} noValidate>
          <input type="hidden" name="intent" value="stock" />
          <TextField
            name="amount"
            label={t('stock.amount')}
            inputMode="decimal"
            isRequired
            errorMessage={err('amount')}
          />
          {canSeePurchasePrice ? (
            <TextField
              name="price"
              label={t('stock.price')}
              description={t('stock.price.help')}
              inputMode="decimal"
              errorMessage={err('price')}
            />
          ) : null}
          <div className="flex gap-2 sm:col-span-2">
            <Button type="submit" name="type" value="add" variant="secondary" isPending={pendingType === 'add'}>
              {t('stock.add')}
            </Button>
            <Button type="submit" name="type" value="remove" variant="secondary" isPending={pendingType === 'remove'}>
              {t('stock.remove')}
            </Button>
          </div>
        </fetcher.Form>
      ) : null}
      {movements.length === 0 ? (
        <p className="text-sm text-slate-500">{t('stock.empty')}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <caption className="sr-only">{t('stock.history')}</caption>
            <thead className="text-start text-slate-600">
              <tr>
                <th className="py-1 pe-3 text-start font-medium">{t('stock.col.when')}</th>
                <th className="py-1 pe-3 text-end font-medium">{t('stock.col.amount')}</th>
                {canSeePurchasePrice ? (
                  <th className="py-1 pe-3 text-end font-medium">{t('stock.col.price')}</th>
                ) : null}
                <th className="py-1 pe-3 text-end font-medium">{t('stock.col.balance')}</th>
                <th className="py-1 text-start font-medium">{t('stock.col.user')}</th>
              </tr>
            </thead>
            <tbody>
              {movements.map((m) => (
                <tr key={m.id} className="border-t border-slate-100">
                  <td className="py-1 pe-3 whitespace-nowrap">{m.when}</td>
                  <td className="py-1 pe-3 text-end tabular-nums">
                    {m.type === 'add' ? '+' : '−'}
                    {formatQuantity(m.amount)}
                  </td>
                  {canSeePurchasePrice ? (
                    <td className="py-1 pe-3 text-end tabular-nums">{m.price ? formatMoney(m.price) : '—'}</td>
                  ) : null}
                  <td className="py-1 pe-3 text-end tabular-nums">{formatQuantity(m.balance)}</td>
                  <td className="py-1">{m.userName ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {totalCount > movements.length ? (
            <p className="mt-1 text-sm text-slate-500">{t('stock.more', { count: totalCount - movements.length })}</p>
          ) : null}
        </div>
      )}
    </section>
  );
}
