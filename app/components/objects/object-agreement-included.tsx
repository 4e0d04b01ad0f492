import { useId, useState } from 'react';
import { DiscountField } from '~/app/components/articles/discount-field';
import { useTranslation } from 'react-i18next';
import { ArticlePicker } from '~/app/components/inventory/pickers/article-picker';
import { Button } from '~/app/components/ui';
import { usePrintDiscount } from '~/app/lib/use-currency';
import type { IncludedArticle, IncludedArticleView } from '~/core/agreements/object-agreement.service';
import { parseDiscount } from '~/core/pricing';

/**
 * The articles the agreement includes at a discount on this object (spec "Agreement on object":
 * articles): the object's own discounts, editable, and its type's, shown for what they are. An
 * article named here is priced with this discount on the object's work orders (decision 007, source
 * 3). Saved with the form: the list travels as the hidden `articles` field.
 */
export function IncludedArticles({
  included,
  canEdit,
  canPickArticles,
}: {
  included: IncludedArticleView[];
  canEdit: boolean;
  canPickArticles: boolean;
}) {
  const { t } = useTranslation('objectagreement');
  const { t: tc } = useTranslation();
  const printDiscount = usePrintDiscount();
  const headingId = useId();
  const [own, setOwn] = useState(() => included.filter((a) => a.source === 'object'));
  const [article, setArticle] = useState<{ id: string; label: string } | null>(null);
  const [discount, setDiscount] = useState('');
  const [error, setError] = useState<string | null>(null);
  // the picker keeps what it shows: a new one after each add starts empty
  const [pickerKey, setPickerKey] = useState(0);
  const fromType = included.filter((a) => a.source === 'type' && !own.some((o) => o.articleId === a.articleId));
  const posted: IncludedArticle[] = own.map(({ articleId, discountType, discountValue }) => ({
    articleId,
    discountType,
    discountValue,
  }));

  function add() {
    if (!article) return setError(tc('ERROR_REQUIRED_FIELD'));
    const parsed = parseDiscount(discount);
    if (!parsed.ok) return setError(tc(parsed.error));
    const [number, ...rest] = article.label.split(' – ');
    setOwn((list) => [
      ...list.filter((a) => a.articleId !== article.id),
      {
        articleId: article.id,
        articleNumber: number ?? '',
        title: rest.join(' – ') || (number ?? ''),
        discountType: parsed.discount.type,
        discountValue: parsed.discount.value,
        source: 'object',
      },
    ]);
    setArticle(null);
    setDiscount('');
    setError(null);
    setPickerKey((k) => k + 1);
  }

  const line = (a: IncludedArticleView) =>
    `${a.articleNumber} ${a.title} · ${printDiscount({ type: a.discountType, value: a.discountValue }) || t('included.noDiscount')}`;

  return (
    <section aria-labelledby={headingId} className="grid gap-2 sm:col-span-2" data-testid="agreement-included">
      <input type="hidden" name="articles" value={JSON.stringify(posted)} />
      <h3 id={headingId} className="font-medium">
        {t('included.title')}
      </h3>
      <p className="text-sm text-slate-600">{t('included.help')}</p>
      {own.length === 0 && fromType.length === 0 ? (
        <p className="text-sm text-slate-600">{t('included.none')}</p>
      ) : null}
      <ul className="grid gap-1">
        {own.map((a) => (
          <li key={a.articleId} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span>{line(a)}</span>
            {canEdit ? (
              <Button
                size="sm"
                variant="ghost"
                aria-label={`${t('included.remove')}: ${a.articleNumber} ${a.title}`}
                onPress={() => setOwn((list) => list.filter((x) => x.articleId !== a.articleId))}
              >
                {t('included.remove')}
              </Button>
            ) : null}
          </li>
        ))}
        {fromType.map((a) => (
          <li key={a.articleId} className="text-sm text-slate-600">
            {line(a)} · {t('included.fromType')}
          </li>
        ))}
      </ul>
      {canEdit && canPickArticles ? (
        <div className="grid items-end gap-2 sm:grid-cols-[1fr_10rem_auto]">
          <ArticlePicker
            key={pickerKey}
            label={t('included.article')}
            defaultSelected={article}
            onSelectionChange={(o) => setArticle(o ? { id: o.id, label: o.label } : null)}
          />
          <DiscountField
            label={t('included.discount')}
            labelClassName="text-sm font-medium text-gray-900"
            value={discount}
            onChange={setDiscount}
          />
          <Button variant="secondary" onPress={add}>
            {t('included.add')}
          </Button>
          {error ? (
            <p role="alert" className="text-sm text-red-700 sm:col-span-3">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
