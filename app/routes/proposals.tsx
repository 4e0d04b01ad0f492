import { useTranslation } from 'react-i18next';
import { Form, Link, redirect, useNavigation, useSearchParams } from 'react-router';
import type { Route } from './+types/proposals';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useCan } from '~/app/lib/can';
import { Button, DateTime, ListPager, NativeSelect, pageFromUrl } from '~/app/components/ui';
import { formatNumber } from '~/core/i18n/number-format';
import { createProposal, listProposals } from '~/core/proposals/proposal.service';
import { PROPOSAL_STATUSES } from '~/core/proposals/proposal-constants';

/**
 * Proposals (spec section 2: /proposals, the CRM module and proposal:read): the active ones of the
 * last month unless the filter says otherwise (spec section 9), in the list's order, with their
 * totals; a new proposal opens at once.
 */
export const middleware = guard({ permission: 'proposal:read', module: 'crm' });

const PERIODS = ['month', 'quarter', 'year', 'all'] as const;
type Period = (typeof PERIODS)[number];

function since(period: Period, now: Date): string | undefined {
  if (period === 'all') return undefined;
  const d = new Date(now);
  d.setMonth(d.getMonth() - (period === 'month' ? 1 : period === 'quarter' ? 3 : 12));
  return d.toISOString().slice(0, 10);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAuth(context);
  const url = new URL(request.url);
  const page = pageFromUrl(url.searchParams);
  const status = (url.searchParams.get('status') ?? 'active') as (typeof PROPOSAL_STATUSES)[number] | 'all';
  const period = (PERIODS as readonly string[]).includes(url.searchParams.get('period') ?? '')
    ? (url.searchParams.get('period') as Period)
    : 'month';
  const result = await run(context, (ctx) =>
    listProposals(ctx, {
      status: [...PROPOSAL_STATUSES, 'all'].includes(status) ? status : 'active',
      startTime: since(period, ctx.now),
      offset: page.offset,
      limit: page.limit,
    }),
  );
  return { ...result, ...page, status, period };
}

export async function action({ context }: Route.ActionArgs) {
  try {
    const made = await run(context, (ctx) => createProposal(ctx, {}));
    return redirect(`/proposals/${made.id}`);
  } catch (e) {
    return actionError(e);
  }
}

export default function Proposals({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('proposals');
  const can = useCan();
  const [params, setParams] = useSearchParams();
  const navigation = useNavigation();
  const { proposals, totalCount, offset, limit, status, period } = loaderData;
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    next.set(key, value);
    next.delete('offset');
    setParams(next);
  };
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        {can('proposal:edit', 'crm') && (
          <Form method="post">
            <Button type="submit" variant="primary" isPending={navigation.state === 'submitting'}>
              {t('new')}
            </Button>
          </Form>
        )}
      </div>
      <div className="flex flex-wrap gap-3">
        <NativeSelect
          label={t('filter.status')}
          value={status}
          onChange={(v) => set('status', v)}
          items={[...PROPOSAL_STATUSES, 'all'].map((s) => ({ id: s, label: t(`status.${s}`) }))}
        />
        <NativeSelect
          label={t('filter.period')}
          value={period}
          onChange={(v) => set('period', v)}
          items={PERIODS.map((p) => ({ id: p, label: t(`period.${p}`) }))}
        />
      </div>
      {proposals.length === 0 ? (
        <p className="rounded-lg border border-dashed border-gray-300 bg-white p-6 text-center text-gray-700">
          {t('empty')}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
          <table className="w-full text-sm">
            <thead className="bg-slate-50 text-start text-gray-700">
              <tr>
                <th scope="col" className="px-3 py-2 text-start">
                  {t('field.number')}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t('field.title')}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t('field.customer')}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t('field.status')}
                </th>
                <th scope="col" className="px-3 py-2 text-end">
                  {t('field.total')}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t('field.created')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {proposals.map((p) => (
                <tr key={p.id}>
                  <td className="px-3 py-2">{p.sequenceNumber}</td>
                  <td className="px-3 py-2">
                    <Link to={`/proposals/${p.id}`} className="font-medium text-blue-700 underline">
                      {p.title || t('untitled', { number: p.sequenceNumber })}
                    </Link>
                  </td>
                  <td className="px-3 py-2">{p.customerName ?? '—'}</td>
                  <td className="px-3 py-2">{t(`status.${p.status}`)}</td>
                  <td className="px-3 py-2 text-end tabular-nums">{formatNumber(Number(p.totalPrice))}</td>
                  <td className="px-3 py-2">
                    <DateTime iso={p.createTs} withTime={false} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ListPager totalCount={totalCount} offset={offset} limit={limit} />
    </div>
  );
}
