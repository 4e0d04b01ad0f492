import { useTranslation } from 'react-i18next';

/** On the office's work order: it was asked for in the customer zone, and by whom (decision 064). */
export function ZoneRequestMark({ name }: { name: string }) {
  const { t } = useTranslation('zonerequests');
  return (
    <p className="mb-3 inline-flex rounded-md bg-amber-50 px-2 py-1 text-sm text-amber-950 ring-1 ring-amber-200">
      {t('office.zoneRequest', { name })}
    </p>
  );
}
