import { useTranslation } from 'react-i18next';
import { data, Link } from 'react-router';
import type { Route } from './+types/zone.proposals.$id';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { pageTitle } from '~/app/lib/page-title';
import { runZone, zoneGuard } from '~/app/lib/zone-guard.server';
import { useZoneDate, ZoneField } from '~/app/components/zone/zone-parts';
import { ZoneProposalAnswer } from '~/app/components/zone/zone-proposal-answer';
import { ZoneProposalStatusBadge } from '~/app/components/zone/zone-proposal-status';
import { formatNumber } from '~/core/i18n/number-format';
import { isAppError } from '~/core/errors/app-error';
import { toNumber } from '~/core/pricing';
import { acceptZoneProposal, declineZoneProposal, getZoneProposal } from '~/core/zone/zone-proposal.service';

/**
 * One proposal sent to the customer: its rows and totals as printed, the PDF, and the answer —
 * accept with the printed name and a finger signature, or decline with a reason (decision 063).
 */
export const middleware = zoneGuard();

export const handle = pageTitle('zoneTitle.proposal');

export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    return await runZone(context, (ctx) => getZoneProposal(ctx, params.id));
  } catch (e) {
    // another customer's proposal, or one never sent, is simply not there
    if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
    throw e;
  }
}

export type ZoneProposalActionResult = { ok: true; intent: string } | (ActionError & { intent?: string });

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  const input = {
    name: form.get('name') ?? '',
    signature: form.get('signature') || undefined,
    reason: form.get('reason') || undefined,
  };
  try {
    await runZone(context, (ctx) =>
      intent === 'accept' ? acceptZoneProposal(ctx, params.id, input) : declineZoneProposal(ctx, params.id, input),
    );
    return { ok: true as const, intent };
  } catch (e) {
    return actionError<ZoneProposalActionResult>(e, { intent });
  }
}

export default function ZoneProposalPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zoneactions');
  const date = useZoneDate();
  const p = loaderData.proposal;
  const d = p.document;
  const money = (v: string | null) => (v == null ? '' : `${formatNumber(toNumber(v))} ${d.currency}`);
  const texts = [
    ['intro', d.intro],
    ['description', d.description],
    ['inclusions', d.inclusions],
    ['exceptions', d.exceptions],
  ] as const;
  const textLabel = {
    intro: t('proposal.intro'),
    description: t('proposal.description'),
    inclusions: t('proposal.inclusions'),
    exceptions: t('proposal.exceptions'),
  };
  return (
    <div className="flex flex-col gap-6">
      <Link to="/zone/proposals" className="inline-flex min-h-11 items-center text-sm text-brand-700 underline">
        {t('proposal.back')}
      </Link>
      <section aria-labelledby="zone-page-title" className="flex flex-col gap-3">
        <h1 id="zone-page-title" className="text-xl font-semibold break-words sm:text-2xl">
          {t('proposals.name', { number: p.number, title: p.title })}
        </h1>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <ZoneField label={t('proposals.status')}>
            <ZoneProposalStatusBadge status={p.status} />
          </ZoneField>
          <ZoneField label={t('proposals.sent')}>{date(p.sentAt)}</ZoneField>
          {p.validTo ? <ZoneField label={t('proposals.validTo')}>{date(p.validTo)}</ZoneField> : null}
          {d.ourReference ? <ZoneField label={t('proposal.ourReference')}>{d.ourReference}</ZoneField> : null}
        </dl>
        <a
          href={`/api/zone/proposals/${p.id}/pdf`}
          className="inline-flex min-h-11 items-center text-sm text-brand-700 underline underline-offset-2"
        >
          {t('proposal.pdf', { number: p.number })}
        </a>
      </section>

      {texts
        .filter(([, text]) => text)
        .map(([key, text]) => (
          <section key={key} aria-labelledby={`zone-proposal-${key}`} className="rounded-lg bg-white p-4 ring-1 ring-slate-200">
            <h2 id={`zone-proposal-${key}`} className="font-semibold">
              {textLabel[key]}
            </h2>
            <p className="mt-1 text-sm break-words whitespace-pre-line">{text}</p>
          </section>
        ))}

      <section aria-labelledby="zone-proposal-rows" className="rounded-lg bg-white p-4 ring-1 ring-slate-200">
        <h2 id="zone-proposal-rows" className="font-semibold">
          {t('proposal.rows')}
        </h2>
        {/* a phone scrolls the table sideways: the region takes focus so the keyboard can too */}
        <div className="mt-2 overflow-x-auto" role="region" aria-labelledby="zone-proposal-rows" tabIndex={0}>
          <table className="w-full text-sm">
            <thead>
              <tr className="border-b border-slate-200 text-left text-slate-600">
                <th scope="col" className="py-1 pe-2 font-medium">
                  {t('proposal.article')}
                </th>
                <th scope="col" className="px-2 py-1 text-right font-medium">
                  {t('proposal.quantity')}
                </th>
                <th scope="col" className="px-2 py-1 text-right font-medium">
                  {t('proposal.price')}
                </th>
                <th scope="col" className="px-2 py-1 text-right font-medium">
                  {t('proposal.discount')}
                </th>
                <th scope="col" className="py-1 ps-2 text-right font-medium">
                  {t('proposal.rowTotal')}
                </th>
              </tr>
            </thead>
            <tbody>
              {d.rows.map((r, i) =>
                r.isComment ? (
                  <tr key={i} className="border-b border-slate-100">
                    <td colSpan={5} className="py-1 break-words italic">
                      {r.title}
                    </td>
                  </tr>
                ) : r.isSummary ? (
                  <tr key={i} className="border-b border-slate-100 font-medium">
                    <td colSpan={4} className="py-1 pe-2">
                      {r.title ?? t('proposal.subtotal')}
                    </td>
                    <td className="py-1 ps-2 text-right whitespace-nowrap tabular-nums">{money(r.subtotal)}</td>
                  </tr>
                ) : (
                  <tr key={i} className="border-b border-slate-100 align-top">
                    <td className="py-1 pe-2 break-words">
                      {r.title}
                      {r.description ? <div className="text-xs text-slate-600">{r.description}</div> : null}
                    </td>
                    <td className="px-2 py-1 text-right whitespace-nowrap tabular-nums">
                      {r.amount ? formatNumber(toNumber(r.amount), { decimals: r.amount.split('.')[1]?.replace(/0+$/, '').length ?? 0 }) : ''}
                      {r.unit ? ` ${r.unit}` : ''}
                    </td>
                    <td className="px-2 py-1 text-right whitespace-nowrap tabular-nums">{money(r.price)}</td>
                    <td className="px-2 py-1 text-right whitespace-nowrap">{r.discount}</td>
                    <td className="py-1 ps-2 text-right whitespace-nowrap tabular-nums">{money(r.total)}</td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
        <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 text-sm">
          <dt className="text-right">{t('proposal.total')}</dt>
          <dd className="text-right tabular-nums">{money(d.total)}</dd>
          {d.vat.map((v) => (
            <div key={v.percent} className="contents">
              <dt className="text-right">{t('proposal.vat', { percent: v.percent })}</dt>
              <dd className="text-right tabular-nums">{money(v.vat)}</dd>
            </div>
          ))}
          <dt className="text-right font-semibold">{t('proposal.totalInclVat')}</dt>
          <dd className="text-right font-semibold tabular-nums">{money(d.totalInclVat)}</dd>
          {d.showMonthly ? (
            <>
              <dt className="text-right">{t('proposal.monthlyTotal')}</dt>
              <dd className="text-right tabular-nums">{money(d.monthlyTotal)}</dd>
            </>
          ) : null}
        </dl>
      </section>

      {d.generalTerms || d.paymentTerms ? (
        <section aria-labelledby="zone-proposal-terms" className="rounded-lg bg-white p-4 ring-1 ring-slate-200">
          <h2 id="zone-proposal-terms" className="font-semibold">
            {t('proposal.terms')}
          </h2>
          {d.generalTerms ? <p className="mt-1 text-sm break-words whitespace-pre-line">{d.generalTerms}</p> : null}
          {d.paymentTerms ? (
            <p className="mt-2 text-sm break-words whitespace-pre-line">
              {t('proposal.paymentTerms', { terms: d.paymentTerms })}
            </p>
          ) : null}
        </section>
      ) : null}

      <ZoneProposalAnswer proposal={p} />
    </div>
  );
}
