import { useTranslation } from 'react-i18next';
import type { Route } from './+types/zone.documents';
import { pageTitle } from '~/app/lib/page-title';
import { runZone, zoneGuard } from '~/app/lib/zone-guard.server';
import { pageOf, useZoneDate, ZoneCard, ZoneEmpty, ZoneField, ZonePage, ZonePager } from '~/app/components/zone/zone-parts';
import { listZoneFiles } from '~/core/zone/zone-view.service';

/** What the company published to the customer: service reports and other files, to open or download. */
export const middleware = zoneGuard();

export const handle = pageTitle('zoneTitle.documents');

export async function loader({ request, context }: Route.LoaderArgs) {
  return runZone(context, (ctx) => listZoneFiles(ctx, { page: pageOf(request) }));
}

export default function ZoneDocuments({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zone');
  const date = useZoneDate();
  return (
    <ZonePage title={t('documents.title')} intro={t('documents.intro')}>
      {loaderData.items.length === 0 ? (
        <ZoneEmpty>{t('documents.empty')}</ZoneEmpty>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {loaderData.items.map((f) => (
            <ZoneCard
              key={f.id}
              actions={
                f.kind === 'file' ? (
                  <a
                    href={`/api/zone/files/${f.id}?download=1`}
                    className="inline-flex min-h-11 items-center text-sm text-brand-700 underline"
                  >
                    {t('documents.download', { name: f.name })}
                  </a>
                ) : null
              }
              title={
                <a
                  // the zone's own download call: it reads the zone session and the file's customer
                  href={f.kind === 'link' ? (f.link ?? '#') : `/api/zone/files/${f.id}`}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="break-all text-brand-700 underline underline-offset-2"
                >
                  {f.name}
                </a>
              }
            >
              <ZoneField label={t('documents.published')}>{date(f.publishedAt)}</ZoneField>
              {f.workOrderNumber ? (
                <ZoneField label={t('documents.from')}>{t('documents.workOrder', { number: f.workOrderNumber })}</ZoneField>
              ) : f.objectSerialCode ? (
                <ZoneField label={t('documents.from')}>{t('documents.object', { serial: f.objectSerialCode })}</ZoneField>
              ) : null}
            </ZoneCard>
          ))}
        </ul>
      )}
      <ZonePager page={loaderData.page} hasMore={loaderData.hasMore} href={(p) => `/zone/documents?page=${p}`} />
    </ZonePage>
  );
}
