import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, TextField } from '~/app/components/ui';
import { FileCallError, uploadFile } from '~/app/components/files/files-api';
import type { CompensationTag } from '~/core/time-reports/compensation-tags.service';
import type { CompensationReport, Receipt } from '~/core/time-reports/compensation.service';
import {
  defaultDay,
  ExpenseDeleteDialog,
  ExpenseDialog,
  ExpenseRow,
  ExpenseSection,
  useExpensePanel,
} from './expense-panel';
import { DecimalField, ExpenseField, formatAmount, formatQuantity, parseTyped, typedOf } from './expense-shared';

export interface CompensationPanelProps {
  year: number;
  week: number;
  /** Whose compensations. */
  userId: string;
  /** The week's seven dates, Monday first. */
  days: string[];
  /** The week's compensations (weekExpenses(…).compensation.rows). */
  rows: CompensationReport[];
  /** Every compensation tag (weekExpenses(…).compensation.tags); new reports offer the active ones. */
  tags: CompensationTag[];
  canEdit: boolean;
}

interface Draft {
  id: string | null;
  date: string;
  tagId: string;
  quantity: string;
  amount: string;
  comment: string;
  receipts: Receipt[];
}

/** Receipts: photos from a phone's camera, or PDFs. */
const RECEIPT_ACCEPT = 'image/*,application/pdf,.heic';

function draftOf(row: CompensationReport | null, days: string[]): Draft {
  if (!row) return { id: null, date: defaultDay(days), tagId: '', quantity: '', amount: '', comment: '', receipts: [] };
  return {
    id: row.id,
    date: row.date,
    tagId: row.tagId,
    quantity: row.tagType === 'expense' ? '' : typedOf(row.quantity),
    amount: typedOf(row.amount),
    comment: row.comment ?? '',
    receipts: row.receipts,
  };
}

/** What a distance or travel report comes to at the tag's price, in öre, as the server prices it. */
function priced(quantity: number | null, unitPrice: number | null): number | null {
  if (quantity === null || unitPrice === null || quantity <= 0) return null;
  return Math.round((Math.round(quantity * 100) * Math.round(unitPrice * 100)) / 100) / 100;
}

/**
 * The week's compensations (issue 17; spec section 3 "Compensation report", section 9 codes):
 * mileage allowances in kilometres and travel allowances in days, priced at their type's unit
 * price (shown as it is typed), and expenses by their amount with receipts (a phone's camera or
 * a PDF, uploaded at once and linked on save). Adding and changing happen in a dialog; deleting
 * asks first; reports in a locked period show a lock. Posts to /time/expenses; the page's loader
 * then runs again.
 */
export function CompensationPanel({ userId, days, rows, tags, canEdit }: CompensationPanelProps) {
  const { t } = useTranslation('expenses');
  const panel = useExpensePanel<Draft, CompensationReport>('deleteCompensation');
  const { tc, toast, tagLabel, busy } = panel;
  const { draft, setDraft, setDeleting, err, dayLabel, set, openDraft, submit } = panel;
  const [uploading, setUploading] = useState<{ name: string; progress: number } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const tagById = new Map(tags.map((tag) => [tag.id, tag]));
  const nameOf = (row: CompensationReport) => tagLabel({ code: row.tagCode, name: row.tagName });

  function open(row: CompensationReport | null) {
    openDraft(draftOf(row, days));
  }

  function save(d: Draft) {
    const tag = tagById.get(d.tagId);
    const form = new FormData();
    form.set('intent', 'saveCompensation');
    form.set('id', d.id ?? '');
    form.set('userId', userId);
    form.set('date', d.date);
    form.set('tagId', d.tagId);
    form.set('comment', d.comment);
    form.set('quantity', tag?.type === 'expense' ? '' : d.quantity);
    form.set('amount', tag && tag.type !== 'expense' && tag.unitPrice !== null ? '' : d.amount);
    for (const r of d.receipts) form.append('receiptFileIds', r.id);
    submit(form);
  }

  async function uploadReceipts(files: readonly File[]) {
    for (const file of files) {
      setUploading({ name: file.name, progress: 0 });
      try {
        const stored = await uploadFile(
          `/api/timereports/compensation/receipt?${new URLSearchParams({ userId })}`,
          file,
          null,
          (progress) => setUploading({ name: file.name, progress }),
        );
        setDraft((d) =>
          d
            ? {
                ...d,
                receipts: [
                  ...d.receipts,
                  ...stored.map((f) => ({ id: f.id, name: f.name, contentType: f.contentType, size: f.size })),
                ],
              }
            : d,
        );
      } catch (e) {
        const code = e instanceof FileCallError ? e.code : 'FAILED_TO_UPLOAD_FILE';
        toast.show({ kind: 'error', message: t('compensation.uploadFailed', { name: file.name, reason: tc(code) }) });
      }
    }
    setUploading(null);
  }

  const totalAmount = rows.reduce((s, r) => s + Math.round(r.amount * 100), 0) / 100;
  const draftTag = draft ? tagById.get(draft.tagId) : undefined;
  const liveAmount =
    draft && draftTag && draftTag.type !== 'expense' ? priced(parseTyped(draft.quantity), draftTag.unitPrice) : null;
  const offered = tags.filter((tag) => tag.active || tag.id === draft?.tagId);
  const groups = (['distance', 'travel', 'expense'] as const)
    .map((type) => ({ type, tags: offered.filter((tag) => tag.type === type) }))
    .filter((g) => g.tags.length);

  const quantityText = (row: CompensationReport) =>
    row.tagType === 'distance'
      ? t('compensation.km', { value: formatQuantity(row.quantity) })
      : row.tagType === 'travel'
        ? t('compensation.days', { value: formatQuantity(row.quantity) })
        : null;

  return (
    <ExpenseSection
      headingId="expenses-compensation"
      title={t('compensation.title')}
      addLabel={t('compensation.add')}
      onAdd={() => open(null)}
      canEdit={canEdit}
      empty={t('compensation.empty')}
      isEmpty={rows.length === 0}
      rows={rows.map((row) => (
        <ExpenseRow
          key={row.id}
          locked={row.locked}
          head={
            <>
              <span>{dayLabel(row.date)}</span>
              <span className="tabular-nums">{formatAmount(row.amount)}</span>
            </>
          }
          canEdit={canEdit}
          editLabel={t('compensation.editRow', { name: nameOf(row), date: dayLabel(row.date) })}
          deleteLabel={t('compensation.deleteRow', { name: nameOf(row), date: dayLabel(row.date) })}
          onEdit={() => open(row)}
          onDelete={() => setDeleting(row)}
        >
          <div className="break-words text-slate-700">
            {nameOf(row)}
            {quantityText(row) ? <span className="ms-2 tabular-nums text-slate-600">{quantityText(row)}</span> : null}
          </div>
          {row.comment ? <div className="break-words text-slate-600">{row.comment}</div> : null}
          {row.receipts.length ? (
            <ul className="mt-1 flex flex-wrap gap-x-3" aria-label={t('compensation.receipts')}>
              {row.receipts.map((r) => (
                <li key={r.id}>
                  <a
                    href={`/api/timereports/compensation/receipt/${r.id}`}
                    target="_blank"
                    rel="noreferrer"
                    className="inline-flex min-h-10 items-center text-brand-700 underline"
                  >
                    {r.name}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </ExpenseRow>
      ))}
      totalLabel={t('compensation.total')}
      total={formatAmount(totalAmount)}
    >
      <ExpenseDialog
        title={draft?.id ? t('compensation.editTitle') : t('compensation.addTitle')}
        panel={panel}
        days={days}
        dateLabel={t('compensation.date')}
        isDismissable={!busy && !uploading}
        isSaveDisabled={uploading !== null}
        onSave={save}
      >
        {(draft) => (
          <>
            <ExpenseField label={t('compensation.tag')} errors={err('tagId')}>
              {(props) => (
                <select {...props} value={draft.tagId} onChange={(e) => set({ tagId: e.target.value })}>
                  <option value="">{t('compensation.chooseTag')}</option>
                  {groups.map((g) => (
                    <optgroup key={g.type} label={t(`type.${g.type}`)}>
                      {g.tags.map((tag) => (
                        <option key={tag.id} value={tag.id}>
                          {tagLabel(tag)}
                        </option>
                      ))}
                    </optgroup>
                  ))}
                </select>
              )}
            </ExpenseField>
            {draftTag && draftTag.type !== 'expense' ? (
              <DecimalField
                label={t(draftTag.type === 'distance' ? 'compensation.quantityKm' : 'compensation.quantityDays')}
                errors={err('data.quantity')}
                autoComplete="off"
                value={draft.quantity}
                onChange={(v) => set({ quantity: v })}
              />
            ) : null}
            {draftTag && draftTag.type !== 'expense' && draftTag.unitPrice !== null ? (
              <p className="text-sm font-medium tabular-nums" role="status" aria-live="polite">
                {liveAmount !== null
                  ? t('compensation.computed', {
                      quantity: formatQuantity(parseTyped(draft.quantity) ?? 0),
                      price: formatAmount(draftTag.unitPrice),
                      amount: formatAmount(liveAmount),
                    })
                  : t('compensation.unitPrice', { price: formatAmount(draftTag.unitPrice) })}
              </p>
            ) : null}
            {draftTag && (draftTag.type === 'expense' || draftTag.unitPrice === null) ? (
              <DecimalField
                label={t(draftTag.type === 'expense' ? 'compensation.amount' : 'compensation.amountOptional')}
                errors={err('data.amount')}
                autoComplete="off"
                value={draft.amount}
                onChange={(v) => set({ amount: v })}
              />
            ) : null}
            <TextField
              label={t('compensation.comment')}
              value={draft.comment}
              onChange={(v) => set({ comment: v })}
              errorMessage={err('comment')}
            />
            {draftTag?.type === 'expense' || draft.receipts.length ? (
              <div className="grid gap-2">
                <span className="text-sm font-medium text-gray-900">{t('compensation.receipts')}</span>
                {draft.receipts.length ? (
                  <ul className="grid gap-1 text-sm">
                    {draft.receipts.map((r) => (
                      <li key={r.id} className="flex items-center justify-between gap-2">
                        <a
                          href={`/api/timereports/compensation/receipt/${r.id}`}
                          target="_blank"
                          rel="noreferrer"
                          className="min-w-0 truncate text-brand-700 underline"
                        >
                          {r.name}
                        </a>
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-label={t('compensation.removeReceipt', { name: r.name })}
                          onPress={() => set({ receipts: draft.receipts.filter((x) => x.id !== r.id) })}
                        >
                          {t('compensation.remove')}
                        </Button>
                      </li>
                    ))}
                  </ul>
                ) : null}
                {uploading ? (
                  <p className="text-sm text-slate-700" role="status">
                    {t('compensation.uploading', { name: uploading.name })}{' '}
                    <progress value={uploading.progress} max={1} className="align-middle" />
                  </p>
                ) : null}
                {err('data.receiptFileIds') ? (
                  <span className="text-sm text-red-700">{err('data.receiptFileIds')!.join(' ')}</span>
                ) : null}
                <input
                  ref={fileInput}
                  type="file"
                  accept={RECEIPT_ACCEPT}
                  multiple
                  className="sr-only"
                  tabIndex={-1}
                  aria-hidden="true"
                  onChange={(e) => {
                    const files = [...(e.currentTarget.files ?? [])];
                    e.currentTarget.value = '';
                    void uploadReceipts(files);
                  }}
                />
                <div>
                  <Button
                    size="sm"
                    variant="secondary"
                    isDisabled={uploading !== null}
                    onPress={() => fileInput.current?.click()}
                  >
                    {t('compensation.addReceipt')}
                  </Button>
                </div>
              </div>
            ) : null}
          </>
        )}
      </ExpenseDialog>

      <ExpenseDeleteDialog
        panel={panel}
        title={t('compensation.deleteTitle')}
        message={(row) =>
          t('compensation.deleteMessage', {
            name: nameOf(row),
            date: dayLabel(row.date),
            amount: formatAmount(row.amount),
          })
        }
      />
    </ExpenseSection>
  );
}
