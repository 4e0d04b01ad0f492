import { parseDate, type CalendarDate } from '@internationalized/date';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useFetcher, useNavigate, useRevalidator } from 'react-router';
import { addMonthsToFirst, tenantDate } from '~/core/calendar/dates';
import { formatNumber } from '~/core/i18n/number-format';
import { RecordFiles } from '~/app/components/files/record-files';
import { CustomerPicker } from '~/app/components/inventory/pickers/customer-picker';
import { ObjectPicker } from '~/app/components/inventory/pickers/object-picker';
import {
  Button,
  ConfirmDialog,
  DatePicker,
  Dialog,
  Menu,
  NativeSelect,
  TextField,
  useTenantClock,
  useToast,
  WidgetBoundary,
  type MenuItemDef,
} from '~/app/components/ui';
import { FIELD_CLASS, INPUT_BOX_CLASS, INPUT_FOCUS_CLASS } from '~/app/components/ui/field-classes';
import type { Proposal, ProposalRow, ProposalSettings } from '~/core/proposals/proposal.service';
import type { ProposalLists } from '~/core/proposals/proposal-configuration.service';
import { DocumentActions } from './document-actions';
import { CustomFieldInputs, missingRequired, PriceTemplateButtons, StandardTextInsert } from './proposal-extras';
import { RecordHistory } from './record-history';
import { LeaveUnsavedDialog } from './leave-unsaved-dialog';
import { RowsEditor } from './rows-editor';
import { useAutosave, type SameRecordState } from './use-autosave';

export { AUTOSAVE_MS } from './use-autosave';

export type ProposalActionResult =
  | { ok: true; intent: 'save' | 'reopen' | 'agreement'; proposal: Proposal }
  | { ok: true; intent: 'close'; proposal: Proposal; message: string; workOrderId?: string; salesOrderId?: string }
  | { ok?: undefined; intent: string; code: string; fields?: Record<string, string[]>; current?: Proposal };

interface Props {
  proposal: Proposal;
  settings: ProposalSettings;
  lists: ProposalLists;
  groups?: { id: string; title: string }[];
  can: {
    edit: boolean;
    delete: boolean;
    reopen: boolean;
    accept: boolean;
    acceptWorkOrder: boolean;
    createAgreement?: boolean;
  };
  /** The agreement types the monthly rows' agreement may have (issue 28 item 3). */
  agreementTypes?: { id: string; label: string }[];
  tags: { id: string; name: string }[];
}

function TextArea(props: {
  label: string;
  value: string | null;
  onChange: (v: string) => void;
  disabled: boolean;
  rows?: number;
}) {
  const id = useId();
  return (
    <div className={FIELD_CLASS}>
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {props.label}
      </label>
      <textarea
        id={id}
        rows={props.rows ?? 3}
        value={props.value ?? ''}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
        className={`${INPUT_BOX_CLASS} ${INPUT_FOCUS_CLASS} px-3 py-2`}
      />
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id={id} className="mb-3 text-base font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The first day of next month in the tenant's zone, as the agreement's default valid-from. */
function firstOfNextMonth(country: string): string {
  return addMonthsToFirst(tenantDate(new Date(), country), 1);
}

/** A stored plain date ("2026-12-01") for the date field; null for none or what is not a date. */
function plainDate(value: string | null | undefined): CalendarDate | null {
  if (!value) return null;
  try {
    return parseDate(value.slice(0, 10));
  } catch {
    return null;
  }
}

/** "Create agreement" from the monthly rows: the agreement type and from when (issue 28 item 3). */
function AgreementDialog(props: {
  types: { id: string; label: string }[];
  busy: boolean;
  fields?: Record<string, string[]>;
  onClose: () => void;
  onCreate: (agreementId: string, validFrom: string) => void;
}) {
  const { t } = useTranslation('proposals');
  const { t: tc } = useTranslation('common');
  const clock = useTenantClock();
  const [type, setType] = useState(props.types[0]?.id ?? '');
  const [validFrom, setValidFrom] = useState(() => firstOfNextMonth(clock.country));
  const dateError = props.fields?.validFrom?.map((c) => tc(c)).join(' ');
  return (
    <Dialog
      title={t('monthly.createAgreementAction')}
      isOpen
      onOpenChange={(open) => !open && props.onClose()}
      footer={
        <>
          <Button variant="secondary" onPress={props.onClose}>
            {t('monthly.cancel')}
          </Button>
          <Button isDisabled={props.busy || !type} onPress={() => props.onCreate(type, validFrom)}>
            {t('monthly.create')}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3">
        <p className="text-sm">{t('monthly.createAgreementHelp')}</p>
        <NativeSelect label={t('monthly.agreementType')} items={props.types} value={type} onChange={setType} />
        <DatePicker
          label={t('monthly.validFrom')}
          value={plainDate(validFrom)}
          onChange={(v) => setValidFrom(v ? v.toString().slice(0, 10) : '')}
          errorMessage={dateError}
        />
      </div>
    </Dialog>
  );
}

/**
 * The proposal screen (spec section 2): every field, the rows, the totals; saved by itself 2.5 s
 * after the last change ("saving", then "saved"). A save the server refuses because someone else
 * saved first shows a notice with a reload instead of overwriting their work. Read-only once the
 * proposal is accepted or declined.
 */
export function ProposalScreen({ proposal, settings, lists, can, tags, groups, agreementTypes = [] }: Props) {
  const { t } = useTranslation('proposals');
  const { t: tc } = useTranslation('common');
  const toast = useToast();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const actor = useFetcher<ProposalActionResult>();
  const autosave = useAutosave({ initial: proposal, recordKey: 'proposal', conflictCode: 'PROPOSAL_CHANGED' });
  const { draft, setDraft, state, fields, saving } = autosave;
  // a new proposal exists once its first save created it (issue 28 item 19): its address moves to
  // the id then, keeping this screen and what is typed meanwhile
  const isNew = draft.id === '';
  const { leaving } = autosave;
  useEffect(() => {
    // leaving for another page: that navigation goes on once saved, not this one
    if (draft.id && !leaving && window.location.pathname === '/proposals/new')
      void navigate(`/proposals/${draft.id}`, {
        replace: true,
        preventScrollReset: true,
        state: { sameRecord: true } satisfies SameRecordState,
      });
  }, [draft.id, leaving, navigate]);
  const [agreementOpen, setAgreementOpen] = useState(false);
  const [confirm, setConfirm] = useState<'accepted' | 'accepted-wo' | 'declined' | 'delete' | 'reopen' | null>(null);
  const readOnly = draft.status !== 'active' || !can.edit;
  const change = (patch: Partial<Proposal>) => {
    if (!readOnly) autosave.change(patch);
  };

  useEffect(() => {
    const r = actor.data;
    if (actor.state !== 'idle' || !r) return;
    if (r.ok && r.intent === 'close') {
      setDraft(r.proposal);
      toast.show({ kind: 'success', message: tc(r.message) });
      if (r.workOrderId) void navigate(`/work-orders/${r.workOrderId}`);
    } else if (r.ok && r.intent === 'agreement') {
      setDraft(r.proposal);
      setAgreementOpen(false);
      toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
    } else if (r.ok && r.intent === 'reopen') {
      setDraft(r.proposal);
      toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
    } else if (!r.ok) toast.show({ kind: 'error', message: tc(r.code, { defaultValue: tc('FAILED_TO_SAVE') }) });
  }, [actor.state, actor.data, tc, toast, navigate, setDraft]);

  const act = (body: Record<string, unknown>) =>
    actor.submit(body as never, { method: 'post', encType: 'application/json' });
  const rowsChange = (rows: ProposalRow[]) => change({ rows });

  const menu: MenuItemDef[] = [
    ...(can.edit ? [{ id: 'copy', label: t('action.copy'), onAction: () => void act({ intent: 'copy' }) }] : []),
    ...(can.edit && !readOnly && draft.customerId
      ? [
          {
            id: 'clear',
            label: t('action.clearCustomer'),
            onAction: () => change({ customerId: null, customerName: null, customerNumber: null }),
          },
        ]
      : []),
    ...(can.reopen && draft.status !== 'active'
      ? [{ id: 'reopen', label: t('action.reopen'), onAction: () => setConfirm('reopen') }]
      : []),
    ...(can.delete
      ? [{ id: 'delete', label: t('action.delete'), isDanger: true, onAction: () => setConfirm('delete') }]
      : []),
  ];

  return (
    <article className="space-y-4" aria-labelledby="proposal-title">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-sm text-gray-600">
            <Link to="/proposals" className="text-blue-700 underline">
              {t('title')}
            </Link>{' '}
            {!isNew && ` · #${draft.sequenceNumber}`} · {t(`status.${draft.status}`)}
          </p>
          <h1 id="proposal-title" className="text-2xl font-semibold">
            {draft.title || (isNew ? t('newTitle') : t('untitled', { number: draft.sequenceNumber }))}
          </h1>
          <p role="status" aria-live="polite" className="text-sm text-gray-600" data-testid="save-state">
            {state === 'saving' || state === 'pending' ? t('save.saving') : state === 'saved' ? t('save.saved') : ''}
          </p>
        </div>
        <div className="flex flex-wrap gap-2" hidden={isNew}>
          {draft.status === 'active' && can.accept && (
            <Button variant="primary" isDisabled={saving || !draft.customerId} onPress={() => setConfirm('accepted')}>
              {t('action.accept')}
            </Button>
          )}
          {draft.status === 'active' && can.acceptWorkOrder && (
            <Button
              isDisabled={saving || !draft.customerId || !draft.businessObjectId}
              onPress={() => setConfirm('accepted-wo')}
            >
              {t('action.acceptWorkOrder')}
            </Button>
          )}
          {draft.status === 'active' && can.edit && (
            <Button variant="ghost" isDisabled={saving} onPress={() => setConfirm('declined')}>
              {t('action.decline')}
            </Button>
          )}
          <DocumentActions
            documentPath={`/proposals/${encodeURIComponent(draft.id)}/document`}
            number={draft.sequenceNumber}
            canEmail={can.edit}
            defaultEmail={draft.contactEmail}
          />
          {menu.length > 0 && <Menu items={menu} label={t('action.more')} />}
        </div>
      </header>
      {draft.status === 'active' && !draft.customerId && (can.accept || can.acceptWorkOrder) && (
        <p className="text-sm text-gray-700">{tc('PROPOSAL_PLEASE_SELECT_CUSTOMER_BEFORE_ACCEPTING')}</p>
      )}
      {draft.status === 'active' && draft.customerId && !draft.businessObjectId && can.acceptWorkOrder && (
        <p className="text-sm text-gray-700" data-testid="object-missing">
          {tc('CANNOT_CLOSE_PROPOSAL_WORKORDER_OBJECT_IS_MISSING')}
        </p>
      )}
      {state === 'conflict' && (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-md bg-amber-50 p-3 text-amber-900 ring-1 ring-amber-300"
        >
          <span>{tc('PROPOSAL_CHANGED')}</span>
          <Button size="sm" onPress={() => void revalidator.revalidate().then(() => navigate(0))}>
            {t('action.reload')}
          </Button>
        </div>
      )}
      {Number(draft.totalMonthlyPrice ?? 0) > 0 && draft.status !== 'declined' && (
        <p
          className="rounded-md bg-blue-50 p-3 text-sm text-blue-950 ring-1 ring-blue-200"
          data-testid="monthly-notice"
        >
          {t('monthly.notice', { amount: formatNumber(Number(draft.totalMonthlyPrice)) })}{' '}
          {draft.businessObjectId && draft.objectAgreementId ? (
            <Link to={`/inventory/objects/${draft.businessObjectId}?tab=agreement`} className="text-blue-800 underline">
              {t('monthly.billedBy', { object: draft.businessObjectSerialCode ?? '' })}
            </Link>
          ) : draft.businessObjectId ? (
            <>
              <Link
                to={`/inventory/objects/${draft.businessObjectId}?tab=agreement`}
                className="text-blue-800 underline"
              >
                {t('monthly.createAgreement')}
              </Link>
              {can.createAgreement && draft.status !== 'active' && agreementTypes.length > 0 && (
                <Button size="sm" className="ms-3" onPress={() => setAgreementOpen(true)}>
                  {t('monthly.createAgreementAction')}
                </Button>
              )}
            </>
          ) : (
            t('monthly.needsObject')
          )}
        </p>
      )}
      {agreementOpen && (
        <AgreementDialog
          types={agreementTypes}
          busy={actor.state !== 'idle'}
          fields={actor.data && !actor.data.ok ? actor.data.fields : undefined}
          onClose={() => setAgreementOpen(false)}
          onCreate={(agreementId, validFrom) => void act({ intent: 'agreement', agreementId, validFrom })}
        />
      )}
      {(draft.workOrderId || draft.salesOrderId) && (
        <p className="text-sm">
          {draft.workOrderId && (
            <Link to={`/work-orders/${draft.workOrderId}`} className="me-4 text-blue-700 underline">
              {t('linked.workOrder')}
            </Link>
          )}
          {draft.salesOrderId && (
            <Link to={`/sales/${draft.salesOrderId}`} className="text-blue-700 underline">
              {t('linked.salesOrder')}
            </Link>
          )}
        </p>
      )}

      <div className="grid gap-4 lg:grid-cols-2">
        <Section title={t('section.general')}>
          <div className="grid gap-3">
            <TextField
              label={t('field.title')}
              value={draft.title}
              onChange={(title) => change({ title })}
              isDisabled={readOnly}
              maxLength={200}
              errorMessage={fields.title?.map((c) => tc(c))}
            />
            <div className="grid gap-3 sm:grid-cols-2">
              {settings.validTo && (
                <DatePicker
                  label={t('field.validTo')}
                  value={plainDate(draft.validTo)}
                  onChange={(v) => change({ validTo: v ? v.toString().slice(0, 10) : null })}
                  isDisabled={readOnly}
                  errorMessage={fields.validTo?.map((c) => tc(c))}
                />
              )}
              <DatePicker
                label={t('field.nextActionDate')}
                value={plainDate(draft.nextActionDate)}
                onChange={(v) => change({ nextActionDate: v ? v.toString().slice(0, 10) : null })}
                isDisabled={readOnly}
                errorMessage={fields.nextActionDate?.map((c) => tc(c))}
              />
            </div>
            {tags.length > 0 && (
              <fieldset>
                <legend className="text-sm font-medium text-gray-900">{t('field.tags')}</legend>
                <div className="mt-1 flex flex-wrap gap-3">
                  {tags.map((tag) => (
                    <label key={tag.id} className="flex items-center gap-1 text-sm">
                      <input
                        type="checkbox"
                        disabled={readOnly}
                        checked={draft.tags.includes(tag.name)}
                        onChange={(e) =>
                          change({
                            tags: e.target.checked
                              ? [...draft.tags, tag.name]
                              : draft.tags.filter((n) => n !== tag.name),
                          })
                        }
                      />
                      {tag.name}
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
          </div>
        </Section>
        <Section title={t('section.customer')}>
          <div className="grid gap-3">
            <CustomerPicker
              key={draft.customerId ?? 'none'}
              isDisabled={readOnly}
              defaultSelected={
                draft.customerId
                  ? {
                      id: draft.customerId,
                      label: [draft.customerNumber, draft.customerName].filter(Boolean).join(' – '),
                    }
                  : null
              }
              onSelectionChange={(o) =>
                (o?.id ?? null) !== draft.customerId &&
                change({ customerId: o?.id ?? null, customerName: o?.label ?? null, customerNumber: null })
              }
            />
            <div className="grid gap-3 sm:grid-cols-3">
              <TextField
                label={t('field.contactName')}
                value={draft.contactName ?? ''}
                onChange={(v) => change({ contactName: v })}
                isDisabled={readOnly}
              />
              <TextField
                label={t('field.contactEmail')}
                type="email"
                value={draft.contactEmail ?? ''}
                onChange={(v) => change({ contactEmail: v })}
                isDisabled={readOnly}
              />
              <TextField
                label={t('field.contactPhone')}
                type="tel"
                value={draft.contactPhone ?? ''}
                onChange={(v) => change({ contactPhone: v })}
                isDisabled={readOnly}
              />
            </div>
            <TextField
              label={t('field.deliveryLocation')}
              value={draft.deliveryLocationDescription ?? ''}
              onChange={(v) => change({ deliveryLocationDescription: v })}
              isDisabled={readOnly}
            />
            <ObjectPicker
              key={`${draft.customerId}:${draft.businessObjectId ?? 'none'}`}
              label={t('field.object')}
              customerId={draft.customerId ?? undefined}
              isDisabled={readOnly}
              warning={
                draft.status === 'active' && draft.customerId && !draft.businessObjectId && can.acceptWorkOrder
                  ? tc('CANNOT_CLOSE_PROPOSAL_WORKORDER_OBJECT_IS_MISSING')
                  : undefined
              }
              defaultSelected={
                draft.businessObjectId
                  ? {
                      id: draft.businessObjectId,
                      label: [draft.businessObjectSerialCode, draft.businessObjectModelName]
                        .filter(Boolean)
                        .join(' – '),
                    }
                  : null
              }
              onSelectionChange={(o) =>
                (o?.id ?? null) !== draft.businessObjectId &&
                change({ businessObjectId: o?.id ?? null, businessObjectSerialCode: o?.label ?? null })
              }
            />
          </div>
        </Section>
      </div>

      {lists.customFields.length > 0 && (
        <Section title={t('section.customFields')}>
          <CustomFieldInputs
            fields={lists.customFields}
            data={draft.customData}
            disabled={readOnly}
            errors={fields}
            onChange={(customData) => change({ customData })}
          />
        </Section>
      )}

      <Section title={t('section.texts')}>
        <div className="grid gap-3 lg:grid-cols-2">
          <TextArea
            label={t('field.descriptionIntro')}
            value={draft.descriptionIntro}
            onChange={(v) => change({ descriptionIntro: v })}
            disabled={readOnly}
          />
          <TextArea
            label={t('field.description')}
            value={draft.description}
            onChange={(v) => change({ description: v })}
            disabled={readOnly}
          />
          <StandardTextInsert
            texts={lists.standardTexts}
            disabled={readOnly}
            onInsert={(body) => change({ description: draft.description ? `${draft.description}\n\n${body}` : body })}
          />
          <TextArea
            label={t('field.inclusions')}
            value={draft.description2}
            onChange={(v) => change({ description2: v })}
            disabled={readOnly}
          />
          <TextArea
            label={t('field.exceptions')}
            value={draft.descriptionOfExceptions}
            onChange={(v) => change({ descriptionOfExceptions: v })}
            disabled={readOnly}
          />
          <TextArea
            label={t('field.generalTerms')}
            value={draft.generalTerms}
            onChange={(v) => change({ generalTerms: v })}
            disabled={readOnly}
          />
          <TextArea
            label={t('field.paymentTerms')}
            value={draft.paymentTerms}
            onChange={(v) => change({ paymentTerms: v })}
            disabled={readOnly}
            rows={2}
          />
        </div>
      </Section>

      <Section title={t('section.rows')}>
        <RowsEditor
          rows={draft.rows ?? []}
          settings={settings}
          readOnly={readOnly}
          fields={fields}
          onChange={rowsChange}
          groups={groups}
          totalsTestId="proposal-totals"
        />
        <PriceTemplateButtons
          templates={lists.priceTemplates}
          monthlyEnabled={settings.monthlyPrice}
          missing={missingRequired(lists.customFields, draft.customData)}
          disabled={readOnly}
          onAdd={(row) => change({ rows: [...(draft.rows ?? []), row] })}
        />
      </Section>

      {settings.files && !isNew && <RecordFiles kind="proposal" ownerId={draft.id} />}
      {!isNew && (
        <WidgetBoundary>
          <RecordHistory href={`/proposals/${draft.id}/history`} />
        </WidgetBoundary>
      )}

      <ConfirmDialog
        isOpen={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={confirm ? t(`confirm.${confirm}.title`) : ''}
        message={confirm ? t(`confirm.${confirm}.message`) : undefined}
        confirmLabel={confirm ? t(`confirm.${confirm}.action`) : undefined}
        variant={confirm === 'delete' || confirm === 'declined' ? 'danger' : 'primary'}
        onConfirm={() => {
          if (confirm === 'delete') void act({ intent: 'delete' });
          else if (confirm === 'reopen') void act({ intent: 'reopen' });
          else if (confirm) void act({ intent: 'close', status: confirm });
          setConfirm(null);
        }}
      />
      <LeaveUnsavedDialog autosave={autosave} />
    </article>
  );
}
