import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, redirect, useActionData, useNavigation, useSubmit } from 'react-router';
import type { Route } from './+types/supplierinvoices.new';
import { tenantContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { pageTitle } from '~/app/lib/page-title';
import { Button, DatePicker, LinkButton, NativeSelect, TextField } from '~/app/components/ui';
import { Card } from '~/app/components/objects/shared';
import { SupplierPicker } from '~/app/components/projects/supplier-picker';
import { DocumentFileField } from '~/app/components/supplier-invoices/document-file-field';
import { discardReceived } from '~/core/files/receive';
import { SUPPLIER_INVOICE_ACCESS, createManualInvoice } from '~/core/supplier-invoices/supplier-invoice.service';
import { receiveTypedInvoiceRequest, typedInvoiceFields } from '~/core/supplier-invoices/typed-invoice-upload';

/**
 * A PDF supplier invoice typed by a person (issue 33 item 1): the PDF shown beside the fields while
 * they are typed, the rows added as needed, the totals as they will be computed. One multipart
 * request: the PDF streams into the file store first, then one unit of work records the invoice
 * with the PDF as its file (createManualInvoice); a refusal leaves nothing behind.
 */
export const middleware = guard(SUPPLIER_INVOICE_ACCESS.edit);

type ActionResult = { ok?: boolean; code?: string; fields?: Record<string, string[]>; message?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const tenant = context.get(tenantContext);
  let received = null;
  let id: string;
  try {
    received = await receiveTypedInvoiceRequest(request, tenant);
    const pdf = received ?? { files: [], fields: {} };
    ({ id } = await run(context, (ctx) => createManualInvoice(ctx, typedInvoiceFields(null, pdf), pdf)));
  } catch (e) {
    if (received) await discardReceived(received);
    return actionError<ActionResult>(e);
  }
  throw redirect(`/supplierinvoices/${id}`);
}

export const handle = pageTitle('title.typedSupplierInvoice');

const VAT_RATES = ['25', '12', '6', '0'] as const;

interface RowDraft {
  key: number;
  description: string;
  articleNumber: string;
  amount: string;
  unit: string;
  price: string;
  vatPercent: (typeof VAT_RATES)[number];
  account: string;
}

const emptyRow = (key: number): RowDraft => ({
  key,
  description: '',
  articleNumber: '',
  amount: '1',
  unit: '',
  price: '',
  vatPercent: '25',
  account: '',
});

/** "1 234,50" → 1234.5; what cannot be read counts as 0 in the preview (the server says why). */
const num = (v: string) => {
  const n = Number(v.replace(/\s/g, '').replace(',', '.'));
  return Number.isFinite(n) ? n : 0;
};
const cents = (n: number) => Math.round(n * 100);

export default function TypedSupplierInvoice() {
  const { t } = useTranslation('supplierinvoices');
  const { t: tc } = useTranslation();
  const result = useActionData<ActionResult>();
  const submit = useSubmit();
  const busy = useNavigation().state !== 'idle';
  const [pdfUrl, setPdfUrl] = useState<string | null>(null);
  const [rows, setRows] = useState<RowDraft[]>([emptyRow(0)]);
  const [fee, setFee] = useState('');
  const [rounding, setRounding] = useState('');
  useEffect(() => () => void (pdfUrl && URL.revokeObjectURL(pdfUrl)), [pdfUrl]);

  const err = (name: string) => result?.fields?.[name]?.map((k) => tc(k));
  const rowErr = (i: number, name: string) => err(`rows.${i}.${name}`);
  const setRow = (key: number, patch: Partial<RowDraft>) =>
    setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  // the totals as the server computes them: rows, the fee at 25 %, the rounding
  const lineCents = rows.map((r) => cents(num(r.amount) * num(r.price)));
  const net = lineCents.reduce((a, b) => a + b, 0) + cents(num(fee));
  const vat = Math.round(
    rows.reduce((a, r, i) => a + lineCents[i]! * (Number(r.vatPercent) / 100), 0) + cents(num(fee)) * 0.25,
  );
  const total = net + vat + cents(num(rounding));
  const shown = (c: number) => (c / 100).toFixed(2);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const invoice = {
      supplierId: text('supplierId'),
      invoiceNumber: text('invoiceNumber'),
      invoiceDate: text('invoiceDate'),
      dueDate: text('dueDate'),
      currency: text('currency').toUpperCase() || 'SEK',
      orderReference: text('orderReference'),
      ocr: text('ocr'),
      fee: fee.trim().replace(',', '.'),
      rounding: rounding.trim().replace(',', '.') || '0',
      rows: rows.map((r) => ({
        description: r.description.trim(),
        articleNumber: r.articleNumber.trim() || null,
        amount: r.amount.trim().replace(',', '.'),
        unit: r.unit.trim() || null,
        price: r.price.trim().replace(',', '.'),
        vatPercent: r.vatPercent,
        account: r.account.trim() || null,
      })),
    };
    const out = new FormData();
    out.set('invoice', JSON.stringify(invoice));
    const pdf = form.get('pdf');
    if (pdf instanceof File && pdf.size) out.set('pdf', pdf);
    void submit(out, { method: 'post', encType: 'multipart/form-data' });
  }

  return (
    <div className="grid gap-4">
      <Link to="/supplierinvoices" className="text-sm text-brand-700 underline">
        ← {t('back')}
      </Link>
      <h1 className="text-2xl font-semibold">{t('typed.title')}</h1>
      <p className="max-w-3xl text-sm text-slate-700">{t('typed.help')}</p>
      {result?.code && !result.fields ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {tc(result.code)}
          {result.message ? ` ${result.message}` : ''}
        </p>
      ) : null}
      <form onSubmit={onSubmit} noValidate={false} className="grid gap-4 xl:grid-cols-2">
        <Card title={t('typed.preview')}>
          <DocumentFileField
            label={t('typed.pdf')}
            name="pdf"
            accept=".pdf,application/pdf"
            error={err('pdf')?.join(' ')}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              setPdfUrl(file ? URL.createObjectURL(file) : null);
            }}
          />
          {pdfUrl ? (
            <iframe title={t('typed.preview')} src={pdfUrl} className="mt-3 h-[36rem] w-full rounded-md ring-1 ring-slate-200" />
          ) : (
            <p className="mt-3 text-sm text-slate-600">{t('typed.previewEmpty')}</p>
          )}
        </Card>
        <Card title={t('document.title')}>
          <div className="grid gap-3 sm:grid-cols-2">
            <SupplierPicker
              name="supplierId"
              label={t('typed.supplier')}
              isRequired
              errorMessage={err('supplierId')}
              className="sm:col-span-2"
            />
            <TextField name="invoiceNumber" label={t('typed.invoiceNumber')} isRequired errorMessage={err('invoiceNumber')} />
            <TextField name="currency" label={t('typed.currency')} defaultValue="SEK" maxLength={3} errorMessage={err('currency')} />
            <DatePicker name="invoiceDate" label={t('field.invoiceDate')} isRequired errorMessage={err('invoiceDate')} />
            <DatePicker name="dueDate" label={t('field.dueDate')} errorMessage={err('dueDate')} />
            <TextField name="orderReference" label={t('field.orderReference')} errorMessage={err('orderReference')} />
            <TextField name="ocr" label={t('field.ocr')} errorMessage={err('ocr')} />
          </div>
          <h2 className="mt-6 font-medium">{t('rows.title')}</h2>
          <ol className="mt-2 grid gap-4">
            {rows.map((r, i) => (
              <li key={r.key} aria-label={t('typed.row', { n: i + 1 })} className="grid gap-2 rounded-md p-3 ring-1 ring-slate-200 sm:grid-cols-6">
                <TextField
                  label={t('rows.description')}
                  value={r.description}
                  onChange={(v) => setRow(r.key, { description: v })}
                  isRequired
                  errorMessage={rowErr(i, 'description')}
                  className="sm:col-span-4"
                />
                <TextField
                  label={t('typed.articleNumber')}
                  value={r.articleNumber}
                  onChange={(v) => setRow(r.key, { articleNumber: v })}
                  errorMessage={rowErr(i, 'articleNumber')}
                  className="sm:col-span-2"
                />
                <TextField
                  label={t('rows.amount')}
                  value={r.amount}
                  onChange={(v) => setRow(r.key, { amount: v })}
                  inputMode="decimal"
                  isRequired
                  errorMessage={rowErr(i, 'amount')}
                />
                <TextField label={t('typed.unit')} value={r.unit} onChange={(v) => setRow(r.key, { unit: v })} />
                <TextField
                  label={t('rows.price')}
                  value={r.price}
                  onChange={(v) => setRow(r.key, { price: v })}
                  inputMode="decimal"
                  isRequired
                  errorMessage={rowErr(i, 'price')}
                />
                <NativeSelect
                  label={t('rows.vat')}
                  items={VAT_RATES.map((v) => ({ id: v, label: `${v} %` }))}
                  value={r.vatPercent}
                  onChange={(v) => setRow(r.key, { vatPercent: v as RowDraft['vatPercent'] })}
                />
                <TextField
                  label={t('typed.account')}
                  value={r.account}
                  onChange={(v) => setRow(r.key, { account: v })}
                  inputMode="numeric"
                  errorMessage={rowErr(i, 'account')}
                />
                <div className="flex items-end">
                  <Button
                    variant="secondary"
                    isDisabled={rows.length === 1}
                    onPress={() => setRows((all) => all.filter((x) => x.key !== r.key))}
                    aria-label={t('typed.removeRow', { n: i + 1 })}
                  >
                    ✕
                  </Button>
                </div>
              </li>
            ))}
          </ol>
          {err('rows') ? <p className="mt-2 text-sm text-red-700">{err('rows')!.join(' ')}</p> : null}
          <div className="mt-2">
            <Button
              variant="secondary"
              onPress={() => setRows((all) => [...all, emptyRow(Math.max(...all.map((x) => x.key)) + 1)])}
            >
              {t('typed.addRow')}
            </Button>
          </div>
          <div className="mt-4 grid gap-3 sm:grid-cols-2">
            <TextField label={t('typed.fee')} value={fee} onChange={setFee} inputMode="decimal" errorMessage={err('fee')} />
            <TextField
              label={t('typed.rounding')}
              value={rounding}
              onChange={setRounding}
              inputMode="decimal"
              errorMessage={err('rounding')}
            />
          </div>
          <p className="mt-4 text-sm font-medium tabular-nums" aria-live="polite">
            {t('typed.totals', { net: shown(net), vat: shown(vat), total: shown(total) })}
          </p>
          <div className="mt-4 flex flex-wrap gap-2">
            <Button type="submit" isPending={busy}>
              {t('typed.submit')}
            </Button>
            <LinkButton href="/supplierinvoices" variant="secondary">
              {t('typed.cancel')}
            </LinkButton>
          </div>
        </Card>
      </form>
    </div>
  );
}
