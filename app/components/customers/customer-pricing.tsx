import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, formatNumber, Select, TextField, useToast } from '~/app/components/ui';
import { EntityPicker } from '~/app/components/ui/entity-picker';
import { usePrintDiscount } from '~/app/lib/use-currency';
import { DiscountField } from '~/app/components/articles/discount-field';
import { TrashIcon } from './icons';
import { useConfirm } from './use-confirm';

export interface SectionResult {
  ok?: boolean;
  code?: string;
  fields?: Record<string, string[]>;
  /** A success message other than "saved": a common.json key and its values. */
  toast?: { key: string; values?: Record<string, string> };
}

/** A section's form posts to the customer page's action with an `intent`; this shows its outcome once. */
export function useSectionFetcher() {
  const fetcher = useFetcher<SectionResult>();
  const { t: tc } = useTranslation();
  const toast = useToast();
  const shown = useRef<SectionResult | undefined>(undefined);
  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== 'idle' || !result || shown.current === result) return;
    shown.current = result;
    if (result.ok)
      toast.show({
        kind: 'success',
        message: result.toast ? tc(result.toast.key, result.toast.values) : tc('SUCCESSFULLY_SAVED'),
      });
    else if (result.code) toast.show({ kind: 'error', message: tc(result.code) });
  }, [fetcher.state, fetcher.data, tc, toast]);
  return fetcher;
}

const money = (value: string) => formatNumber(Number(value));

export interface GroupDiscountRow {
  articleGroupId: string;
  articleGroup: string;
  discountType: 'PERCENTAGE' | 'REGULAR';
  discountValue: string;
}

/** The customer's discount per article group: a list, and a form to set one ("10%" or an amount). */
export function GroupDiscounts({
  discounts,
  groups,
  canEdit,
}: {
  discounts: readonly GroupDiscountRow[];
  groups: readonly { id: string; label: string }[];
  canEdit: boolean;
}) {
  const { t } = useTranslation('customers');
  const { t: tc } = useTranslation();
  const save = useSectionFetcher();
  const remove = useSectionFetcher();
  const [ask, dialog] = useConfirm();
  const formRef = useRef<HTMLFormElement>(null);
  const errors = save.data && !save.data.ok ? save.data.fields : undefined;
  const printDiscount = usePrintDiscount();
  const [discount, setDiscount] = useState('');
  useEffect(() => {
    if (save.state === 'idle' && save.data?.ok) {
      formRef.current?.reset();
      setDiscount('');
    }
  }, [save.state, save.data]);
  return (
    <div className="grid gap-3">
      {discounts.length === 0 ? (
        <p className="text-sm text-slate-600">{t('discounts.empty')}</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {discounts.map((d) => (
            <li key={d.articleGroupId} className="flex items-center justify-between gap-2 py-1">
              <span className="min-w-0">
                <span className="font-medium">{d.articleGroup}</span>{' '}
                <span className="text-slate-700">
                  {printDiscount({ type: d.discountType, value: d.discountValue })}
                </span>
              </span>
              {canEdit ? (
                <Button
                  variant="ghost"
                  isIconOnly
                  size="sm"
                  aria-label={t('discounts.remove', { group: d.articleGroup })}
                  onPress={() =>
                    ask({
                      title: t('discounts.remove', { group: d.articleGroup }),
                      message: tc('ARE_YOU_SURE'),
                      confirmLabel: t('remove'),
                      run: () =>
                        void remove.submit(
                          { intent: 'discount.delete', articleGroupId: d.articleGroupId },
                          { method: 'post' },
                        ),
                    })
                  }
                >
                  <TrashIcon />
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canEdit ? (
        groups.length === 0 ? (
          <p className="text-sm text-slate-600">{t('discounts.noGroups')}</p>
        ) : (
          <save.Form method="post" ref={formRef} className="grid gap-3 border-t border-slate-100 pt-3">
            <input type="hidden" name="intent" value="discount.set" />
            <Select
              name="articleGroupId"
              label={t('discounts.group')}
              items={groups}
              isRequired
              errorMessage={errors?.articleGroupId?.map((k) => tc(k))}
            />
            <DiscountField
              name="discountValue"
              label={t('discounts.value')}
              labelClassName="text-sm font-medium text-gray-900"
              value={discount}
              onChange={setDiscount}
              error={errors?.discountValue?.map((k) => tc(k)).join(' ')}
            />
            <div>
              <Button type="submit" variant="secondary" isPending={save.state !== 'idle'}>
                {t('discounts.save')}
              </Button>
            </div>
          </save.Form>
        )
      ) : null}
      {dialog}
    </div>
  );
}

export interface CustomerPriceRow {
  articleId: string;
  articleNumber: string;
  title: string;
  unit: string | null;
  price: string;
  listPrice: string;
}

/** The customer's own article prices: a list, and a form with the article picker and a price. */
export function CustomerPrices({ prices, canEdit }: { prices: readonly CustomerPriceRow[]; canEdit: boolean }) {
  const { t } = useTranslation('customers');
  const { t: tc } = useTranslation();
  const save = useSectionFetcher();
  const remove = useSectionFetcher();
  const [ask, dialog] = useConfirm();
  const errors = save.data && !save.data.ok ? save.data.fields : undefined;
  return (
    <div className="grid gap-3">
      {prices.length === 0 ? (
        <p className="text-sm text-slate-600">{t('prices.empty')}</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {prices.map((p) => (
            <li key={p.articleId} className="flex items-center justify-between gap-2 py-1">
              <span className="min-w-0">
                <span className="font-medium">
                  {p.articleNumber} – {p.title}
                </span>
                <span className="block text-slate-700">
                  {t('prices.price', { price: money(p.price), listPrice: money(p.listPrice) })}
                </span>
              </span>
              {canEdit ? (
                <Button
                  variant="ghost"
                  isIconOnly
                  size="sm"
                  aria-label={t('prices.remove', { article: p.articleNumber })}
                  onPress={() =>
                    ask({
                      title: t('prices.remove', { article: p.articleNumber }),
                      message: tc('ARE_YOU_SURE'),
                      confirmLabel: t('remove'),
                      run: () =>
                        void remove.submit({ intent: 'price.delete', articleId: p.articleId }, { method: 'post' }),
                    })
                  }
                >
                  <TrashIcon />
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canEdit ? (
        <save.Form method="post" key={prices.length} className="grid gap-3 border-t border-slate-100 pt-3">
          <input type="hidden" name="intent" value="price.set" />
          <EntityPicker
            name="articleId"
            label={t('prices.article')}
            source="/inventory/articles/options"
            isRequired
            errorMessage={errors?.articleId?.map((k) => tc(k))}
          />
          <TextField
            name="price"
            label={t('prices.value')}
            inputMode="decimal"
            errorMessage={errors?.price?.map((k) => tc(k))}
          />
          <div>
            <Button type="submit" variant="secondary" isPending={save.state !== 'idle'}>
              {t('prices.save')}
            </Button>
          </div>
        </save.Form>
      ) : null}
      {dialog}
    </div>
  );
}
