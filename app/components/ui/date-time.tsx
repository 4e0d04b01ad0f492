import { useRouteLoaderData } from 'react-router';
import { formatDate, formatDateTime, tenantTimeZone, type DateFormat } from '~/core/i18n/number-format';

interface TenantClock {
  dateFormat: DateFormat;
  country: string;
}

/**
 * The tenant's date format and country (root loader): every moment on every screen is written in
 * the tenant's time zone, whatever the zone of the server or of the browser, so the server's and
 * the browser's render agree and two people in one company read the same time.
 */
export function useTenantClock(): TenantClock {
  const root = useRouteLoaderData('root') as Partial<TenantClock> | undefined;
  return { dateFormat: root?.dateFormat ?? 'YYYY-MM-DD', country: root?.country ?? 'SE' };
}

/** "2026-03-05 14:07" (or the date alone) in the tenant's format and zone, as a <time>. */
export function DateTime({ iso, withTime = true }: { iso: string; withTime?: boolean }) {
  const clock = useTenantClock();
  return (
    <time dateTime={iso} className="whitespace-nowrap">
      {withTime
        ? formatDateTime(iso, clock)
        : formatDate(iso, clock.dateFormat, { timeZone: tenantTimeZone(clock.country) })}
    </time>
  );
}
