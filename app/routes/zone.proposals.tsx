import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Route } from './+types/zone.proposals';
import { pageTitle } from '~/app/lib/page-title';
import { runZone, zoneGuard } from '~/app/lib/zone-guard.server';
import { pageOf, useZoneDate, ZoneCard, ZoneEmpty, ZoneField, ZonePage, ZonePager } from '~/app/components/zone/zone-parts';
import { ZoneProposalStatusBadge } from '~/app/components/zone/zone-proposal-status';
import { formatNumber } from '~/core/i18n/number-format';
import { listZoneProposals } from '~/core/zone/zone-proposal.service';

/** The proposals the company sent to the customer, to read and answer (decision 063). */
export const middleware = zoneGuard();

export const handle = pageTitle('zoneTitle.proposals');

export async function loader({ request, context }: Route.LoaderArgs) {
  return runZone(context, (ctx) => listZoneProposals(ctx, { page: pageOf(request) }));
}

export default function ZoneProposals({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zoneactions');
  const date = useZoneDate();
  return (
    <ZonePage title={t('proposals.title')} intro={t('proposals.intro')}>
      {loaderData.items.length === 0 ? (
        <ZoneEmpty>{t('proposals.empty')}</ZoneEmpty>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {loaderData.items.map((p) => (
            <ZoneCard
              key={p.id}
              title={
                <Link to={`/zone/proposals/${p.id}`} className="break-words text-brand-700 underline underline-offset-2">
                  {t('proposals.name', { number: p.number, title: p.title })}
                </Link>
              }
            >
              <ZoneField label={t('proposals.status')}>
                <ZoneProposalStatusBadge status={p.status} />
              </ZoneField>
              <ZoneField label={t('proposals.sent')}>{date(p.sentAt)}</ZoneField>
              {p.validTo ? <ZoneField label={t('proposals.validTo')}>{date(p.validTo)}</ZoneField> : null}
              <ZoneField label={t('proposals.total')}>{formatNumber(Number(p.totalPrice))}</ZoneField>
            </ZoneCard>
          ))}
        </ul>
      )}
      <ZonePager page={loaderData.page} hasMore={loaderData.hasMore} href={(p) => `/zone/proposals?page=${p}`} />
    </ZonePage>
  );
}
