import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Checkbox } from '~/app/components/access/checkbox';
import { Button, TextField, useToast } from '~/app/components/ui';
import { EntityPicker, type PickerOption } from '~/app/components/ui/entity-picker';
import type { ArticleSupplier } from '~/core/articles/article-suppliers.service';
import { formatMoney, moneyInput } from './format';

type Result = { ok?: boolean; code?: string; fields?: Record<string, string[]> };

interface Row {
  supplierId: string;
  label: string;
  supplierArticleNumber: string;
  purchasePrice: string;
  isPrimary: boolean;
}

const toRow = (s: ArticleSupplier): Row => ({
  supplierId: s.supplierId,
  label: `${s.supplierNumber} – ${s.supplierTitle}`,
  supplierArticleNumber: s.supplierArticleNumber ?? '',
  purchasePrice: moneyInput(s.purchasePrice),
  isPrimary: s.isPrimary,
});

/**
 * Who sells the article to us (spec: article suppliers): each supplier's article number and
 * purchase price, and which one is primary. Suppliers are added with a picker and saved together.
 */
export function SuppliersPanel({
  suppliers,
  canEdit,
  canSeePurchasePrice,
}: {
  suppliers: ArticleSupplier[];
  canEdit: boolean;
  canSeePurchasePrice: boolean;
}) {
  const { t } = useTranslation('articles');
  const { t: tc } = useTranslation();
  const fetcher = useFetcher<Result>();
  const toast = useToast();
  const [rows, setRows] = useState<Row[]>(() => suppliers.map(toRow));
  const [pickerKey, setPickerKey] = useState(0);
  useEffect(() => setRows(suppliers.map(toRow)), [suppliers]);
  const result = fetcher.data;
  useEffect(() => {
    if (result?.ok) toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
    else if (result?.code) toast.show({ kind: 'error', message: tc(result.fields ? 'FAILED_TO_SAVE' : result.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);
  const err = (i: number, name: string) => result?.fields?.[`suppliers.${i}.${name}`]?.map((k) => tc(k));
  const change = (i: number, patch: Partial<Row>) =>
    setRows((list) =>
      list.map((r, j) => (j === i ? { ...r, ...patch } : patch.isPrimary ? { ...r, isPrimary: false } : r)),
    );
  const add = (option: PickerOption | null) => {
    if (!option || rows.some((r) => r.supplierId === option.id)) return;
    setRows((list) => [
      ...list,
      {
        supplierId: option.id,
        label: option.label,
        supplierArticleNumber: '',
        purchasePrice: '',
        isPrimary: !list.length,
      },
    ]);
    setPickerKey((k) => k + 1);
  };
  const save = () =>
    fetcher.submit(
      {
        intent: 'suppliers',
        suppliers: JSON.stringify(
          rows.map((r) => ({
            supplierId: r.supplierId,
            supplierArticleNumber: r.supplierArticleNumber,
            isPrimary: r.isPrimary,
            ...(canSeePurchasePrice ? { purchasePrice: r.purchasePrice } : {}),
          })),
        ),
      },
      { method: 'post' },
    );

  return (
    <section aria-labelledby="suppliers-heading" className="grid gap-3">
      <h2 id="suppliers-heading" className="text-lg font-medium">
        {t('suppliers.title')}
      </h2>
      {rows.length === 0 ? <p className="text-sm text-slate-500">{t('suppliers.empty')}</p> : null}
      <ul className="grid gap-3">
        {rows.map((r, i) => (
          <li key={r.supplierId} className="grid gap-2 rounded-lg border border-slate-200 p-3">
            <div className="flex items-center justify-between gap-2">
              <span className="font-medium">{r.label}</span>
              {canEdit ? (
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={t('suppliers.remove', { name: r.label })}
                  onPress={() => setRows((list) => list.filter((_, j) => j !== i))}
                >
                  ×
                </Button>
              ) : null}
            </div>
            {canEdit ? (
              <div className="grid gap-2 sm:grid-cols-2">
                <TextField
                  label={t('suppliers.articleNumber')}
                  value={r.supplierArticleNumber}
                  onChange={(v) => change(i, { supplierArticleNumber: v })}
                  errorMessage={err(i, 'supplierArticleNumber')}
                />
                {canSeePurchasePrice ? (
                  <TextField
                    label={t('suppliers.purchasePrice')}
                    inputMode="decimal"
                    value={r.purchasePrice}
                    onChange={(v) => change(i, { purchasePrice: v })}
                    errorMessage={err(i, 'purchasePrice')}
                  />
                ) : null}
                <Checkbox isSelected={r.isPrimary} onChange={(on) => change(i, { isPrimary: on })}>
                  {t('suppliers.primary')}
                </Checkbox>
              </div>
            ) : (
              <p className="text-sm text-slate-700">
                {[
                  r.supplierArticleNumber && t('suppliers.articleNumberIs', { number: r.supplierArticleNumber }),
                  canSeePurchasePrice && r.purchasePrice && formatMoney(r.purchasePrice.replace(',', '.')),
                  r.isPrimary && t('suppliers.primary'),
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
            )}
          </li>
        ))}
      </ul>
      {canEdit ? (
        <div className="grid gap-2">
          <EntityPicker
            key={pickerKey}
            label={t('suppliers.add')}
            source="/inventory/articles/supplier-options"
            onSelectionChange={add}
          />
          <div>
            <Button variant="secondary" onPress={save} isPending={fetcher.state !== 'idle'}>
              {t('suppliers.save')}
            </Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
