import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { formatMoney, formatQuantity, moneyInput } from '~/app/components/articles/format';
import { ArticlePicker } from '~/app/components/inventory/pickers/article-picker';
import { Button, ConfirmDialog, Dialog, Select, TextField, useToast } from '~/app/components/ui';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import type { AgreementActionResult } from '~/app/routes/inventory.objects.$id.agreement';
import type { DiscountType } from '~/core/agreements/agreement-constants';
import type { AgreementRow, RowKind } from '~/core/agreements/object-agreement.service';
import { discountOf, parseDecimal, rowTotal } from '~/core/pricing';
import { usePrintDiscount } from '~/app/lib/use-currency';
import { agreementUrl } from './object-agreement-shared';
import { useFieldErrors } from './shared';

/** What the row dialog edits; null id for a new row. */
interface RowDraft {
  id: string | null;
  article: { id: string; label: string } | null;
  title: string;
  amount: string;
  price: string;
  discountType: DiscountType;
  discountValue: string;
}

const EMPTY: RowDraft = {
  id: null,
  article: null,
  title: '',
  amount: '1',
  price: '',
  discountType: 'NONE',
  discountValue: '',
};

const draftOf = (r: AgreementRow): RowDraft => ({
  id: r.id,
  article: r.articleId
    ? { id: r.articleId, label: r.articleNumber ? `${r.articleNumber} – ${r.title}` : r.title }
    : null,
  title: r.title,
  amount: r.amount.replace(/\.?0+$/, '').replace('.', ','),
  price: moneyInput(r.price),
  discountType: r.discountType,
  discountValue: r.discountType === 'NONE' ? '' : moneyInput(r.discountValue),
});

/** The draft's total as it would be saved, when its numbers read; null otherwise. */
function draftTotal(d: RowDraft): string | null {
  const dec = (v: string) =>
    parseDecimal(v.replace(',', '.').replace(/\s/g, '')) ? v.replace(',', '.').replace(/\s/g, '') : null;
  const amount = dec(d.amount);
  const price = dec(d.price);
  if (!amount || !price) return null;
  const value = d.discountType === 'NONE' ? '0' : dec(d.discountValue);
  if (value === null) return null;
  return rowTotal({ amount, price, discount: d.discountType === 'NONE' ? null : discountOf(d.discountType, value) });
}

export interface AgreementRowsProps {
  boId: string;
  kind: RowKind;
  rows: AgreementRow[];
  canEdit: boolean;
  canPickArticles: boolean;
}

/**
 * The rows every generated work order (kind wo) or invoice (kind invoice) carries: an article
 * (title and price default to the article's) or a text, amount, price and discount. A table from
 * 640 px up, cards on a phone; add and edit in a dialog, remove after asking.
 */
export function AgreementRows({ boId, kind, rows, canEdit, canPickArticles }: AgreementRowsProps) {
  const { t } = useTranslation('objectagreement');
  const { t: tc } = useTranslation();
  const printDiscount = usePrintDiscount();
  /** "10 %" / "50,00 kr" / "—". */
  const discountText = (r: Pick<AgreementRow, 'discountType' | 'discountValue'>) =>
    r.discountType === 'NONE' ? '—' : printDiscount(discountOf(r.discountType, r.discountValue)) || '—';
  const toast = useToast();
  const headingId = useId();
  const saver = useFetcher<AgreementActionResult>();
  const remover = useFetcher<AgreementActionResult>();
  const [draft, setDraft] = useState<RowDraft | null>(null);
  const [removing, setRemoving] = useState<AgreementRow | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const err = useFieldErrors({ fields }, 'row');
  const url = agreementUrl(boId);
  const title = kind === 'wo' ? t('rows.wo.title') : t('rows.invoice.title');

  useFetcherResult(saver, (r) => {
    if (r.ok) {
      setDraft(null);
      toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
    } else {
      setFields(r.fields ?? {});
      if (r.code !== 'VALIDATION_FAILED') toast.show({ kind: 'error', message: tc(r.code) });
    }
  });
  useFetcherResult(remover, (r) => {
    if (r.ok) toast.show({ kind: 'success', message: tc('SUCCESSFULLY_DELETED') });
    else toast.show({ kind: 'error', message: tc(r.code) });
  });

  const set = (patch: Partial<RowDraft>) => setDraft((d) => (d ? { ...d, ...patch } : d));
  const open = (d: RowDraft) => {
    setFields({});
    setDraft(d);
  };
  const save = (d: RowDraft) =>
    void saver.submit(
      {
        intent: 'row-save',
        kind,
        id: d.id ?? '',
        articleId: d.article?.id ?? '',
        title: d.title,
        amount: d.amount,
        price: d.price,
        discountType: d.discountType,
        discountValue: d.discountType === 'NONE' ? '0' : d.discountValue,
      },
      { method: 'post', action: url },
    );

  const rowName = (r: AgreementRow) => r.title || r.articleNumber || '—';
  const actions = (r: AgreementRow) =>
    canEdit ? (
      <div className="flex flex-wrap justify-end gap-1">
        <Button
          size="sm"
          variant="ghost"
          onPress={() => open(draftOf(r))}
          aria-label={t('rows.editNamed', { name: rowName(r) })}
        >
          {t('rows.edit')}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onPress={() => setRemoving(r)}
          aria-label={t('rows.removeNamed', { name: rowName(r) })}
        >
          {t('rows.remove')}
        </Button>
      </div>
    ) : null;

  const total = draft ? draftTotal(draft) : null;
  const discountItems = [
    { id: 'NONE', label: t('discount.NONE') },
    { id: 'PERCENTAGE', label: t('discount.PERCENTAGE') },
    { id: 'REGULAR', label: t('discount.REGULAR') },
  ];

  return (
    <section aria-labelledby={headingId} className="grid gap-3" data-testid={`agreement-rows-${kind}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-base font-semibold">
          {title}
        </h2>
        {canEdit ? (
          <Button size="sm" variant="secondary" onPress={() => open(EMPTY)}>
            {kind === 'wo' ? t('rows.wo.add') : t('rows.invoice.add')}
          </Button>
        ) : null}
      </div>
      <p className="text-sm text-slate-600">{kind === 'wo' ? t('rows.wo.help') : t('rows.invoice.help')}</p>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">{t('rows.empty')}</p>
      ) : (
        <>
          {/* a phone: one card per row */}
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 sm:hidden" aria-label={title}>
            {rows.map((r) => (
              <li key={r.id} className="grid gap-1 p-3 text-sm">
                <p className="flex justify-between gap-2">
                  <span className="min-w-0 font-medium break-words">
                    {r.articleNumber ? <span className="text-slate-600">{r.articleNumber} · </span> : null}
                    {r.title}
                  </span>
                  <span className="shrink-0 tabular-nums">{formatMoney(r.total)}</span>
                </p>
                <p className="text-xs text-slate-600">
                  {formatQuantity(r.amount)} × {formatMoney(r.price)}
                  {r.discountType !== 'NONE' ? ` · ${t('rows.discount')} ${discountText(r)}` : ''}
                </p>
                {actions(r)}
              </li>
            ))}
          </ul>
          <div className="hidden overflow-x-auto rounded-lg border border-slate-200 sm:block">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{title}</caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    {t('rows.article')}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    {t('rows.title')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-end">
                    {t('rows.amount')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-end">
                    {t('rows.price')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-end">
                    {t('rows.discount')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-end">
                    {t('rows.total')}
                  </th>
                  {canEdit ? (
                    <th scope="col" className="px-3 py-2 text-end">
                      <span className="sr-only">{t('rows.actions')}</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((r) => (
                  <tr key={r.id}>
                    <td className="px-3 py-2 whitespace-nowrap">{r.articleNumber ?? '—'}</td>
                    <th scope="row" className="px-3 py-2 font-normal break-words">
                      {r.title}
                    </th>
                    <td className="px-3 py-2 text-end tabular-nums">{formatQuantity(r.amount)}</td>
                    <td className="px-3 py-2 text-end tabular-nums">{formatMoney(r.price)}</td>
                    <td className="px-3 py-2 text-end tabular-nums">{discountText(r)}</td>
                    <td className="px-3 py-2 text-end font-medium tabular-nums">{formatMoney(r.total)}</td>
                    {canEdit ? <td className="px-3 py-1">{actions(r)}</td> : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}

      <Dialog
        title={draft?.id ? t('rows.editTitle') : kind === 'wo' ? t('rows.wo.add') : t('rows.invoice.add')}
        isOpen={draft !== null}
        onOpenChange={(isOpen) => (isOpen ? null : setDraft(null))}
        isDismissable={saver.state === 'idle'}
        footer={({ close }) => (
          <>
            <Button variant="secondary" onPress={close}>
              {t('cancel')}
            </Button>
            <Button variant="primary" isPending={saver.state !== 'idle'} onPress={() => draft && save(draft)}>
              {t('rows.save')}
            </Button>
          </>
        )}
      >
        {draft ? (
          <form
            className="grid gap-3 sm:grid-cols-2"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              save(draft);
            }}
          >
            {canPickArticles ? (
              <ArticlePicker
                label={t('rows.article')}
                defaultSelected={draft.article}
                onSelectionChange={(o) => set({ article: o ? { id: o.id, label: o.label } : null })}
                errorMessage={err('articleId')}
                className="sm:col-span-2"
              />
            ) : null}
            <TextField
              label={t('rows.title')}
              value={draft.title}
              onChange={(title) => set({ title })}
              description={draft.article ? t('rows.title.help') : undefined}
              isRequired={!draft.article}
              errorMessage={err('title')}
              className="sm:col-span-2"
            />
            <TextField
              label={t('rows.amount')}
              inputMode="decimal"
              value={draft.amount}
              onChange={(amount) => set({ amount })}
              errorMessage={err('amount')}
            />
            <TextField
              label={t('rows.price')}
              inputMode="decimal"
              value={draft.price}
              onChange={(price) => set({ price })}
              description={draft.article ? t('rows.price.help') : undefined}
              errorMessage={err('price')}
            />
            <Select
              label={t('rows.discountType')}
              items={discountItems}
              selectedKey={draft.discountType}
              onSelectionChange={(key) => set({ discountType: (key as DiscountType) ?? 'NONE' })}
              errorMessage={err('discountType')}
            />
            <TextField
              label={draft.discountType === 'REGULAR' ? t('rows.discountAmount') : t('rows.discountPercent')}
              inputMode="decimal"
              value={draft.discountValue}
              onChange={(discountValue) => set({ discountValue })}
              isDisabled={draft.discountType === 'NONE'}
              errorMessage={err('discountValue')}
            />
            <p className="text-sm text-slate-700 sm:col-span-2" aria-live="polite">
              {t('rows.total')}: <span className="font-medium tabular-nums">{total ? formatMoney(total) : '—'}</span>
            </p>
            {/* Enter in a field saves */}
            <button type="submit" className="hidden" tabIndex={-1} aria-hidden="true" />
          </form>
        ) : null}
      </Dialog>
      <ConfirmDialog
        isOpen={removing !== null}
        onOpenChange={(isOpen) => (isOpen ? null : setRemoving(null))}
        title={t('rows.removeTitle')}
        message={t('rows.removeConfirm', { name: removing ? rowName(removing) : '' })}
        confirmLabel={t('rows.remove')}
        variant="danger"
        onConfirm={() => {
          if (removing)
            void remover.submit({ intent: 'row-delete', kind, id: removing.id }, { method: 'post', action: url });
          setRemoving(null);
        }}
      />
    </section>
  );
}
