import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Form, Link, redirect, useActionData, useNavigation, useSubmit } from 'react-router';
import type { Route } from './+types/supplierinvoices.$id';
import { OpenDeviations } from '~/app/components/deviations/open-deviations';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { pageTitle } from '~/app/lib/page-title';
import { Button, ConfirmDialog } from '~/app/components/ui';
import { Card, DateTime, TextArea, useResultToast } from '~/app/components/objects/shared';
import {
  money,
  SupplierInvoiceSource,
  SupplierInvoiceStatus,
} from '~/app/components/supplier-invoices/supplier-invoice-table';
import { isAppError } from '~/core/errors/app-error';
import { hasAccess } from '~/core/permissions/access';
import {
  addSupplierInvoiceComment,
  approveContent,
  approvePayment,
  declineSupplierInvoice,
  deleteSupplierInvoice,
  getSupplierInvoice,
  patchSupplierInvoice,
  SUPPLIER_INVOICE_ACCESS,
} from '~/core/supplier-invoices/supplier-invoice.service';
import { retrySupplierInvoiceDelivery } from '~/core/supplier-invoices/supplier-invoice-delivery';

/**
 * One supplier invoice (issue 33): the document beside its rows, the two approvals with the
 * buttons the asker may use, matching by hand with suggestions while it waits, the ERP booking and
 * the comment thread. An invoice the asker may not see is the not-found page.
 */
export const middleware = guard(SUPPLIER_INVOICE_ACCESS.read);

export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const auth = requireAuth(context);
    return {
      ...(await run(context, (ctx) => getSupplierInvoice(ctx, params.id))),
      canRetry: hasAccess(auth, SUPPLIER_INVOICE_ACCESS.edit),
    };
  } catch (e) {
    if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
    throw e;
  }
}

type ActionResult = { ok?: boolean; intent?: string; code?: string; fields?: Record<string, string[]>; message?: string };

const MESSAGE: Record<string, string> = {
  approveContent: 'approvedContent',
  approvePayment: 'approvedPayment',
  decline: 'declined',
  comment: 'commented',
  match: 'matched',
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  const id = params.id;
  const text = (name: string) => String(form.get(name) ?? '');
  const idOrNull = (name: string) => (form.has(name) ? text(name) || null : undefined);
  try {
    await run(context, async (ctx) => {
      if (intent === 'approveContent') await approveContent(ctx, id);
      else if (intent === 'approvePayment') await approvePayment(ctx, id);
      else if (intent === 'decline') await declineSupplierInvoice(ctx, { id, comment: text('comment') });
      else if (intent === 'comment') await addSupplierInvoiceComment(ctx, { id, text: text('text') });
      else if (intent === 'match')
        await patchSupplierInvoice(ctx, {
          id,
          supplierId: idOrNull('supplierId'),
          workOrderId: idOrNull('workOrderId'),
          projectId: idOrNull('projectId'),
        });
      else if (intent === 'retry') {
        await getSupplierInvoice(ctx, id);
        await retrySupplierInvoiceDelivery(ctx, id);
      } else if (intent === 'delete') await deleteSupplierInvoice(ctx, id);
    });
  } catch (e) {
    return actionError<ActionResult>(e, { intent });
  }
  if (intent === 'delete') throw redirect('/supplierinvoices');
  return data<ActionResult>({ ok: true, intent, message: MESSAGE[intent] });
}

export const handle = pageTitle(
  'title.supplierInvoice',
  (d: Route.ComponentProps['loaderData']) => d.supplierInvoice.invoiceNumber,
);

export default function SupplierInvoicePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('supplierinvoices');
  const { t: tc } = useTranslation();
  const result = useActionData<ActionResult>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [declining, setDeclining] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const { supplierInvoice: si, can, erp, suggestions } = loaderData;
  const busy = (intent: string) => navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  useResultToast(result, { ns: 'supplierinvoices' });
  const fieldError = (intent: string, name: string) =>
    result?.intent === intent ? result.fields?.[name]?.map((k) => tc(k)) : undefined;
  const post = (intent: string) => void submit({ intent }, { method: 'post' });

  const target = si.workOrderId ? (
    <Link to={`/work-orders/${si.workOrderId}`} className="text-brand-700 underline">
      {si.workOrderNumber}
    </Link>
  ) : null;
  const project = si.projectId ? (
    <Link to={`/projects/${si.projectId}?tab=supplierinvoices`} className="text-brand-700 underline">
      {si.projectNumber} · {si.projectTitle}
    </Link>
  ) : null;

  return (
    <div className="grid gap-4">
      <Link to="/supplierinvoices" className="text-sm text-brand-700 underline">
        ← {t('back')}
      </Link>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold break-words">
          {t('heading', { number: si.invoiceNumber, supplier: si.supplierName ?? si.seller.name ?? '—' })}
        </h1>
        <SupplierInvoiceStatus invoice={si} />
        <SupplierInvoiceSource source={si.source} />
        {si.invoiceType === 'credit' ? <span className="text-sm text-slate-700">{t('credit')}</span> : null}
      </div>
      <div className="grid gap-4 xl:grid-cols-2">
        <Card title={t('document.title')}>
          {si.fileId ? (
            <iframe
              title={t('document.pdf')}
              src={`/api/file/${si.fileId}`}
              className="h-[32rem] w-full rounded-md ring-1 ring-slate-200"
            />
          ) : null}
          {si.hasDocument ? (
            <a
              href={`/api/supplierinvoices/${si.id}/document`}
              target="_blank"
              rel="noreferrer"
              className="text-sm text-brand-700 underline"
            >
              {t('document.xml')}
            </a>
          ) : null}
          {!si.fileId && !si.hasDocument ? <p className="text-sm text-slate-600">{t('document.none')}</p> : null}
          <dl className="mt-4 grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-2">
            <Field label={t('field.invoiceDate')}>{si.invoiceDate}</Field>
            <Field label={t('field.dueDate')}>{si.dueDate ?? '—'}</Field>
            <Field label={t('field.orderReference')}>{si.orderNumber ?? '—'}</Field>
            <Field label={t('field.ocr')}>{si.ocr ?? '—'}</Field>
            <Field label={t('field.seller')}>
              {[si.seller.name, si.seller.organizationNumber, si.seller.peppolId].filter(Boolean).join(' · ') || '—'}
            </Field>
            <Field label={t('field.workOrder')}>{target ?? '—'}</Field>
            <Field label={t('field.project')}>{project ?? '—'}</Field>
            <Field label={t('field.responsible')}>{si.responsibleUserName ?? '—'}</Field>
          </dl>
        </Card>
        <Card title={t('rows.title')}>
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead>
                <tr className="border-b border-slate-200 text-left text-slate-600">
                  <th scope="col" className="py-2 pe-3 font-medium">
                    {t('rows.description')}
                  </th>
                  <th scope="col" className="py-2 pe-3 text-end font-medium">
                    {t('rows.amount')}
                  </th>
                  <th scope="col" className="py-2 pe-3 text-end font-medium">
                    {t('rows.price')}
                  </th>
                  <th scope="col" className="py-2 pe-3 text-end font-medium">
                    {t('rows.vat')}
                  </th>
                  <th scope="col" className="py-2 text-end font-medium">
                    {t('rows.total')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {si.rows.map((r) => (
                  <tr key={r.id} className="border-b border-slate-100 align-top">
                    <td className="py-2 pe-3">
                      {r.description}
                      {r.articleNumber ? <span className="block text-xs text-slate-600">{r.articleNumber}</span> : null}
                      {r.rebilled ? <span className="block text-xs text-green-800">{t('rows.rebilled')}</span> : null}
                    </td>
                    <td className="py-2 pe-3 text-end tabular-nums">
                      {r.amount} {r.unit ?? ''}
                    </td>
                    <td className="py-2 pe-3 text-end tabular-nums">{money(r.price)}</td>
                    <td className="py-2 pe-3 text-end tabular-nums">{r.vatPercent}</td>
                    <td className="py-2 text-end tabular-nums">{money(r.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <dl className="mt-4 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm" data-testid="supplier-invoice-totals">
            <dt>{t('totals.net')}</dt>
            <dd className="text-end tabular-nums">{money(si.totalCost)}</dd>
            {si.fee ? (
              <>
                <dt>{t('totals.fee')}</dt>
                <dd className="text-end tabular-nums">{money(si.fee)}</dd>
              </>
            ) : null}
            <dt>{t('totals.vat')}</dt>
            <dd className="text-end tabular-nums">{money(si.totalVat)}</dd>
            {Number(si.rounding) ? (
              <>
                <dt>{t('totals.rounding')}</dt>
                <dd className="text-end tabular-nums">{money(si.rounding)}</dd>
              </>
            ) : null}
            <dt className="font-semibold">{t('totals.total')}</dt>
            <dd className="text-end font-semibold tabular-nums">
              {money(si.total)} {si.currency}
            </dd>
          </dl>
        </Card>
      </div>

      {suggestions && can.edit ? (
        <Card title={t('match.title')}>
          <p className="text-sm text-slate-700">{t('match.help')}</p>
          <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-3">
            <input type="hidden" name="intent" value="match" />
            {!si.supplierId ? (
              <Choice name="supplierId" label={t('col.supplier')} options={suggestions.suppliers.map((s) => ({ id: s.id, label: `${s.number} · ${s.title}` }))} errors={fieldError('match', 'supplierId')} />
            ) : null}
            {!si.workOrderId && !si.projectId ? (
              <>
                <Choice name="workOrderId" label={t('field.workOrder')} options={suggestions.workOrders.map((w) => ({ id: w.id, label: `${w.number} · ${w.title}` }))} errors={fieldError('match', 'workOrderId')} />
                <Choice name="projectId" label={t('field.project')} options={suggestions.projects.map((p) => ({ id: p.id, label: `${p.number} · ${p.title}` }))} errors={fieldError('match', 'projectId')} />
              </>
            ) : null}
            <div className="sm:col-span-3">
              <Button type="submit" isPending={busy('match')}>
                {t('match.save')}
              </Button>
            </div>
          </Form>
        </Card>
      ) : null}

      <Card title={t('approvals.title')}>
        <dl className="grid gap-2 text-sm sm:grid-cols-2">
          <Field label={t('approvals.content')}>
            {si.contentApprovedAt ? t('approvals.done', { date: si.contentApprovedAt.slice(0, 10) }) : t('approvals.waiting')}
          </Field>
          <Field label={t('approvals.payment')}>
            {si.paymentApprovedAt ? t('approvals.done', { date: si.paymentApprovedAt.slice(0, 10) }) : t('approvals.waiting')}
          </Field>
        </dl>
        <p className="mt-3 text-sm text-slate-700" data-testid="supplier-invoice-erp">
          {si.source === 'erp'
            ? t(erp.canBook ? 'erp.willApprove' : 'erp.cannotApprove', { erp: erp.displayName, nr: si.erpExternalId ?? '' })
            : t(erp.canBook ? 'erp.willBook' : 'erp.cannotBook', { erp: erp.displayName })}
        </p>
        {si.delivery ? (
          <p className="mt-1 text-sm" role="status">
            {t(`${si.source === 'erp' ? 'erp.approval' : 'erp.status'}.${si.delivery.status}`, { erp: erp.displayName, nr: si.delivery.externalNr ?? si.delivery.externalId ?? '' })}
            {si.delivery.status === 'failed' && loaderData.canRetry ? (
              <Button variant="secondary" size="sm" className="ms-2" onPress={() => post('retry')} isPending={busy('retry')}>
                {t('erp.retry')}
              </Button>
            ) : null}
          </p>
        ) : null}
        <div className="mt-4 flex flex-wrap gap-2">
          {can.approveContent ? (
            <Button onPress={() => post('approveContent')} isPending={busy('approveContent')}>
              {t('approveContent')}
            </Button>
          ) : null}
          {can.approvePayment ? (
            <Button onPress={() => post('approvePayment')} isPending={busy('approvePayment')}>
              {t('approvePayment')}
            </Button>
          ) : null}
          {can.decline ? (
            <Button variant="secondary" onPress={() => setDeclining((v) => !v)} aria-expanded={declining}>
              {t('decline')}
            </Button>
          ) : null}
          {can.delete ? (
            <Button variant="danger" onPress={() => setDeleting(true)}>
              {t('delete')}
            </Button>
          ) : null}
        </div>
        {declining ? (
          <Form method="post" className="mt-3 grid max-w-xl gap-2">
            <input type="hidden" name="intent" value="decline" />
            <TextArea name="comment" label={t('decline.comment')} isRequired errorMessage={fieldError('decline', 'comment')} />
            <div>
              <Button type="submit" variant="danger" isPending={busy('decline')}>
                {t('decline')}
              </Button>
            </div>
          </Form>
        ) : null}
      </Card>

      <Card title={t('comments.title')}>
        {si.comments.length ? (
          <ol className="grid gap-3">
            {si.comments.map((c) => (
              <li key={c.id} className="rounded-md bg-slate-50 p-3 text-sm">
                <div className="text-xs text-slate-600">
                  {c.userName ?? '—'} · <DateTime iso={c.createdAt} />
                  {c.kind === 'decline' ? ` · ${t('comments.declined')}` : ''}
                </div>
                <p className="mt-1 whitespace-pre-wrap">{c.text}</p>
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-sm text-slate-600">{t('comments.empty')}</p>
        )}
        <Form method="post" className="mt-4 grid max-w-xl gap-2" key={si.comments.length}>
          <input type="hidden" name="intent" value="comment" />
          <TextArea name="text" label={t('comments.new')} isRequired errorMessage={fieldError('comment', 'text')} />
          <div>
            <Button type="submit" variant="secondary" isPending={busy('comment')}>
              {t('comments.add')}
            </Button>
          </div>
        </Form>
      </Card>
      <OpenDeviations kind="supplier_invoice" id={si.id} />

      <ConfirmDialog
        isOpen={deleting}
        onOpenChange={setDeleting}
        title={t('delete')}
        message={t('delete.confirm', { number: si.invoiceNumber })}
        confirmLabel={t('delete')}
        variant="danger"
        onConfirm={() => {
          post('delete');
          setDeleting(false);
        }}
      />
    </div>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-slate-600">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

function Choice({
  name,
  label,
  options,
  errors,
}: {
  name: string;
  label: string;
  options: { id: string; label: string }[];
  errors?: string[];
}) {
  const { t } = useTranslation('supplierinvoices');
  const id = `match-${name}`;
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} name={name} className="min-h-11 rounded-md border border-slate-300 px-2 text-sm" defaultValue="">
        <option value="">{t('match.choose')}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
      {errors?.length ? <p className="text-sm text-red-700">{errors.join(' ')}</p> : null}
    </div>
  );
}
