import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useFetcher, useNavigate, useRevalidator } from 'react-router';
import { Button, ConfirmDialog, TextField, useToast } from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import { useWorkOrderTabs } from '~/app/components/work-orders/tabs/tabs-context';
import { parsePlainDate } from '~/core/calendar/dates';
import {
  CALENDAR_DEBOUNCE_MS,
  CALENDAR_PERIODS,
  PROJECT_STEPS,
  shiftView,
  viewColumns,
  type CalendarPeriod,
  type CalendarPerspective,
  type CalendarView,
  type ProjectStep,
} from '~/core/work-orders/calendar-rules';
import type { Board, BoardItem, UnscheduledOrder } from '~/core/work-orders/schedule.service';
import { BoardGrid, type PlanChange } from './board-grid';
import { PlanDialog, type PlanDraft, type PlanValues } from './plan-dialog';
import { periodTitle } from './labels';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';

export interface CalendarTabProps {
  view: { period: CalendarPeriod; perspective: CalendarPerspective; step: ProjectStep; date: string; q: string };
  board: Board;
  me: string;
  timeZone: string;
}

type Result =
  { ok: true; intent: string; version?: number } | { ok?: false; code: string; fields?: Record<string, string[]> };

/**
 * The calendar tab: the toolbar (period, perspective, arrows, today), the board, and the orders
 * nobody has planned yet. Changes post to the route's action; the board reloads after each, and
 * when another dispatcher's change arrives over the live channel.
 */
export function CalendarTab({ view: v, board, me }: CalendarTabProps) {
  const { t } = useTranslation('calendar');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const tabs = useWorkOrderTabs();
  const toast = useToast();
  const revalidator = useRevalidator();
  const change = useFetcher<Result>();
  const prefs = useFetcher();
  const anchor = parsePlainDate(v.date)!;
  const view: CalendarView = useMemo(
    () => ({ period: v.period, perspective: v.perspective, step: v.step, anchor }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [v.period, v.perspective, v.step, v.date],
  );
  const columns = useMemo(() => viewColumns(view), [view]);
  const [draft, setDraft] = useState<PlanDraft | null>(null);
  const [removing, setRemoving] = useState<BoardItem | null>(null);
  const [search, setSearch] = useState(v.q);

  useEffect(() => {
    if (tabs.ready && tabs.state.active !== 'calendar') tabs.showView('calendar');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tabs.ready]);

  // ---- where the board looks: the address, 250 ms after the last click or keystroke ----
  const [pending, setPending] = useState<Partial<CalendarTabProps['view']> | null>(null);
  const current = { ...v, ...pending };
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const go = (changes: Partial<CalendarTabProps['view']>, remember = false) => {
    const next = { ...current, ...changes };
    setPending(next);
    if (remember)
      void prefs.submit(
        { intent: 'prefs', period: next.period, perspective: next.perspective, step: String(next.step) },
        { method: 'post', action: '/work-orders/calendar' },
      );
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const params = new URLSearchParams({
        period: next.period,
        perspective: next.perspective,
        step: String(next.step),
        date: next.date,
      });
      if (next.q) params.set('q', next.q);
      void navigate(`/work-orders/calendar?${params.toString()}`, { preventScrollReset: true });
    }, CALENDAR_DEBOUNCE_MS);
  };
  useEffect(() => setPending(null), [v.period, v.perspective, v.step, v.date, v.q]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const shownAnchor = parsePlainDate(current.date) ?? anchor;
  const shownView: CalendarView = {
    period: current.period,
    perspective: current.perspective,
    step: current.step,
    anchor: shownAnchor,
  };
  const step = (dir: -1 | 1) => {
    const d = shiftView(shownView, dir);
    go({ date: `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}` });
  };

  // ---- live: another dispatcher's change reloads the board ----
  const versionRef = useRef(board.version);
  versionRef.current = board.version;
  const [live, setLive] = useState<'connecting' | 'live' | 'offline'>('connecting');
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource('/work-orders/calendar/events');
    let dropped = false;
    source.addEventListener('open', () => {
      setLive('live');
      // back after a drop: catch up on whatever was missed
      if (dropped) void revalidator.revalidate();
      dropped = false;
    });
    source.addEventListener('error', () => {
      dropped = true;
      setLive('offline');
    });
    source.addEventListener('board', (e) => {
      const news = JSON.parse((e as MessageEvent<string>).data) as { version: number; userId: string | null };
      if (news.version <= versionRef.current) return;
      if (news.userId !== me) toast.show({ kind: 'info', message: t('live.updated') });
      void revalidator.revalidate();
    });
    return () => source.close();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [me]);

  // ---- changes ----
  const result = useFetcherResult(change, (result) => {
    if (result.ok) {
      setDraft(null);
      setRemoving(null);
      if (result.intent === 'unplan') toast.show({ kind: 'success', message: t('removed') });
    } else {
      const fieldCodes = Object.values(result.fields ?? {}).flat();
      toast.show({
        kind: result.code === 'SCHEDULE_CHANGED' ? 'warning' : 'error',
        message: fieldCodes.length ? fieldCodes.map((c) => tc(c)).join(' ') : tc(result.code),
      });
    }
  });

  const busy = change.state !== 'idle';
  const submit = (form: Record<string, string>) =>
    void change.submit(form, { method: 'post', action: '/work-orders/calendar' });
  const onChange = (c: PlanChange) => {
    if (c.kind === 'plan')
      submit({
        intent: 'plan',
        workOrderId: c.workOrderId,
        userId: c.userId,
        date: c.date,
        startTime: c.startTime ?? '',
      });
    else if (c.kind === 'move')
      submit({
        intent: 'move',
        id: c.item.id,
        version: String(c.item.version),
        userId: c.userId ?? '',
        date: c.date ?? '',
        startTime: c.startTime ?? '',
        endTime: c.endTime ?? '',
      });
    else if (c.kind === 'edit') setDraft({ mode: 'edit', item: c.item });
    else if (c.kind === 'remove') setRemoving(c.item);
  };
  const saveDraft = (d: PlanValues) =>
    d.id
      ? submit({
          intent: 'move',
          id: d.id,
          version: String(d.version),
          userId: d.userId,
          date: d.date,
          startTime: d.startTime,
          endTime: d.endTime,
        })
      : submit({
          intent: 'plan',
          workOrderId: d.workOrderId!,
          userId: d.userId,
          date: d.date,
          startTime: d.startTime,
          endTime: d.endTime,
        });

  const periods = v.perspective === 'project' ? [] : CALENDAR_PERIODS;
  const today = new Date();
  const todayText = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;

  return (
    <section aria-labelledby="calendar-title" className="space-y-3">
      <div className="flex flex-wrap items-center gap-2 rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200">
        <div className="flex items-center gap-1">
          <Button variant="secondary" size="sm" onPress={() => step(-1)} aria-label={t('previous')}>
            ‹
          </Button>
          <Button variant="secondary" size="sm" onPress={() => go({ date: todayText })}>
            {t('today')}
          </Button>
          <Button variant="secondary" size="sm" onPress={() => step(1)} aria-label={t('next')}>
            ›
          </Button>
        </div>
        <h2 id="calendar-title" className="min-w-40 text-lg font-semibold" aria-live="polite">
          {periodTitle(t, shownView)}
        </h2>
        <div role="group" aria-label={t('perspective.label')} className="flex rounded-lg ring-1 ring-slate-300">
          {(['technician', 'project'] as const).map((p) => (
            <button
              key={p}
              type="button"
              aria-pressed={current.perspective === p}
              onClick={() => go({ perspective: p }, true)}
              className={cx(
                'px-3 py-1.5 text-sm first:rounded-l-lg last:rounded-r-lg focus-visible:outline-2 focus-visible:outline-blue-600',
                current.perspective === p ? 'bg-slate-800 text-white' : 'text-slate-700 hover:bg-slate-100',
              )}
            >
              {t(`perspective.${p}`)}
            </button>
          ))}
        </div>
        {periods.length ? (
          <div role="group" aria-label={t('period.label')} className="flex flex-wrap rounded-lg ring-1 ring-slate-300">
            {periods.map((p) => (
              <button
                key={p}
                type="button"
                aria-pressed={current.period === p}
                onClick={() => go({ period: p }, true)}
                className={cx(
                  'px-3 py-1.5 text-sm first:rounded-l-lg last:rounded-r-lg focus-visible:outline-2 focus-visible:outline-blue-600',
                  current.period === p ? 'bg-slate-800 text-white' : 'text-slate-700 hover:bg-slate-100',
                )}
              >
                {t(`period.${p}`)}
              </button>
            ))}
          </div>
        ) : (
          <div role="group" aria-label={t('step.label')} className="flex rounded-lg ring-1 ring-slate-300">
            {PROJECT_STEPS.map((s) => (
              <button
                key={s}
                type="button"
                aria-pressed={current.step === s}
                onClick={() => go({ step: s }, true)}
                className={cx(
                  'px-3 py-1.5 text-sm first:rounded-l-lg last:rounded-r-lg focus-visible:outline-2 focus-visible:outline-blue-600',
                  current.step === s ? 'bg-slate-800 text-white' : 'text-slate-700 hover:bg-slate-100',
                )}
              >
                {t('step.months', { count: s })}
              </button>
            ))}
          </div>
        )}
        <span
          className={cx(
            'ml-auto rounded-full px-2 py-0.5 text-xs',
            live === 'live' ? 'bg-emerald-50 text-emerald-800' : 'bg-slate-100 text-slate-600',
          )}
          data-live={live}
        >
          {t(`live.${live}`)}
        </span>
      </div>

      <div className="grid grid-cols-[minmax(0,1fr)] gap-3 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <BoardGrid
          view={view}
          columns={columns}
          board={board}
          busy={busy}
          onChange={onChange}
          onOpen={(item) => void navigate(`/work-orders/${item.workOrderId}`)}
        />
        <Unscheduled
          orders={board.unscheduled}
          count={board.unscheduledCount}
          capped={board.unscheduledCountCapped}
          canPlan={board.canPlan && v.perspective === 'technician'}
          search={search}
          onSearch={(q) => {
            setSearch(q);
            go({ q });
          }}
          onPlan={(order) => setDraft({ mode: 'plan', order, date: v.date })}
        />
      </div>

      {draft ? (
        <PlanDialog
          draft={draft}
          users={board.users}
          me={me}
          busy={busy}
          fields={result && !result.ok ? result.fields : undefined}
          onClose={() => setDraft(null)}
          onSave={saveDraft}
          onRemove={(item) => {
            setDraft(null);
            setRemoving(item);
          }}
        />
      ) : null}
      <ConfirmDialog
        isOpen={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title={t('remove.title')}
        message={
          removing
            ? t('remove.message', { number: removing.number, title: removing.title, date: removing.date })
            : undefined
        }
        confirmLabel={t('remove.confirm')}
        variant="danger"
        isPending={busy}
        onConfirm={() => {
          if (removing) submit({ intent: 'unplan', id: removing.id, version: String(removing.version) });
        }}
      />
    </section>
  );
}

function Unscheduled({
  orders,
  count,
  capped,
  canPlan,
  search,
  onSearch,
  onPlan,
}: {
  orders: UnscheduledOrder[];
  count: number;
  capped: boolean;
  canPlan: boolean;
  search: string;
  onSearch: (q: string) => void;
  onPlan: (order: UnscheduledOrder) => void;
}) {
  const { t } = useTranslation('calendar');
  return (
    <aside aria-labelledby="unscheduled-title" className="rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200">
      <h3 id="unscheduled-title" className="font-semibold">
        {t('unscheduled.title')}{' '}
        <span className="text-sm font-normal text-slate-500">({capped ? `${count}+` : count})</span>
      </h3>
      <p className="mt-1 text-xs text-slate-500">{canPlan ? t('unscheduled.hint') : t('unscheduled.readOnly')}</p>
      <div className="mt-2">
        <TextField label={t('unscheduled.search')} value={search} onChange={onSearch} type="search" />
      </div>
      {orders.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">{t('unscheduled.empty')}</p>
      ) : (
        <ul className="mt-2 max-h-[60vh] space-y-1 overflow-y-auto" aria-label={t('unscheduled.title')}>
          {orders.map((o) => (
            <li
              key={o.id}
              draggable={canPlan}
              data-testid="unscheduled-order"
              onDragStart={(e) => {
                e.dataTransfer.setData('application/x-ordo-order', o.id);
                e.dataTransfer.setData('text/plain', o.number);
                e.dataTransfer.effectAllowed = 'copyMove';
              }}
              className={cx(
                'flex items-start justify-between gap-2 rounded-lg border border-slate-200 p-2 text-sm',
                canPlan && 'cursor-grab active:cursor-grabbing',
                o.priority === 'high' && 'border-l-4 border-l-red-500',
              )}
            >
              <div className="min-w-0">
                <Link to={`/work-orders/${o.id}`} className="font-medium text-blue-800 hover:underline">
                  {o.number}
                </Link>{' '}
                <span className="break-words">{o.title}</span>
                {o.customerName || o.city ? (
                  <div className="truncate text-xs text-slate-500">
                    {[o.customerName, o.city].filter(Boolean).join(' · ')}
                  </div>
                ) : null}
              </div>
              {canPlan ? (
                <Button
                  size="sm"
                  variant="secondary"
                  onPress={() => onPlan(o)}
                  aria-label={t('unscheduled.planLabel', { number: o.number })}
                >
                  {t('unscheduled.plan')}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {capped ? <p className="mt-2 text-xs text-slate-500">{t('unscheduled.more')}</p> : null}
    </aside>
  );
}
