import { useTranslation } from 'react-i18next';
import { data, Link, useSearchParams } from 'react-router';
import type { Route } from './+types/zone.requests';
import { pageTitle } from '~/app/lib/page-title';
import { requireZoneAuth, runZone, zoneGuard } from '~/app/lib/zone-guard.server';
import {
  pageOf,
  useZoneDate,
  ZoneCard,
  ZoneEmpty,
  ZoneField,
  ZonePage,
  ZonePager,
} from '~/app/components/zone/zone-parts';
import { listZoneRequests } from '~/core/zone/zone-requests.service';
import { CUSTOMER_WORK_ORDERS } from '~/core/zone/zone-requests.constants';

/**
 * The customer's service requests (decision 064): what its people asked for, each following its
 * work order — status, planned date, closed — and the way to ask for more.
 */
export const middleware = zoneGuard();

export const handle = pageTitle('zoneTitle.requests');

export async function loader({ request, context }: Route.LoaderArgs) {
  // without "customer work orders" there is nothing to ask here
  if (!requireZoneAuth(context).modules.has(CUSTOMER_WORK_ORDERS)) throw data('not found', { status: 404 });
  return runZone(context, (ctx) => listZoneRequests(ctx, { page: pageOf(request) }));
}

export default function ZoneRequests({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zonerequests');
  const date = useZoneDate();
  const [params] = useSearchParams();
  const sent = params.get('sent');
  return (
    <ZonePage title={t('list.title')} intro={t('list.intro')}>
      {sent ? (
        <p role="status" className="rounded-md bg-green-50 p-3 text-sm text-green-900">
          {t('list.sent', { number: sent })}
        </p>
      ) : null}
      <div>
        <Link
          to="/zone/requests/new"
          className="inline-flex min-h-11 items-center rounded-md bg-brand-700 px-4 text-sm font-medium text-white"
        >
          {t('list.new')}
        </Link>
      </div>
      {loaderData.items.length === 0 ? (
        <ZoneEmpty>{t('list.empty')}</ZoneEmpty>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {loaderData.items.map((r) => (
            <ZoneCard key={r.id} title={`${r.number} · ${r.title}`}>
              <ZoneField label={t('list.status')}>
                {r.closed ? t('list.closed', { status: r.status }) : r.status}
              </ZoneField>
              <ZoneField label={t('list.planned')}>
                {r.plannedStart ? date(r.plannedStart) : t('list.notPlanned')}
              </ZoneField>
              <ZoneField label={t('list.asked')}>
                {t('list.askedBy', { date: date(r.requestedAt), name: r.requestedBy })}
              </ZoneField>
              {r.objectSerialCode ? <ZoneField label={t('list.object')}>{r.objectSerialCode}</ZoneField> : null}
              {r.photos ? <ZoneField label={t('list.photos')}>{r.photos}</ZoneField> : null}
              {r.description ? (
                <ZoneField label={t('list.description')}>
                  <span className="whitespace-pre-line break-words">{r.description}</span>
                </ZoneField>
              ) : null}
            </ZoneCard>
          ))}
        </ul>
      )}
      <ZonePager page={loaderData.page} hasMore={loaderData.hasMore} href={(p) => `/zone/requests?page=${p}`} />
    </ZonePage>
  );
}
