import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fileCall } from '~/app/components/files/files-api';
import { Button, SearchInput } from '~/app/components/ui';
import { formatNumber } from '~/core/i18n/number-format';
import type { CatalogueArticle } from '~/core/supplier-catalogues/catalogue.service';

/** Typing pauses this long before the price lists are searched. */
const SEARCH_DEBOUNCE_MS = 300;
/** Products a search shows (the pickers' 10 of spec section 9). */
const RESULTS = 10;

/**
 * The suppliers' price lists searched from the article screen (`/sbsc/products`, issue 33 item 6):
 * number or name, two characters at least, each product with its supplier, discounted purchase
 * price and recommended price, and a button that takes it into the article's form.
 */
export function CatalogueProductSearch({ onTake }: { onTake: (product: CatalogueArticle) => void }) {
  const { t } = useTranslation('articles');
  const [q, setQ] = useState('');
  const [found, setFound] = useState<{ q: string; products: CatalogueArticle[] } | null>(null);
  const [failed, setFailed] = useState(false);
  const query = q.trim();

  useEffect(() => {
    if (query.length < 2) return;
    const timer = setTimeout(() => {
      const search = new URLSearchParams({ q: query, limit: String(RESULTS) });
      fileCall<{ products: CatalogueArticle[] }>('GET', `/api/sbsc/products?${search}`)
        .then((r) => {
          setFailed(false);
          setFound({ q: query, products: r.products });
        })
        .catch(() => setFailed(true));
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  const money = (v: string | null) => (v === null ? '—' : formatNumber(Number(v)));
  const products = query.length >= 2 && found?.q === query ? found.products : null;
  return (
    <section
      aria-labelledby="catalogue-search-heading"
      className="grid gap-2 rounded-md border border-slate-200 p-3"
      data-testid="article-catalogue-search"
    >
      <h2 id="catalogue-search-heading" className="text-base font-semibold">
        {t('catalogue.heading')}
      </h2>
      <SearchInput label={t('catalogue.search')} placeholder={t('catalogue.placeholder')} value={q} onChange={setQ} />
      <p className="text-sm text-slate-700" aria-live="polite">
        {failed
          ? t('catalogue.failed')
          : query.length < 2
            ? t('catalogue.hint')
            : products && !products.length
              ? t('catalogue.empty')
              : null}
      </p>
      {products?.length ? (
        <ul className="divide-y divide-slate-200 rounded-md border border-slate-200">
          {products.map((p) => (
            <li key={p.id} className="grid gap-2 p-2 text-sm sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center">
              <span className="min-w-0 break-words">
                <span className="font-mono">{p.articleNumber}</span> – {p.articleTitle}
                <span className="block text-slate-600">
                  {t('catalogue.fromSupplier', { supplier: p.supplierTitle })} · {t('catalogue.purchase')}{' '}
                  {money(p.purchasePrice)} · {t('catalogue.recommended')} {money(p.recommendedSalesPrice)}
                </span>
              </span>
              <Button size="sm" variant="secondary" onPress={() => onTake(p)}>
                {t('catalogue.take', { number: p.articleNumber })}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
