import { useTranslation } from 'react-i18next';
import { data, Link } from 'react-router';
import type { Route } from './+types/zone.objects.$id';
import { pageTitle } from '~/app/lib/page-title';
import { runZone, zoneGuard } from '~/app/lib/zone-guard.server';
import {
  pageOf,
  useZoneDate,
  ZoneCard,
  ZoneEmpty,
  ZoneField,
  ZonePage,
  ZonePager,
} from '~/app/components/zone/zone-parts';
import { ZoneWorkOrderList } from '~/app/components/zone/zone-work-order-list';
import { isAppError } from '~/core/errors/app-error';
import { getZoneObject } from '~/core/zone/zone-view.service';

/** One installation: its agreement's next visit, its open deviations and its service history. */
export const middleware = zoneGuard();

export const handle = pageTitle('zoneTitle.objects');

export async function loader({ request, params, context }: Route.LoaderArgs) {
  try {
    return await runZone(context, (ctx) => getZoneObject(ctx, params.id, { page: pageOf(request) }));
  } catch (e) {
    // another customer's installation, of this company or another, is simply not there
    if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
    throw e;
  }
}

export default function ZoneObject({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zone');
  const date = useZoneDate();
  const { object, deviations, history } = loaderData;
  return (
    <div className="flex flex-col gap-8">
      <Link to="/zone" className="inline-flex min-h-11 items-center text-sm text-brand-700 underline">
        {t('objects.back')}
      </Link>
      <ZonePage title={object.serialCode}>
        <ul>
          <ZoneCard title={object.description ?? object.serialCode}>
            {object.model ? <ZoneField label={t('objects.model')}>{object.model}</ZoneField> : null}
            {object.location ? <ZoneField label={t('objects.location')}>{object.location}</ZoneField> : null}
            <ZoneField label={t('objects.agreement')}>{object.agreement ?? t('none')}</ZoneField>
            <ZoneField label={t('objects.nextVisit')}>{date(object.nextVisit)}</ZoneField>
          </ZoneCard>
        </ul>
      </ZonePage>
      <section aria-labelledby="zone-object-deviations" className="flex flex-col gap-3">
        <h2 id="zone-object-deviations" className="text-lg font-semibold">
          {t('deviations.title')}
        </h2>
        {deviations.length === 0 ? (
          <ZoneEmpty>{t('deviations.empty')}</ZoneEmpty>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2">
            {deviations.map((d) => (
              <ZoneCard key={d.id} title={`${d.number} · ${d.title}`}>
                <ZoneField label={t('deviations.occurred')}>{date(d.occurredOn)}</ZoneField>
                <ZoneField label={t('deviations.due')}>{date(d.dueDate)}</ZoneField>
              </ZoneCard>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="zone-object-history" className="flex flex-col gap-3">
        <h2 id="zone-object-history" className="text-lg font-semibold">
          {t('objects.history')}
        </h2>
        {history.items.length === 0 ? (
          <ZoneEmpty>{t('objects.historyEmpty')}</ZoneEmpty>
        ) : (
          <ZoneWorkOrderList items={history.items} showObject={false} />
        )}
        <ZonePager page={history.page} hasMore={history.hasMore} href={(p) => `/zone/objects/${object.id}?page=${p}`} />
      </section>
    </div>
  );
}
