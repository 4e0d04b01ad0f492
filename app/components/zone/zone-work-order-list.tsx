import { useTranslation } from 'react-i18next';
import type { ZoneWorkOrder } from '~/core/zone/zone-view.service';
import { useZoneDate, ZoneCard, ZoneField } from './zone-parts';

/** Work orders as the customer sees them: number and title, status, planned and closed dates, installation. */
export function ZoneWorkOrderList({ items, showObject = true }: { items: ZoneWorkOrder[]; showObject?: boolean }) {
  const { t } = useTranslation('zone');
  const date = useZoneDate();
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {items.map((w) => (
        <ZoneCard key={w.id} title={`${w.number} · ${w.title}`}>
          <ZoneField label={t('workOrders.status')}>{w.status}</ZoneField>
          <ZoneField label={t('workOrders.planned')}>{date(w.plannedStart)}</ZoneField>
          {w.closedAt ? <ZoneField label={t('workOrders.closedAt')}>{date(w.closedAt)}</ZoneField> : null}
          {showObject && w.objectSerialCode ? (
            <ZoneField label={t('workOrders.object')}>{w.objectSerialCode}</ZoneField>
          ) : null}
        </ZoneCard>
      ))}
    </ul>
  );
}
