import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useFetcher, useNavigate } from 'react-router';
import { CustomerPicker } from '~/app/components/inventory/pickers/customer-picker';
import { ObjectPicker } from '~/app/components/inventory/pickers/object-picker';
import type { OrderInvoiceSummary } from '~/app/components/invoices/invoice-format';
import { OrderInvoiceLink } from '~/app/components/invoices/order-invoice-link';
import {
  Button,
  ConfirmDialog,
  Menu,
  NativeSelect,
  TextField,
  useToast,
  WidgetBoundary,
  type MenuItemDef,
} from '~/app/components/ui';
import type { ProposalSettings } from '~/core/proposals/proposal.service';
import type { SalesOrder, SalesOrderOptions } from '~/core/proposals/sales-order.service';
import { RecordHistory } from './record-history';
import { DocumentActions } from './document-actions';
import { RowsEditor } from './rows-editor';
import { LeaveUnsavedDialog } from './leave-unsaved-dialog';
import { useAutosave } from './use-autosave';

export type SalesOrderActionResult =
  | { ok: true; intent: 'save' | 'close' | 'reopen'; salesOrder: SalesOrder }
  | { ok?: undefined; intent: string; code: string; fields?: Record<string, string[]> };

interface Props extends SalesOrderOptions {
  salesOrder: SalesOrder;
  settings: ProposalSettings;
  can: { edit: boolean; delete: boolean; createWorkOrder: boolean };
  groups?: { id: string; title: string }[];
  /** The closed order's invoice, when the viewer may read invoices. */
  invoice?: OrderInvoiceSummary | null;
}

/**
 * A sales order (spec sections 2–4): its title, customer, reference person, department and rows
 * (the proposal's row editor and arithmetic), saved by itself 2.5 s after the last change with
 * the same conflict notice as a proposal. Closing asks whether it is paid and needs a reference
 * person and a customer number; a closed order is read-only until reopened.
 */
export function SalesOrderScreen({ salesOrder, settings, can, users, departments, groups, invoice }: Props) {
  const { t } = useTranslation('sales');
  const { t: tp } = useTranslation('proposals');
  const { t: tc } = useTranslation('common');
  const toast = useToast();
  const navigate = useNavigate();
  const actor = useFetcher<SalesOrderActionResult>();
  const paidId = useId();
  const autosave = useAutosave({ initial: salesOrder, recordKey: 'salesOrder', conflictCode: 'SALES_ORDER_CHANGED' });
  const { draft, setDraft, state, fields, saving } = autosave;
  const [confirm, setConfirm] = useState<'close' | 'reopen' | 'delete' | 'workorder' | null>(null);
  const [objectId, setObjectId] = useState<string | null>(salesOrder.proposalObjectId);
  const [paid, setPaid] = useState(false);
  const readOnly = draft.status !== 'open' || !can.edit;
  const change = (patch: Partial<SalesOrder>) => {
    if (!readOnly) autosave.change(patch);
  };

  useEffect(() => {
    const r = actor.data;
    if (actor.state !== 'idle' || !r) return;
    if (r.ok) {
      setDraft(r.salesOrder);
      toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
    } else toast.show({ kind: 'error', message: tc(r.code, { defaultValue: tc('FAILED_TO_SAVE') }) });
  }, [actor.state, actor.data, tc, toast, setDraft]);

  const act = (body: Record<string, unknown>) =>
    actor.submit(body as never, { method: 'post', encType: 'application/json' });
  const busy = saving || actor.state !== 'idle';
  const menu: MenuItemDef[] = [
    ...(can.edit && draft.status === 'closed'
      ? [{ id: 'reopen', label: t('action.reopen'), onAction: () => setConfirm('reopen') }]
      : []),
    ...(can.delete && draft.status === 'open'
      ? [{ id: 'delete', label: t('action.delete'), isDanger: true, onAction: () => setConfirm('delete') }]
      : []),
  ];
  const missing = !draft.referenceUserId
    ? 'SALES_ORDER_REFERENCE_USER_MISSING'
    : !draft.customerNumber
      ? 'SALES_ORDER_CUSTOMER_NUMBER_MISSING'
      : null;

  return (
    <article className="space-y-4" aria-labelledby="sales-order-title">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-sm text-gray-600">
            <Link to="/sales" className="text-blue-700 underline">
              {t('title')}
            </Link>{' '}
            · #{draft.number} · {t(`status.${draft.status}`)}
            {draft.status === 'closed' && draft.paid && ` · ${t('field.paid')}`}
          </p>
          <h1 id="sales-order-title" className="text-2xl font-semibold">
            {draft.title || t('untitled', { number: draft.number })}
          </h1>
          <p role="status" aria-live="polite" className="text-sm text-gray-600" data-testid="save-state">
            {saving ? tp('save.saving') : state === 'saved' ? tp('save.saved') : ''}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {draft.status === 'open' && !draft.workOrderId && can.createWorkOrder && (
            <Button isDisabled={busy} onPress={() => setConfirm('workorder')}>
              {t('action.createWorkOrder')}
            </Button>
          )}
          {draft.status === 'open' && !draft.workOrderId && can.edit && (
            <Button variant="primary" isDisabled={busy} onPress={() => setConfirm('close')}>
              {t('action.close')}
            </Button>
          )}
          <DocumentActions documentPath={`/sales/${encodeURIComponent(draft.id)}/document`} number={draft.number} />
          {menu.length > 0 && <Menu items={menu} label={tp('action.more')} />}
        </div>
      </header>
      {state === 'conflict' && (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-md bg-amber-50 p-3 text-amber-900 ring-1 ring-amber-300"
        >
          <span>{tc('SALES_ORDER_CHANGED')}</span>
          <Button size="sm" onPress={() => void navigate(0)}>
            {tp('action.reload')}
          </Button>
        </div>
      )}
      {draft.status === 'closed' && invoice ? <OrderInvoiceLink invoice={invoice} /> : null}
      {draft.workOrderId && (
        <p className="text-sm">
          {t('linked.billedByWorkOrder', { number: draft.workOrderNumber })}{' '}
          <Link to={`/work-orders/${draft.workOrderId}`} className="text-blue-700 underline">
            {t('linked.workOrder', { number: draft.workOrderNumber })}
          </Link>
        </p>
      )}
      {draft.proposalId && (
        <p className="text-sm">
          <Link to={`/proposals/${draft.proposalId}`} className="text-blue-700 underline">
            {t('linked.proposal')}
          </Link>
        </p>
      )}

      <section
        aria-label={t('section.general')}
        className="grid gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 sm:p-6"
      >
        <TextField
          label={t('field.title')}
          value={draft.title}
          onChange={(title) => change({ title })}
          isDisabled={readOnly}
          maxLength={200}
          errorMessage={fields.title?.map((c) => tc(c))}
        />
        <CustomerPicker
          key={draft.customerId ?? 'none'}
          isDisabled={readOnly}
          defaultSelected={
            draft.customerId
              ? { id: draft.customerId, label: [draft.customerNumber, draft.customerName].filter(Boolean).join(' – ') }
              : null
          }
          onSelectionChange={(o) =>
            (o?.id ?? null) !== draft.customerId &&
            change({ customerId: o?.id ?? null, customerName: o?.label ?? null, customerNumber: null })
          }
        />
        <NativeSelect
          label={t('field.reference')}
          value={draft.referenceUserId ?? ''}
          isDisabled={readOnly}
          onChange={(v) => change({ referenceUserId: v || null })}
          items={[{ id: '', label: t('field.none') }, ...users.map((u) => ({ id: u.id, label: u.name }))]}
        />
        {departments.length > 0 && (
          <NativeSelect
            label={t('field.department')}
            value={draft.departmentId ?? ''}
            isDisabled={readOnly}
            onChange={(v) => change({ departmentId: v || null })}
            items={[{ id: '', label: t('field.none') }, ...departments.map((d) => ({ id: d.id, label: d.name }))]}
          />
        )}
      </section>

      <section
        aria-labelledby="sales-order-rows"
        className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      >
        <h2 id="sales-order-rows" className="mb-3 text-base font-semibold">
          {tp('section.rows')}
        </h2>
        <RowsEditor
          rows={draft.rows ?? []}
          settings={settings}
          readOnly={readOnly}
          fields={fields}
          onChange={(rows) => change({ rows })}
          groups={groups}
          totalsTestId="sales-order-totals"
        />
      </section>

      <WidgetBoundary>
        <RecordHistory href={`/sales/${draft.id}/history`} />
      </WidgetBoundary>
      <ConfirmDialog
        isOpen={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={confirm ? t(`confirm.${confirm}.title`) : ''}
        message={
          confirm === 'close' ? (
            <div className="space-y-3">
              <p>{missing ? tc(missing) : t('confirm.close.message')}</p>
              {!missing && (
                <label htmlFor={paidId} className="flex items-center gap-2">
                  <input id={paidId} type="checkbox" checked={paid} onChange={(e) => setPaid(e.target.checked)} />
                  {t('field.paid')}
                </label>
              )}
            </div>
          ) : confirm === 'workorder' ? (
            <div className="space-y-3">
              <p>{t('confirm.workorder.message')}</p>
              <ObjectPicker
                label={t('field.object')}
                customerId={draft.customerId ?? undefined}
                isRequired
                defaultSelected={
                  salesOrder.proposalObjectId
                    ? { id: salesOrder.proposalObjectId, label: salesOrder.proposalObjectSerialCode ?? '' }
                    : null
                }
                onSelectionChange={(o) => setObjectId(o?.id ?? null)}
                errorMessage={objectId ? undefined : tc('CANNOT_CLOSE_PROPOSAL_WORKORDER_OBJECT_IS_MISSING')}
              />
            </div>
          ) : confirm ? (
            t(`confirm.${confirm}.message`)
          ) : undefined
        }
        confirmLabel={confirm ? t(`confirm.${confirm}.action`) : undefined}
        variant={confirm === 'delete' ? 'danger' : 'primary'}
        onConfirm={() => {
          if (confirm === 'close') {
            if (!missing) void act({ intent: 'close', paid });
          } else if (confirm === 'workorder') {
            // no object: the dialog stays open with the field marked
            if (!objectId) return Promise.reject(new Error('CANNOT_CLOSE_PROPOSAL_WORKORDER_OBJECT_IS_MISSING'));
            void act({ intent: 'workorder', businessObjectId: objectId });
          } else if (confirm) void act({ intent: confirm });
          setConfirm(null);
        }}
      />
      <LeaveUnsavedDialog autosave={autosave} />
    </article>
  );
}
