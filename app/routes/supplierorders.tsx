import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, Link, useActionData, useNavigation, useSubmit } from 'react-router';
import type { Route } from './+types/supplierorders';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { pageTitle } from '~/app/lib/page-title';
import { Button, ConfirmDialog } from '~/app/components/ui';
import { useResultToast } from '~/app/components/objects/shared';
import { RaiseDeviationLink } from '~/app/components/deviations/raise-deviation-link';
import { decodeText } from '~/core/import-export/csv';
import { formatNumber } from '~/core/i18n/number-format';
import {
  discardSupplierOrder,
  handleSupplierOrder,
  listSupplierOrdersInError,
  openWorkOrderChoices,
  SUPPLIER_ORDER_ACCESS,
  supplierChoices,
  uploadSupplierOrder,
  type SupplierOrderInError,
} from '~/core/supplier-orders/supplier-order.service';

/**
 * Supplier orders (issue 33 item 5; decision 055): wholesalers' order confirmations whose work-order
 * reference named no open order, of the past two months, newest first, 50 at a time; each is
 * handled to a work order (its number or title) or discarded after a confirmation. A confirmation
 * (Peppol Order Response, or a wholesaler's CSV with its supplier) is uploaded here too: one that
 * names an open order adds its rows there at once.
 */
export const middleware = guard(SUPPLIER_ORDER_ACCESS.edit);

const PAGE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const limit = Math.min(200, Math.max(PAGE, Number(url.searchParams.get('limit')) || PAGE));
  return run(context, async (ctx) => {
    const page = await listSupplierOrdersInError(ctx, { limit });
    return {
      ...page,
      suppliers: await supplierChoices(ctx),
      // the handle fields' suggestions, only when there is something to handle
      workOrders: page.orders.length ? await openWorkOrderChoices(ctx) : [],
      limit,
    };
  });
}

type ActionResult = {
  ok?: boolean;
  intent?: string;
  id?: string;
  code?: string;
  fields?: Record<string, string[]>;
  message?: string;
  uploaded?: { status: string; orderNumber: string; workOrderNumber: string | null; rowsAdded: number }[];
  handled?: { workOrderId: string; workOrderNumber: string; rowsAdded: number };
};

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'upload');
  const id = String(form.get('id') ?? '');
  try {
    if (intent === 'handle') {
      const handled = await run(context, (ctx) =>
        handleSupplierOrder(ctx, { id, workOrderTitle: String(form.get('workOrderTitle') ?? '') }),
      );
      return { ok: true, intent, id, handled } satisfies ActionResult;
    }
    if (intent === 'discard') {
      await run(context, (ctx) => discardSupplierOrder(ctx, id));
      return { ok: true, intent, id, message: 'discarded' } satisfies ActionResult;
    }
    const file = form.get('document');
    const text = file instanceof File && file.size ? decodeText(new Uint8Array(await file.arrayBuffer())) : '';
    const { orders } = await run(context, (ctx) =>
      uploadSupplierOrder(ctx, { document: text, supplierId: String(form.get('supplierId') ?? '') }),
    );
    return { ok: true, intent: 'upload', uploaded: orders } satisfies ActionResult;
  } catch (e) {
    return actionError<ActionResult>(e, { intent, id });
  }
}

export const handle = pageTitle('nav.supplierOrders');

function OrderCard({ order, result, busy }: { order: SupplierOrderInError; result?: ActionResult; busy: boolean }) {
  const { t } = useTranslation('supplierorders');
  const { t: tc } = useTranslation();
  const submit = useSubmit();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const mine = result?.id === order.id ? result : undefined;
  const titleError =
    mine?.intent === 'handle' ? mine.fields?.workOrderTitle?.map((k) => t(k, { defaultValue: tc(k) })).join(' ') : null;
  const headingId = `so-${order.id}`;
  const fieldId = `so-wo-${order.id}`;
  return (
    <li className="rounded-lg p-4 ring-1 ring-slate-200" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold break-words">
          {t('order.heading', {
            number: order.orderNumber,
            supplier: order.supplierName ?? t('order.unknownSupplier'),
          })}
        </h2>
        <p className="text-sm text-slate-600">
          {order.orderDate ?? order.createdAt.slice(0, 10)} · {t(`source.${order.source}`)}
        </p>
      </div>
      <RaiseDeviationLink kind="supplier_order" id={order.id} label={order.orderNumber} />
      <p className="mt-1 text-sm text-slate-700">
        {order.workOrderReference
          ? t('order.reference', { reference: order.workOrderReference })
          : t('order.noReference')}
      </p>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full min-w-[28rem] text-sm">
          <caption className="sr-only">{t('rows.caption', { number: order.orderNumber })}</caption>
          <thead>
            <tr className="text-left text-slate-600">
              <th scope="col" className="py-1 pe-2 font-medium">
                {t('rows.description')}
              </th>
              <th scope="col" className="py-1 pe-2 font-medium">
                {t('rows.articleNumber')}
              </th>
              <th scope="col" className="py-1 pe-2 text-right font-medium">
                {t('rows.amount')}
              </th>
              <th scope="col" className="py-1 pe-2 text-right font-medium">
                {t('rows.price')}
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                {t('rows.total')}
              </th>
            </tr>
          </thead>
          <tbody>
            {order.rows.map((r) => (
              <tr key={r.id} className="border-t border-slate-100">
                <td className="py-1 pe-2">{r.description}</td>
                <td className="py-1 pe-2">{r.articleNumber ?? '—'}</td>
                <td className="py-1 pe-2 text-right">
                  {formatNumber(Number(r.amount), {
                    decimals: r.amount.includes('.') ? r.amount.split('.')[1]!.length : 0,
                  })}
                  {r.unit ? ` ${r.unit}` : ''}
                </td>
                <td className="py-1 pe-2 text-right">{formatNumber(Number(r.price))}</td>
                <td className="py-1 text-right">{formatNumber(Number(r.total))}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t border-slate-300 font-medium">
              <td colSpan={4} className="py-1 pe-2">
                {t('rows.sum', { currency: order.currency })}
              </td>
              <td className="py-1 text-right">{formatNumber(Number(order.total))}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <Form method="post" className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value="handle" />
          <input type="hidden" name="id" value={order.id} />
          <div className="grid gap-1">
            <label htmlFor={fieldId} className="text-sm font-medium">
              {t('handle.field')}
            </label>
            <input
              id={fieldId}
              name="workOrderTitle"
              required
              maxLength={200}
              list="so-work-orders"
              autoComplete="off"
              defaultValue={order.workOrderReference ?? ''}
              aria-invalid={titleError ? true : undefined}
              aria-describedby={titleError ? `${fieldId}-error` : undefined}
              className="min-h-11 w-56 max-w-full rounded-md border border-slate-300 px-3 text-sm"
            />
            {titleError ? (
              <p id={`${fieldId}-error`} className="text-sm text-red-700">
                {titleError}
              </p>
            ) : null}
          </div>
          <Button type="submit" isPending={busy}>
            {t('handle.submit')}
          </Button>
        </Form>
        <Button variant="secondary" onPress={() => setConfirmOpen(true)}>
          {t('discard.button')}
        </Button>
        <ConfirmDialog
          isOpen={confirmOpen}
          onOpenChange={setConfirmOpen}
          variant="danger"
          title={t('discard.title', { number: order.orderNumber })}
          message={t('discard.message')}
          confirmLabel={t('discard.confirm')}
          onConfirm={() => submit({ intent: 'discard', id: order.id }, { method: 'post' })}
        />
      </div>
    </li>
  );
}

export default function SupplierOrders({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('supplierorders');
  const { t: tc } = useTranslation();
  const result = useActionData<ActionResult>();
  const navigation = useNavigation();
  const busyIntent = navigation.state === 'submitting' ? String(navigation.formData?.get('intent') ?? 'upload') : null;
  const busyId = navigation.state === 'submitting' ? String(navigation.formData?.get('id') ?? '') : null;
  const { orders, totalCount, suppliers, limit } = loaderData;
  // success toasts: upload and handle have their own status lines below; a discard says so
  useResultToast(
    result && !result.ok
      ? result.fields && Object.keys(result.fields).length
        ? undefined
        : result
      : result?.intent === 'discard'
        ? result
        : undefined,
    { ns: 'supplierorders' },
  );
  const uploadResult = result?.intent === 'upload' ? result : undefined;
  const documentError = uploadResult?.fields?.document?.map((k) => t(k, { defaultValue: tc(k) })).join(' ');
  const supplierError = uploadResult?.fields?.supplierId?.map((k) => tc(k)).join(' ');
  return (
    <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <Link to="/supplierinvoices" className="text-sm text-brand-700 underline">
          {t('back')}
        </Link>
      </div>
      <p className="mt-1 text-sm text-slate-700">{t('intro')}</p>

      <details className="mt-4 rounded-lg p-4 ring-1 ring-slate-200" open={Boolean(uploadResult)}>
        <summary className="cursor-pointer font-medium">{t('upload.title')}</summary>
        <Form method="post" encType="multipart/form-data" className="mt-3 grid max-w-xl gap-3">
          <input type="hidden" name="intent" value="upload" />
          <div className="grid gap-1">
            <label htmlFor="so-document" className="text-sm font-medium">
              {t('upload.file')}
            </label>
            <input
              id="so-document"
              name="document"
              type="file"
              required
              accept=".xml,.csv,.txt,application/xml,text/xml,text/csv"
              aria-describedby={documentError ? 'so-document-error so-document-help' : 'so-document-help'}
              className="max-w-full text-sm file:me-2 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2"
            />
            <p id="so-document-help" className="text-xs text-slate-600">
              {t('upload.help')}
            </p>
            {documentError ? (
              <p id="so-document-error" className="text-sm text-red-700">
                {documentError}
              </p>
            ) : null}
          </div>
          <div className="grid gap-1">
            <label htmlFor="so-supplier" className="text-sm font-medium">
              {t('upload.supplier')}
            </label>
            <select
              id="so-supplier"
              name="supplierId"
              defaultValue=""
              aria-describedby={supplierError ? 'so-supplier-error' : undefined}
              className="min-h-11 max-w-full rounded-md border border-slate-300 bg-white px-3 text-sm"
            >
              <option value="">{t('upload.supplierNone')}</option>
              {suppliers.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.number} · {s.title}
                </option>
              ))}
            </select>
            {supplierError ? (
              <p id="so-supplier-error" className="text-sm text-red-700">
                {supplierError}
              </p>
            ) : null}
          </div>
          <div>
            <Button type="submit" isPending={busyIntent === 'upload'}>
              {t('upload.submit')}
            </Button>
          </div>
        </Form>
        {uploadResult?.ok && uploadResult.uploaded ? (
          <div role="status" className="mt-3">
            <ul className="grid gap-1 text-sm">
              {uploadResult.uploaded.map((o) => (
                <li key={o.orderNumber}>
                  {o.status === 'added'
                    ? t('upload.added', { number: o.orderNumber, workOrder: o.workOrderNumber, count: o.rowsAdded })
                    : o.status === 'error'
                      ? t('upload.inError', { number: o.orderNumber })
                      : t('upload.nothing', { number: o.orderNumber })}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </details>

      {result?.ok && result.intent === 'handle' && result.handled ? (
        <p role="status" className="mt-4 rounded-md bg-emerald-50 p-3 text-sm text-emerald-950">
          {t('handle.done', { workOrder: result.handled.workOrderNumber, count: result.handled.rowsAdded })}{' '}
          <Link to={`/work-orders/${result.handled.workOrderId}`} className="underline">
            {t('handle.open', { workOrder: result.handled.workOrderNumber })}
          </Link>
        </p>
      ) : null}

      <h2 className="mt-6 text-lg font-semibold">{t('list.title', { count: totalCount })}</h2>
      <datalist id="so-work-orders">
        {loaderData.workOrders.map((w) => (
          <option key={w.number} value={w.number}>
            {w.title}
          </option>
        ))}
      </datalist>
      {orders.length ? (
        <ul className="mt-3 grid gap-4">
          {orders.map((o) => (
            <OrderCard key={o.id} order={o} result={result} busy={busyIntent === 'handle' && busyId === o.id} />
          ))}
        </ul>
      ) : (
        <p className="mt-3 rounded-lg bg-slate-50 p-6 text-center text-slate-700">{t('list.empty')}</p>
      )}
      {totalCount > orders.length ? (
        <Link
          to={`?limit=${limit + PAGE}`}
          className="mt-4 inline-block text-sm text-brand-700 underline"
          preventScrollReset
        >
          {t('showMore')}
        </Link>
      ) : null}
    </section>
  );
}
