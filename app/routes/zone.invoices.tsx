import { useTranslation } from 'react-i18next';
import type { Route } from './+types/zone.invoices';
import { pageTitle } from '~/app/lib/page-title';
import { runZone, zoneGuard } from '~/app/lib/zone-guard.server';
import { pageOf, useZoneDate, ZoneCard, ZoneEmpty, ZoneField, ZonePage, ZonePager } from '~/app/components/zone/zone-parts';
import { formatNumber } from '~/core/i18n/number-format';
import { listZoneInvoices } from '~/core/zone/zone-view.service';

/** The customer's finalized invoices with their PDFs. */
export const middleware = zoneGuard();

export const handle = pageTitle('zoneTitle.invoices');

export async function loader({ request, context }: Route.LoaderArgs) {
  return runZone(context, (ctx) => listZoneInvoices(ctx, { page: pageOf(request) }));
}

export default function ZoneInvoices({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zone');
  const date = useZoneDate();
  return (
    <ZonePage title={t('invoices.title')}>
      {loaderData.items.length === 0 ? (
        <ZoneEmpty>{t('invoices.empty')}</ZoneEmpty>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {loaderData.items.map((i) => (
            <ZoneCard
              key={i.id}
              title={
                <a
                  href={`/api/zone/invoices/${i.id}/pdf`}
                  className="text-brand-700 underline underline-offset-2"
                  aria-label={t('invoices.pdf', { number: i.invoiceNr ?? '' })}
                >
                  {`${t('invoices.number')} ${i.invoiceNr ?? ''}`}
                </a>
              }
            >
              <ZoneField label={t('invoices.date')}>{date(i.invoiceDate)}</ZoneField>
              <ZoneField label={t('invoices.due')}>{date(i.dueDate)}</ZoneField>
              <ZoneField label={t('invoices.total')}>{formatNumber(Number(i.totalPriceVat))}</ZoneField>
            </ZoneCard>
          ))}
        </ul>
      )}
      <ZonePager page={loaderData.page} hasMore={loaderData.hasMore} href={(p) => `/zone/invoices?page=${p}`} />
    </ZonePage>
  );
}
