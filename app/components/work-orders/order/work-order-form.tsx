import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { DatePicker, dateTimeValueOf, TextField } from '~/app/components/ui';
import { CustomerPicker } from '~/app/components/inventory/pickers/customer-picker';
import { ObjectPicker } from '~/app/components/inventory/pickers/object-picker';
import { EntityPicker } from '~/app/components/ui/entity-picker';
import type {
  CustomerAddressOption,
  CustomerContactOption,
  WorkOrderOptions,
} from '~/core/work-orders/work-order-options';
import type { WorkOrderPrefill } from '~/core/work-orders/object-work-orders';
import type { WorkOrder } from '~/core/work-orders/work-order-read';
import { REQUIRED_FIELD_INPUT } from '~/core/work-orders/work-order-rules';
import { PRIORITIES } from '~/core/work-orders/work-order.constants';
import { isoToWallClock } from '~/core/work-orders/time-rules';

export interface WorkOrderFormProps {
  workOrder: WorkOrder | null;
  options: WorkOrderOptions;
  timeZone: string;
  errors?: Record<string, string[]>;
  isDisabled?: boolean;
  /** Called with a field's name when the person changes it (marks the tab edited). */
  onEdit?: (field: string) => void;
  /** A new order's starting customer and object (opened from an object page) and assignees (a dispatch rule's person). */
  prefill?: Partial<WorkOrderPrefill> & { assignees?: string[]; project?: { id: string; label: string } | null };
}

const SECTION = 'grid gap-4 sm:grid-cols-2';
const HEADING = 'text-base font-semibold text-slate-900 sm:col-span-2';
const NATIVE =
  'w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base shadow-xs sm:text-sm disabled:bg-slate-100';

/**
 * The work order's fields (spec section 3), posted under the API's names: customer and object,
 * address (one of the customer's or typed), contacts, what to do, status and type, planning,
 * assignees and tags, invoicing. Required fields from the settings are marked; the server checks.
 */
export function WorkOrderForm({
  workOrder: wo,
  options,
  timeZone,
  errors,
  isDisabled,
  onEdit,
  prefill,
}: WorkOrderFormProps) {
  const { t } = useTranslation('workorders');
  const { t: tc } = useTranslation();
  const required = new Set(options.settings.requiredFields.map((f) => REQUIRED_FIELD_INPUT[f]));
  const err = (name: string) => errors?.[name]?.map((code) => tc(code));
  const edit = (name: string) => () => onEdit?.(name);
  const [customerId, setCustomerId] = useState<string | null>(wo ? wo.customerId : (prefill?.customerId ?? null));
  const addresses = useFetcher<{ addresses: CustomerAddressOption[]; contacts: CustomerContactOption[] }>();
  useEffect(() => {
    if (customerId) void addresses.load(`/work-orders/customer?customerId=${encodeURIComponent(customerId)}`);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [customerId]);
  const [addressId, setAddressId] = useState(wo?.customerAddressId ?? '');
  // The contact fields, filled by hand or from one of the customer's contacts.
  const [contact, setContact] = useState({
    contactName: wo?.contactName ?? '',
    contactPhone: wo?.contactPhone ?? '',
    contactEmail: wo?.contactEmail ?? '',
  });
  // A customer someone just picked (or a new order's starting one) takes its primary address,
  // and the primary address's contact (or the customer's only contact) when none is typed yet
  // (spec: the address fallback). An existing order keeps what it has until its customer changes.
  const picked = useRef(!wo && Boolean(prefill?.customerId));
  useEffect(() => {
    const data = addresses.data;
    if (!picked.current || !data || addresses.state !== 'idle') return;
    picked.current = false;
    const primary = data.addresses[0];
    if (primary) setAddressId(primary.id);
    setContact((c) => {
      if (c.contactName || c.contactPhone || c.contactEmail) return c;
      if (primary?.contactName || primary?.contactPhone || primary?.contactEmail)
        return {
          contactName: primary.contactName ?? '',
          contactPhone: primary.contactPhone ?? '',
          contactEmail: primary.contactEmail ?? '',
        };
      const only = data.contacts.length === 1 ? data.contacts[0]! : null;
      return only ? { contactName: only.name, contactPhone: only.phone ?? '', contactEmail: only.email ?? '' } : c;
    });
  }, [addresses.data, addresses.state]);
  const contacts = customerId ? (addresses.data?.contacts ?? []) : [];
  const chosen = addresses.data?.addresses.find((a) => a.id === addressId);
  const statuses = options.settings.statuses.filter((s) => !s.isClosing || s.id === wo?.statusId);
  const defaultStatus = wo?.statusId ?? options.settings.statuses.find((s) => s.isDefault)?.id;
  const defaultType = wo?.workTypeId ?? options.settings.workTypes.find((s) => s.isDefault)?.id;
  const assigned = new Set(wo ? wo.assignees.map((a) => a.id) : (prefill?.assignees ?? []));
  // the order's own customer and object, or those a new order starts with
  const start = wo ?? prefill;
  const tagged = new Set(wo?.tags.map((x) => x.id) ?? []);

  const field = (
    name: keyof WorkOrder & string,
    label: string,
    extra: { type?: 'email' | 'tel'; multiline?: never } = {},
  ) => (
    <TextField
      key={name}
      name={name}
      label={label}
      type={extra.type}
      defaultValue={(wo?.[name] as string | null) ?? ''}
      isRequired={required.has(name)}
      errorMessage={err(name)}
      isDisabled={isDisabled}
      onChange={edit(name)}
    />
  );
  const area = (name: 'description' | 'internalInfo' | 'summary', label: string) => (
    <label key={name} className="flex flex-col gap-1 text-sm sm:col-span-2">
      <span className="font-medium text-slate-700">
        {label}
        {required.has(name) ? <span aria-hidden="true"> *</span> : null}
      </span>
      <textarea
        name={name}
        rows={4}
        defaultValue={wo?.[name] ?? ''}
        required={required.has(name)}
        disabled={isDisabled}
        onChange={edit(name)}
        aria-invalid={err(name) ? true : undefined}
        aria-describedby={err(name) ? `${name}-error` : undefined}
        className={NATIVE}
      />
      {err(name) ? (
        <span id={`${name}-error`} className="text-sm text-red-700">
          {err(name)?.join(' ')}
        </span>
      ) : null}
    </label>
  );
  const select = (
    name: 'statusId' | 'workTypeId' | 'priority',
    label: string,
    items: { id: string; name: string }[],
    defaultValue: string | undefined,
  ) => (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium text-slate-700">{label}</span>
      <select name={name} defaultValue={defaultValue} disabled={isDisabled} onChange={edit(name)} className={NATIVE}>
        {items.map((i) => (
          <option key={i.id} value={i.id}>
            {i.name}
          </option>
        ))}
      </select>
      {err(name) ? <span className="text-sm text-red-700">{err(name)?.join(' ')}</span> : null}
    </label>
  );
  const checks = (
    name: 'assignees' | 'tags',
    label: string,
    items: { id: string; name: string; color?: string }[],
    checked: Set<string>,
  ) => (
    <fieldset className="min-w-0 sm:col-span-2" aria-invalid={err(name) ? true : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-700">
        {label}
        {name === 'assignees' || required.has(name) ? <span aria-hidden="true"> *</span> : null}
      </legend>
      <input type="hidden" name={`${name}.sent`} value="1" />
      <div className="grid max-h-48 gap-1 overflow-y-auto rounded-md border border-slate-200 p-2 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((i) => (
          <label key={i.id} className="flex min-h-8 items-center gap-2 text-sm">
            <input
              type="checkbox"
              name={name}
              value={i.id}
              defaultChecked={checked.has(i.id)}
              disabled={isDisabled}
              onChange={edit(name)}
              className="size-4 accent-blue-700"
            />
            {i.color ? (
              <span className="size-3 rounded-full" style={{ backgroundColor: i.color }} aria-hidden="true" />
            ) : null}
            <span className="truncate">{i.name}</span>
          </label>
        ))}
      </div>
      {err(name) ? <p className="mt-1 text-sm text-red-700">{err(name)?.join(' ')}</p> : null}
    </fieldset>
  );

  return (
    <div className="grid gap-8">
      <section className={SECTION}>
        <h3 className={HEADING}>{t('form.what')}</h3>
        <div className="sm:col-span-2">
          <TextField
            name="title"
            label={t('form.title')}
            defaultValue={wo?.title ?? ''}
            isRequired
            errorMessage={err('title')}
            isDisabled={isDisabled}
            onChange={edit('title')}
          />
        </div>
        {area('description', t('form.description'))}
        {options.canEditInternal || wo?.internalInfo ? (
          options.canEditInternal ? (
            area('internalInfo', t('form.internalInfo'))
          ) : (
            <div className="text-sm sm:col-span-2">
              <p className="font-medium text-slate-700">{t('form.internalInfo')}</p>
              <p className="whitespace-pre-wrap text-slate-700">{wo?.internalInfo}</p>
            </div>
          )
        ) : null}
        {wo ? area('summary', t('form.summary')) : null}
        {select(
          'statusId',
          t('form.status'),
          statuses.map((s) => ({ id: s.id, name: s.name })),
          defaultStatus,
        )}
        {select('workTypeId', t('form.workType'), options.settings.workTypes, defaultType)}
        {select(
          'priority',
          t('form.priority'),
          PRIORITIES.map((p) => ({ id: p, name: t(`priority.${p}`) })),
          wo?.priority ?? 'medium',
        )}
      </section>

      <section className={SECTION}>
        <h3 className={HEADING}>{t('form.customerAndObject')}</h3>
        <CustomerPicker
          name="customerId"
          defaultSelected={start?.customerId ? { id: start.customerId, label: start.customerName ?? '' } : null}
          onSelectionChange={(o) => {
            setCustomerId(o?.id ?? null);
            setAddressId('');
            picked.current = Boolean(o);
            onEdit?.('customerId');
          }}
          errorMessage={err('customerId')}
          isDisabled={isDisabled}
        />
        <ObjectPicker
          key={customerId ?? 'none'}
          name="businessObjectId"
          label={t('form.object')}
          customerId={customerId}
          defaultSelected={
            start?.businessObjectId && (start.customerId ?? null) === customerId
              ? { id: start.businessObjectId, label: start.businessObjectSerialCode ?? '' }
              : null
          }
          onSelectionChange={() => onEdit?.('businessObjectId')}
          errorMessage={err('businessObjectId')}
          isDisabled={isDisabled}
        />
        {options.canSetProject ? (
          <EntityPicker
            name="projectId"
            label={t('form.project')}
            source="/projects/options"
            defaultSelected={
              wo
                ? wo.projectId
                  ? { id: wo.projectId, label: wo.projectName ?? '' }
                  : null
                : (prefill?.project ?? null)
            }
            onSelectionChange={() => onEdit?.('projectId')}
            errorMessage={err('projectId')}
            isDisabled={isDisabled}
          />
        ) : null}
        {customerId && addresses.data?.addresses.length ? (
          <label className="flex flex-col gap-1 text-sm sm:col-span-2">
            <span className="font-medium text-slate-700">{t('form.customerAddress')}</span>
            <select
              name="customerAddressId"
              value={addressId}
              disabled={isDisabled}
              onChange={(e) => {
                setAddressId(e.target.value);
                onEdit?.('customerAddressId');
              }}
              className={NATIVE}
            >
              <option value="">{t('form.addressTyped')}</option>
              {addresses.data.addresses.map((a) => (
                <option key={a.id} value={a.id}>
                  {[a.street, a.postIndex, a.city].filter(Boolean).join(', ') || t('form.addressNoStreet')}
                  {a.isPrimary ? ` (${t('form.primary')})` : ''}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <input type="hidden" name="customerAddressId" value="" />
        )}
        {chosen?.notes ? (
          <p className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-slate-800 sm:col-span-2">
            <span className="font-medium">{t('form.addressNotes')}</span> {chosen.notes}
          </p>
        ) : null}
        {chosen ? (
          <>
            <input type="hidden" name="street" value={chosen.street ?? ''} />
            <input type="hidden" name="postIndex" value={chosen.postIndex ?? ''} />
            <input type="hidden" name="city" value={chosen.city ?? ''} />
          </>
        ) : (
          <>
            {field('street', t('form.street'))}
            <div className="grid grid-cols-[8rem_1fr] gap-2">
              {field('postIndex', t('form.postIndex'))}
              {field('city', t('form.city'))}
            </div>
          </>
        )}
      </section>

      <section className={SECTION}>
        <h3 className={HEADING}>{t('form.contacts')}</h3>
        {contacts.length ? (
          <label className="flex flex-col gap-1 text-sm sm:col-span-2">
            <span className="font-medium text-slate-700">{t('form.customerContact')}</span>
            <select
              value=""
              disabled={isDisabled}
              onChange={(e) => {
                const c = contacts[Number(e.target.value)];
                if (!c) return;
                setContact({ contactName: c.name, contactPhone: c.phone ?? '', contactEmail: c.email ?? '' });
                onEdit?.('contactName');
              }}
              className={NATIVE}
            >
              <option value="">{t('form.customerContactPick', { count: contacts.length })}</option>
              {contacts.map((c, i) => (
                <option key={i} value={i}>
                  {[c.name, c.role, c.phone, c.email].filter(Boolean).join(' · ')}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {(
          [
            ['contactName', t('form.contactName'), undefined],
            ['contactPhone', t('form.contactPhone'), 'tel'],
            ['contactEmail', t('form.contactEmail'), 'email'],
          ] as const
        ).map(([name, label, type]) => (
          <TextField
            key={name}
            name={name}
            label={label}
            type={type}
            value={contact[name]}
            isRequired={required.has(name)}
            errorMessage={err(name)}
            isDisabled={isDisabled}
            onChange={(v) => {
              setContact((c) => ({ ...c, [name]: v }));
              onEdit?.(name);
            }}
          />
        ))}
        <div />
        {field('onSiteContactName', t('form.onSiteContactName'))}
        {field('onSiteContactPhone', t('form.onSiteContactPhone'), { type: 'tel' })}
      </section>

      <section className={SECTION}>
        <h3 className={HEADING}>{t('form.planning')}</h3>
        <input type="hidden" name="timeZone" value={timeZone} />
        {(['plannedStart', 'plannedEnd'] as const).map((name) => (
          <DatePicker
            key={name}
            label={t(`form.${name}`)}
            name={name}
            granularity="minute"
            defaultValue={dateTimeValueOf(isoToWallClock(wo?.[name] ?? null, timeZone))}
            isDisabled={isDisabled}
            onChange={edit(name)}
            errorMessage={err(name)}
          />
        ))}
        {checks('assignees', t('form.assignees'), options.users, assigned)}
        {options.settings.tags.length ? checks('tags', t('form.tags'), options.settings.tags, tagged) : null}
      </section>

      <section className={SECTION}>
        <h3 className={HEADING}>{t('form.invoicing')}</h3>
        {field('customerOrderNumber', t('form.customerOrderNumber'))}
        {field('invoiceMarking', t('form.invoiceMarking'))}
        {field('id06Code', t('form.id06Code'))}
      </section>
    </div>
  );
}
