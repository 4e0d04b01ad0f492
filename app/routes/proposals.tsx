import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, Link, redirect, useFetcher, useNavigation, useSearchParams } from 'react-router';
import type { Route } from './+types/proposals';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useCan } from '~/app/lib/can';
import { Button, DateTime, ListPager, NativeSelect, pageFromUrl } from '~/app/components/ui';
import { useDragReorder } from '~/app/components/ui/use-drag-reorder';
import { addMonths } from '~/core/calendar/dates';
import { tenantToday } from '~/core/calendar/tenant-today';
import { formatNumber } from '~/core/i18n/number-format';
import { listProposals, type Proposal } from '~/core/proposals/proposal.service';
import { moveProposal, proposalListOptions } from '~/core/proposals/proposal-list.service';
import { PROPOSAL_STATUSES } from '~/core/proposals/proposal-constants';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Proposals (spec section 2: /proposals, the CRM module and proposal:read): the active ones of the
 * last month unless the filter says otherwise (spec section 9), by tag and creator, in the list's
 * order, with their totals; a new proposal opens at once. While the list shows active proposals
 * (spec section 4: changes apply to the list only then) a proposal is dragged to another place, or
 * moved with its arrow buttons.
 */
export const middleware = guard({ permission: 'proposal:read', module: 'crm' });

const PERIODS = ['month', 'quarter', 'year', 'all'] as const;
type Period = (typeof PERIODS)[number];

/** The first day of the period that ends today (the tenant's): a month, a quarter or a year back. */
function since(period: Period, today: string): string | undefined {
  if (period === 'all') return undefined;
  return addMonths(today, period === 'month' ? -1 : period === 'quarter' ? -3 : -12);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAuth(context);
  const url = new URL(request.url);
  const page = pageFromUrl(url.searchParams);
  const status = (url.searchParams.get('status') ?? 'active') as (typeof PROPOSAL_STATUSES)[number] | 'all';
  const period = (PERIODS as readonly string[]).includes(url.searchParams.get('period') ?? '')
    ? (url.searchParams.get('period') as Period)
    : 'month';
  const tag = url.searchParams.get('tag') ?? '';
  const creator = url.searchParams.get('creator') ?? '';
  const result = await run(context, async (ctx) => {
    const list = await listProposals(ctx, {
      status: [...PROPOSAL_STATUSES, 'all'].includes(status) ? status : 'active',
      startTime: since(period, tenantToday(ctx)),
      tags: tag || undefined,
      createUserId: creator || undefined,
      offset: page.offset,
      limit: page.limit,
    });
    return { ...list, options: await proposalListOptions(ctx) };
  });
  return { ...result, ...page, status, period, tag, creator };
}

export async function action({ request, context }: Route.ActionArgs) {
  try {
    if (request.headers.get('content-type')?.includes('application/json')) {
      // the only JSON intent: move a proposal in the list
      const body = (await request.json()) as unknown;
      await run(context, (ctx) => moveProposal(ctx, body));
      return { ok: true as const };
    }
    // a new proposal opens empty and is created by its first save (issue 28 item 19): one left
    // without a change leaves nothing in the list
    return redirect('/proposals/new');
  } catch (e) {
    return actionError(e);
  }
}

type Position = 'before' | 'after';

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('nav.proposals');

export default function Proposals({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('proposals');
  const { t: tc } = useTranslation('common');
  const can = useCan();
  const [params, setParams] = useSearchParams();
  const navigation = useNavigation();
  const mover = useFetcher<{ ok?: true; code?: string }>();
  const { proposals, totalCount, offset, limit, status, period, tag, creator, options } = loaderData;
  // the list as shown: moved at once, the server's order after it answers
  const [shown, setShown] = useState<Proposal[]>(proposals);
  useEffect(() => setShown(proposals), [proposals]);
  // a refused move puts the list back
  useEffect(() => {
    if (mover.data?.code) setShown(proposals);
  }, [mover.data, proposals]);
  const canMove = status === 'active' && can('proposal:edit', 'crm');
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete('offset');
    setParams(next);
  };
  const move = (from: number, to: number) => {
    if (from === to || to < 0 || to >= shown.length) return;
    const position: Position = to > from ? 'after' : 'before';
    const next = [...shown];
    const [p] = next.splice(from, 1);
    next.splice(to, 0, p!);
    setShown(next);
    void mover.submit({ id: p!.id, overId: shown[to]!.id, position }, { method: 'post', encType: 'application/json' });
  };
  const { drag, dragged } = useDragReorder({ enabled: canMove, onMove: move });
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
        {options.tags.length > 0 && (
          <NativeSelect
            label={t('filter.tag')}
            value={tag}
            onChange={(v) => set('tag', v)}
            items={[{ id: '', label: t('filter.anyTag') }, ...options.tags.map((g) => ({ id: g.id, label: g.name }))]}
          />
        )}
        <NativeSelect
          label={t('filter.creator')}
          value={creator}
          onChange={(v) => set('creator', v)}
          items={[{ id: '', label: t('filter.anyone') }, ...options.users.map((u) => ({ id: u.id, label: u.name }))]}
        />
      </div>
      {mover.data?.code && (
        <p role="alert" className="text-sm text-red-700">
          {tc(mover.data.code)}
        </p>
      )}
      {shown.length === 0 ? (
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
                {canMove && (
                  <th scope="col" className="px-3 py-2 text-end">
                    <span className="sr-only">{t('list.order')}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {shown.map((p, i) => (
                <tr
                  key={p.id}
                  {...drag(i)}
                  className={dragged === i ? 'opacity-50' : undefined}
                  data-testid="proposal-line"
                >
                  <td className="px-3 py-2">{p.sequenceNumber}</td>
                  <td className="px-3 py-2">
                    <Link to={`/proposals/${p.id}`} className="font-medium text-blue-700 underline">
                      {p.title || t('untitled', { number: p.sequenceNumber })}
                    </Link>
                    {p.tags.length > 0 && <span className="ms-2 text-xs text-gray-600">{p.tags.join(', ')}</span>}
                  </td>
                  <td className="px-3 py-2">{p.customerName ?? '—'}</td>
                  <td className="px-3 py-2">{t(`status.${p.status}`)}</td>
                  <td className="px-3 py-2 text-end tabular-nums">{formatNumber(Number(p.totalPrice))}</td>
                  <td className="px-3 py-2">
                    <DateTime iso={p.createTs} withTime={false} />
                  </td>
                  {canMove && (
                    <td className="px-3 py-1 text-end whitespace-nowrap">
                      <span
                        aria-hidden
                        title={t('row.drag')}
                        className="cursor-grab px-1 text-lg text-gray-500 select-none"
                      >
                        ⠿
                      </span>
                      <Button
                        size="sm"
                        variant="ghost"
                        isDisabled={i === 0}
                        onPress={() => move(i, i - 1)}
                        aria-label={t('list.up', { title: p.title || p.sequenceNumber })}
                      >
                        ↑
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        isDisabled={i === shown.length - 1}
                        onPress={() => move(i, i + 1)}
                        aria-label={t('list.down', { title: p.title || p.sequenceNumber })}
                      >
                        ↓
                      </Button>
                    </td>
                  )}
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
