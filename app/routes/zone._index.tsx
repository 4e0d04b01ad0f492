import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Route } from './+types/zone._index';
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
import { listZoneDeviations, listZoneObjects } from '~/core/zone/zone-view.service';

/** The zone's start: the customer's installations with agreement and next visit, and open deviations on them. */
export const middleware = zoneGuard();

export const handle = pageTitle('zoneTitle.objects');

export async function loader({ request, context }: Route.LoaderArgs) {
  const page = pageOf(request);
  return runZone(context, async (ctx) => ({
    objects: await listZoneObjects(ctx, { page }),
    deviations: page === 1 ? (await listZoneDeviations(ctx)).deviations : [],
  }));
}

export default function ZoneObjects({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zone');
  const date = useZoneDate();
  const { objects, deviations } = loaderData;
  return (
    <div className="flex flex-col gap-8">
      <ZonePage title={t('objects.title')}>
        {objects.items.length === 0 ? (
          <ZoneEmpty>{t('objects.empty')}</ZoneEmpty>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2">
            {objects.items.map((o) => (
              <ZoneCard
                key={o.id}
                title={
                  <Link to={`/zone/objects/${o.id}`} className="text-brand-700 underline underline-offset-2">
                    {o.serialCode}
                  </Link>
                }
              >
                {o.model ? <ZoneField label={t('objects.model')}>{o.model}</ZoneField> : null}
                {o.location ? <ZoneField label={t('objects.location')}>{o.location}</ZoneField> : null}
                <ZoneField label={t('objects.agreement')}>{o.agreement ?? t('none')}</ZoneField>
                <ZoneField label={t('objects.nextVisit')}>{date(o.nextVisit)}</ZoneField>
                <ZoneField label={t('objects.openDeviations')}>{o.openDeviations}</ZoneField>
              </ZoneCard>
            ))}
          </ul>
        )}
        <ZonePager page={objects.page} hasMore={objects.hasMore} href={(p) => `/zone?page=${p}`} />
      </ZonePage>
      {objects.page === 1 ? (
        <section aria-labelledby="zone-deviations" className="flex flex-col gap-3">
          <h2 id="zone-deviations" className="text-lg font-semibold">
            {t('deviations.title')}
          </h2>
          {deviations.length === 0 ? (
            <ZoneEmpty>{t('deviations.empty')}</ZoneEmpty>
          ) : (
            <ul className="grid gap-3 sm:grid-cols-2">
              {deviations.map((d) => (
                <ZoneCard key={d.id} title={`${d.number} · ${d.title}`}>
                  <ZoneField label={t('objects.serial')}>{d.objectSerialCode}</ZoneField>
                  <ZoneField label={t('deviations.occurred')}>{date(d.occurredOn)}</ZoneField>
                  <ZoneField label={t('deviations.due')}>{date(d.dueDate)}</ZoneField>
                </ZoneCard>
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </div>
  );
}
