import { DiscountField } from '~/app/components/articles/discount-field';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Button,
  ConfirmDialog,
  DatePicker,
  dateValueOf,
  formatDate,
  NativeSelect,
  TextField,
  useTenantClock,
} from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import { NATIVE_INPUT_CLASS } from '~/app/components/ui/native-field';
import { VAT_RATES, type VatRate } from '~/core/invoicing/invoice-math';
import type { InvoiceView } from '~/core/invoicing/invoice.service';
import { GREEN_TECHNOLOGIES, TAX_REDUCTION_KINDS, type TaxReductionKind } from '~/core/invoicing/tax-reduction';
import {
  draftDueDate,
  draftErrors,
  draftFigures,
  emptyRowDraft,
  newKey,
  rowDraftTotal,
  toDraft,
  toPayload,
  type InvoiceDraft,
  type RowDraft,
} from './invoice-draft';
import { InvoiceFigures } from './invoice-figures';
import { money } from './invoice-format';

/** Field errors as the server answers them (message keys by field path, rows as `rows.{i}.{field}`). */
export type FieldErrors = Record<string, string[]>;

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      data-testid={testId}
    >
      <h2 id={id} className="mb-3 text-base font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A labelled text area with its error, like the kit's TextField. */
function TextArea({
  label,
  value,
  onChange,
  error,
  maxLength,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string[];
  maxLength?: number;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      <textarea
        id={id}
        rows={3}
        value={value}
        maxLength={maxLength}
        aria-invalid={error?.length ? true : undefined}
        aria-describedby={error?.length ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
        className={cx(NATIVE_INPUT_CLASS, 'py-2', error?.length ? 'border-red-600' : '')}
      />
      {error?.length ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error.join(' ')}
        </p>
      ) : null}
    </div>
  );
}

/** A native checkbox with its label and help, 40 px tall for thumbs. */
function Check({
  label,
  description,
  checked,
  onChange,
}: {
  label: string;
  description?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="flex min-h-10 items-start gap-3 py-1 text-sm">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.currentTarget.checked)}
        className="mt-0.5 size-5 shrink-0 accent-blue-700"
      />
      <span>
        <span className="font-medium text-slate-900">{label}</span>
        {description ? <span className="block text-slate-600">{description}</span> : null}
      </span>
    </label>
  );
}

export interface InvoiceEditorProps {
  invoice: InvoiceView;
  /** The server's field errors of the last save or finalize. */
  fields: FieldErrors | undefined;
  busy: boolean;
  onSave: (payload: ReturnType<typeof toPayload>) => void;
  onFinalize: () => void;
  /** Told when the draft first differs from what is stored (apply actions wait for a save). */
  onDirtyChange: (dirty: boolean) => void;
}

/**
 * A draft invoice, edited (issue 14 item 2): its dates, payment terms, marking and references,
 * footer text, reverse VAT, the tax reduction with its property and persons, and the rows (each
 * one's text, quantity, unit, price, discount, VAT rate and labour/material; removed after asking;
 * free rows and text rows added). The amounts follow as typed; Save sends it all with the version
 * it was read at, Finalize gives it its number. Mount it anew (a key) for each stored version.
 */
export function InvoiceEditor({ invoice, fields, busy, onSave, onFinalize, onDirtyChange }: InvoiceEditorProps) {
  const { t } = useTranslation('invoices');
  const { t: tc } = useTranslation();
  const { dateFormat } = useTenantClock();
  const initial = useMemo(() => toDraft(invoice), [invoice]);
  const [draft, setDraft] = useState<InvoiceDraft>(initial);
  const [dirty, setDirty] = useState(false);
  const [removing, setRemoving] = useState<number | null>(null);
  const [local, setLocal] = useState<FieldErrors>({});
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);

  const change = (patch: Partial<InvoiceDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setDirty(true);
  };
  const changeRow = (i: number, patch: Partial<RowDraft>) =>
    change({ rows: draft.rows.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  const errors = { ...(fields ?? {}), ...local };
  const err = (name: string) => errors[name]?.map((k) => tc(k));
  const figures = useMemo(() => draftFigures(draft), [draft]);
  const due = draftDueDate(draft);
  const reduces = draft.taxReduction !== 'none';

  const save = () => {
    const found = draftErrors(draft);
    setLocal(found);
    if (Object.keys(found).length) return;
    onSave(toPayload(draft));
  };

  return (
    <form
      noValidate
      className="space-y-4"
      aria-label={t('editor.label')}
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <Section title={t('section.details')} testId="invoice-editor-details">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <DatePicker
            label={t('field.invoiceDate')}
            value={dateValueOf(draft.invoiceDate)}
            onChange={(v) => change({ invoiceDate: v ? v.toString() : '' })}
            errorMessage={err('invoiceDate')}
            isRequired
          />
          <DatePicker
            label={t('field.deliveryDate')}
            value={dateValueOf(draft.deliveryDate)}
            onChange={(v) => change({ deliveryDate: v ? v.toString() : '' })}
            errorMessage={err('deliveryDate')}
          />
          <TextField
            label={t('field.paymentTermDays')}
            inputMode="numeric"
            value={draft.paymentTermDays}
            onChange={(v) => change({ paymentTermDays: v })}
            description={due ? t('field.dueOn', { date: formatDate(due, dateFormat) }) : undefined}
            errorMessage={err('paymentTermDays')}
          />
          <TextField
            label={t('field.marking')}
            value={draft.marking}
            onChange={(v) => change({ marking: v })}
            maxLength={200}
            errorMessage={err('marking')}
          />
          <TextField
            label={t('field.ourReference')}
            value={draft.ourReference}
            onChange={(v) => change({ ourReference: v })}
            maxLength={200}
            errorMessage={err('ourReference')}
          />
          <TextField
            label={t('field.yourReference')}
            value={draft.yourReference}
            onChange={(v) => change({ yourReference: v })}
            maxLength={200}
            errorMessage={err('yourReference')}
          />
          <TextField
            label={t('field.customerOrderNumber')}
            value={draft.customerOrderNumber}
            onChange={(v) => change({ customerOrderNumber: v })}
            maxLength={100}
            errorMessage={err('customerOrderNumber')}
          />
        </div>
        <div className="mt-4">
          <TextArea
            label={t('field.footerText')}
            value={draft.footerText}
            onChange={(v) => change({ footerText: v })}
            maxLength={2000}
            error={err('footerText')}
          />
        </div>
      </Section>

      <Section title={t('section.tax')} testId="invoice-editor-tax">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <Check
              label={t('tax.reverseVat')}
              description={t('tax.reverseVatHelp')}
              checked={draft.reverseVat}
              onChange={(reverseVat) => change({ reverseVat })}
            />
          </div>
          <NativeSelect
            label={t('tax.kind')}
            value={draft.taxReduction}
            onChange={(v) => change({ taxReduction: v as TaxReductionKind })}
            items={TAX_REDUCTION_KINDS.map((k) => ({ id: k, label: t(`taxKind.${k}`) }))}
          />
          {err('taxReduction') ? <p className="text-sm text-red-700">{err('taxReduction')!.join(' ')}</p> : null}
        </div>
        {reduces ? (
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            {draft.taxReduction === 'ROT' ? (
              <>
                <TextField
                  label={t('tax.propertyDesignation')}
                  value={draft.propertyDesignation}
                  onChange={(v) => change({ propertyDesignation: v })}
                  maxLength={100}
                  errorMessage={err('propertyDesignation')}
                />
                <TextField
                  label={t('tax.housingOrgNr')}
                  value={draft.housingOrgNr}
                  onChange={(v) => change({ housingOrgNr: v })}
                  maxLength={20}
                  errorMessage={err('housingOrgNr')}
                />
              </>
            ) : null}
            <fieldset className="grid gap-2 sm:col-span-2">
              <legend className="text-sm font-medium text-gray-900">{t('tax.persons')}</legend>
              {err('taxReductionPersons') ? (
                <p className="text-sm text-red-700">{err('taxReductionPersons')!.join(' ')}</p>
              ) : null}
              {draft.persons.length === 0 ? <p className="text-sm text-slate-600">{t('tax.noPersons')}</p> : null}
              <ul className="grid gap-2">
                {draft.persons.map((p, i) => (
                  <li key={p.key} className="flex items-end gap-2">
                    <TextField
                      className="flex-1"
                      label={t('tax.person', { n: i + 1 })}
                      value={p.personId}
                      inputMode="numeric"
                      maxLength={13}
                      onChange={(v) =>
                        change({ persons: draft.persons.map((x, j) => (j === i ? { ...x, personId: v } : x)) })
                      }
                      errorMessage={err(`taxReductionPersons.${i}.personId`)}
                    />
                    <Button
                      variant="ghost"
                      onPress={() => change({ persons: draft.persons.filter((_, j) => j !== i) })}
                      aria-label={t('tax.removePerson', { n: i + 1 })}
                    >
                      {t('tax.remove')}
                    </Button>
                  </li>
                ))}
              </ul>
              {draft.persons.length < 4 ? (
                <div>
                  <Button
                    variant="secondary"
                    size="sm"
                    onPress={() => change({ persons: [...draft.persons, { key: newKey('person'), personId: '' }] })}
                  >
                    {t('tax.addPerson')}
                  </Button>
                </div>
              ) : null}
            </fieldset>
          </div>
        ) : null}
      </Section>

      <Section title={t('section.rows')} testId="invoice-editor-rows">
        {err('rows') ? <p className="mb-3 text-sm text-red-700">{err('rows')!.join(' ')}</p> : null}
        {draft.rows.length === 0 ? <p className="mb-3 text-sm text-slate-600">{t('row.none')}</p> : null}
        <ol className="space-y-3">
          {draft.rows.map((r, i) => (
            <li key={r.key}>
              <RowEditor
                row={r}
                index={i}
                green={draft.taxReduction === 'green'}
                err={(field) => err(`rows.${i}.${field}`)}
                onChange={(patch) => changeRow(i, patch)}
                onRemove={() => setRemoving(i)}
              />
            </li>
          ))}
        </ol>
        <div className="mt-3 flex flex-wrap gap-2">
          <Button variant="secondary" onPress={() => change({ rows: [...draft.rows, emptyRowDraft(false)] })}>
            {t('row.add')}
          </Button>
          <Button variant="secondary" onPress={() => change({ rows: [...draft.rows, emptyRowDraft(true)] })}>
            {t('row.addText')}
          </Button>
        </div>
      </Section>

      <InvoiceFigures
        figures={figures ?? invoice.figures}
        reverseVat={draft.reverseVat}
        currency={invoice.currency}
        unsaved={dirty}
      />

      <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center gap-2 border-t border-slate-200 bg-white/95 px-4 py-3 sm:mx-0 sm:rounded-xl sm:ring-1 sm:ring-slate-200">
        <Button type="submit" variant="primary" isPending={busy}>
          {t('action.save')}
        </Button>
        <Button variant="secondary" onPress={onFinalize} isDisabled={busy || dirty}>
          {t('action.finalize')}
        </Button>
        {dirty ? <span className="text-sm text-slate-700">{t('action.saveFirst')}</span> : null}
      </div>

      <ConfirmDialog
        isOpen={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t('row.removeTitle')}
        message={t('row.removeMessage', {
          title: removing !== null ? draft.rows[removing]?.title || t('row.heading', { n: removing + 1 }) : '',
        })}
        confirmLabel={t('row.removeConfirm')}
        variant="danger"
        onConfirm={() => {
          if (removing !== null) change({ rows: draft.rows.filter((_, j) => j !== removing) });
          setRemoving(null);
        }}
      />
    </form>
  );
}

/** One row's fields, with visible labels (the same on a phone and a large screen). */
function RowEditor({
  row: r,
  index,
  green,
  err,
  onChange,
  onRemove,
}: {
  row: RowDraft;
  index: number;
  green: boolean;
  err: (field: string) => string[] | undefined;
  onChange: (patch: Partial<RowDraft>) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('invoices');
  const n = index + 1;
  const total = r.isText ? null : rowDraftTotal(r);
  return (
    <fieldset className="rounded-lg border border-slate-200 p-3" data-testid="invoice-row-editor">
      <legend className="px-1 text-sm font-medium text-slate-800">
        {r.isText ? t('row.textHeading', { n }) : t('row.heading', { n })}
        {r.articleNumber ? <span className="ms-2 font-normal text-slate-600">{r.articleNumber}</span> : null}
      </legend>
      {r.isText ? (
        <div className="flex items-end gap-2">
          <TextField
            className="flex-1"
            label={t('row.text')}
            value={r.title}
            onChange={(title) => onChange({ title })}
            maxLength={300}
            isRequired
            errorMessage={err('articleTitle')}
          />
          <Button variant="ghost" onPress={onRemove} aria-label={t('row.remove', { n })}>
            {t('row.removeShort')}
          </Button>
        </div>
      ) : (
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-8">
          <TextField
            className="col-span-2 lg:col-span-3"
            label={t('row.title')}
            value={r.title}
            onChange={(title) => onChange({ title })}
            maxLength={300}
            isRequired
            errorMessage={err('articleTitle')}
          />
          <TextField
            className="col-span-2 lg:col-span-5"
            label={t('row.description')}
            value={r.description}
            onChange={(description) => onChange({ description })}
            maxLength={2000}
            errorMessage={err('articleDescription')}
          />
          <TextField
            label={t('row.amount')}
            inputMode="decimal"
            value={r.amount}
            onChange={(amount) => onChange({ amount })}
            errorMessage={err('amount')}
          />
          <TextField
            label={t('row.unit')}
            value={r.unit}
            onChange={(unit) => onChange({ unit })}
            maxLength={20}
            errorMessage={err('unit')}
          />
          <TextField
            label={t('row.price')}
            inputMode="decimal"
            value={r.price}
            onChange={(price) => onChange({ price })}
            errorMessage={err('price')}
          />
          <DiscountField
            label={t('row.discount')}
            labelClassName="text-sm font-medium text-gray-900"
            value={r.discount}
            unit={r.unit}
            onChange={(discount) => onChange({ discount })}
            error={(err('discountValue') ?? err('discountType'))?.join(' ')}
          />
          <NativeSelect
            label={t('row.vat')}
            value={r.vatPercent}
            onChange={(v) => onChange({ vatPercent: v as VatRate })}
            items={VAT_RATES.map((rate) => ({ id: rate, label: t('row.vatRate', { percent: rate }) }))}
          />
          <NativeSelect
            label={t('row.work')}
            value={r.work}
            onChange={(v) => onChange({ work: v as RowDraft['work'] })}
            items={[
              { id: 'labour', label: t('work.labour') },
              { id: 'material', label: t('work.material') },
            ]}
          />
          {green ? (
            <NativeSelect
              label={t('row.green')}
              value={r.green ?? ''}
              onChange={(v) => onChange({ green: (v || null) as RowDraft['green'] })}
              items={[
                { id: '', label: t('green.none') },
                ...GREEN_TECHNOLOGIES.map((g) => ({ id: g, label: t(`green.${g}`) })),
              ]}
            />
          ) : null}
          <div className="flex items-end justify-between gap-2 sm:col-span-2 lg:col-span-1">
            <p className="pb-2 text-sm">
              <span className="block text-xs text-slate-600">{t('row.total')}</span>
              <span className="font-medium tabular-nums" data-testid="row-total">
                {total === null ? '—' : money(total)}
              </span>
            </p>
          </div>
          <div className="col-span-2 flex items-end justify-end sm:col-span-4 lg:col-span-8">
            <Button variant="ghost" onPress={onRemove} aria-label={t('row.remove', { n })}>
              {t('row.removeShort')}
            </Button>
          </div>
        </div>
      )}
    </fieldset>
  );
}
