import { useTranslation } from 'react-i18next';
import type { WorkOrder } from '~/core/work-orders/work-order-read';
import { ZoneRequestMark } from '~/app/components/zone/zone-request-mark';

/**
 * What a technician reads first, on a phone too: customer and object, where (with a map link),
 * who to call (tap to call), when, who, and the description.
 */
export function OrderSummary({ workOrder: wo, format }: { workOrder: WorkOrder; format: (iso: string) => string }) {
  const { t } = useTranslation('workorders');
  const address = [wo.street, [wo.postIndex, wo.city].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const item = (label: string, value: React.ReactNode) =>
    value ? (
      <div className="min-w-0">
        <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
        <dd className="break-words">{value}</dd>
      </div>
    ) : null;
  const phone = (n: string | null) =>
    n ? (
      <a href={`tel:${n.replace(/\s+/g, '')}`} className="text-blue-800 underline">
        {n}
      </a>
    ) : null;
  return (
    <section aria-label={t('order.summary')} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      {wo.zoneRequestedBy ? <ZoneRequestMark name={wo.zoneRequestedBy} /> : null}
      <dl className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
        {item(
          t('form.customer'),
          wo.customerName
            ? `${wo.customerName}${wo.customerNumber ? ` (${wo.customerNumber})` : ''}`
            : t('list.noCustomer'),
        )}
        {item(t('form.object'), wo.businessObjectSerialCode)}
        {item(
          t('form.project'),
          wo.projectId && wo.projectName ? (
            <a href={`/projects/${wo.projectId}?tab=workorders`} className="text-blue-800 underline">
              {wo.projectName}
            </a>
          ) : null,
        )}
        {item(
          t('form.address'),
          address ? (
            <a
              href={`https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}`}
              target="_blank"
              rel="noreferrer"
              className="text-blue-800 underline"
            >
              {address}
            </a>
          ) : null,
        )}
        {item(
          t('form.contactName'),
          wo.contactName || wo.contactPhone ? (
            <>
              {wo.contactName} {phone(wo.contactPhone)}
            </>
          ) : null,
        )}
        {item(
          t('form.onSiteContactName'),
          wo.onSiteContactName || wo.onSiteContactPhone ? (
            <>
              {wo.onSiteContactName} {phone(wo.onSiteContactPhone)}
            </>
          ) : null,
        )}
        {item(
          t('form.planned'),
          wo.plannedStart ? `${format(wo.plannedStart)}${wo.plannedEnd ? ` – ${format(wo.plannedEnd)}` : ''}` : null,
        )}
        {item(t('form.assignees'), wo.assignees.map((a) => a.name).join(', ') || t('list.unassigned'))}
        {item(t('form.priority'), t(`priority.${wo.priority}`))}
      </dl>
      {wo.description ? (
        <div className="mt-3 text-sm">
          <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{t('form.description')}</p>
          <p className="whitespace-pre-wrap">{wo.description}</p>
        </div>
      ) : null}
    </section>
  );
}
