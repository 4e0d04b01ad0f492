import {
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import type { PlannerActionResult, PlannerLoaderData } from '~/app/routes/projects.resources';
import {
  Button,
  ConfirmDialog,
  formatDate,
  formatNumber,
  Spinner,
  useTenantClock,
  useToast,
} from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import { WarningIcon } from '~/app/components/ui/icons';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import { dateTimeFormat } from '~/core/i18n/intl-cache';
import { addDays, daysBetween } from '~/core/calendar/dates';
import {
  DEFAULT_PLANNING_STEP,
  moveSpan,
  PLANNING_STEPS,
  planningRange,
  resizeSpan,
  shiftAnchor,
  spanLanes,
  spanPlacement,
  weeksMoved,
  type DaySpan,
  type PlanningStep,
} from '~/core/projects/resource-calendar';
import type { PlanConflict, ResourcePlan, ResourceRow } from '~/core/projects/resource.service';
import { ResourcePlanDialog, type PlanDraft } from './resource-plan-dialog';

/** Where the planner reads and writes (app/routes/projects.resources.tsx). */
const RESOURCES = '/projects/resources';

export interface ResourcePlannerProps {
  /** Only this project's plans (a project's planning tab); left out, every project's. */
  projectId?: string;
  /** May plan, move and delete (projects:edit); the server decides again. */
  canEdit: boolean;
  /** A day in the first month shown (YYYY-MM-DD); today's month when left out. */
  initialFrom?: string;
  /** The months shown at a time (1, 3, 6, 12); with `onViewChange` the caller keeps it (e.g. in the URL). */
  step?: PlanningStep;
  /** The calendar the caller already read for `initialFrom` and `step` (a page's loader), shown without a fetch. */
  initialPlan?: ResourcePlan;
  /**
   * Given, the caller owns the view: the arrows, Today and the steps ask it to change, and the
   * new `initialFrom`, `step` and `initialPlan` come back as props.
   */
  onViewChange?: (view: { step: PlanningStep; date: string }) => void;
}

/** A project's colour: the same on every row and every visit (from its id). */
const PALETTE = [
  'bg-sky-100 text-sky-950 ring-sky-400',
  'bg-amber-100 text-amber-950 ring-amber-400',
  'bg-emerald-100 text-emerald-950 ring-emerald-400',
  'bg-fuchsia-100 text-fuchsia-950 ring-fuchsia-400',
  'bg-orange-100 text-orange-950 ring-orange-400',
  'bg-teal-100 text-teal-950 ring-teal-400',
  'bg-violet-100 text-violet-950 ring-violet-400',
  'bg-lime-100 text-lime-950 ring-lime-400',
  'bg-rose-100 text-rose-950 ring-rose-400',
  'bg-indigo-100 text-indigo-950 ring-indigo-400',
] as const;
function colourOf(projectId: string): string {
  let h = 0;
  for (const c of projectId) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length]!;
}

/** A bar's height and gap (rem): lanes stack overlapping spans. */
const LANE_REM = 2;
const MARKER_REM = 1.25;
/** Pointer travel (px) before a press on a bar is a drag rather than a click. */
const DRAG_SLOP = 4;

/** Hours as the spec writes numbers ("7,5"), as few decimals as they need. */
const hoursText = (hours: number) =>
  formatNumber(hours, { decimals: Number.isInteger(hours * 10) ? (Number.isInteger(hours) ? 0 : 1) : 2 });
const firstOfMonth = (date: string) => `${date.slice(0, 7)}-01`;
const localToday = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

interface Owner {
  key: string;
  kind: 'user' | 'supplier';
  id: string;
  name: string;
  rows: ResourceRow[];
  conflicts: PlanConflict[];
}

interface Drag {
  row: ResourceRow;
  mode: 'move' | 'resize';
  x0: number;
  dayWidth: number;
  moved: boolean;
}

/**
 * The resource planning calendar (spec section 2 "Resource planning calendar"; section 9
 * "planning period week"): ISO weeks as columns over 1, 3, 6 or 12 months, a row per person (and
 * the suppliers with plans), each plan a bar coloured per project, clashes marked per week. With
 * `canEdit` a bar is dragged by weeks, its end stretched, and a click (or Enter) opens it; "Plan"
 * and each row's + open the plan dialog. Every pointer action has a keyboard one: arrows move a
 * focused bar a week, Shift+arrows change its end, Delete removes it. Scrolls sideways on a phone
 * with the names kept in view.
 */
export function ResourcePlanner({
  projectId,
  canEdit,
  initialFrom,
  step: stepProp,
  initialPlan,
  onViewChange,
}: ResourcePlannerProps) {
  const { t } = useTranslation('projects');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const clock = useTenantClock();
  const headingId = useId();
  const helpId = useId();

  // the view: the caller's (controlled) or our own
  const controlled = Boolean(onViewChange);
  const [ownAnchor, setOwnAnchor] = useState(() => firstOfMonth(initialFrom ?? initialPlan?.today ?? localToday()));
  const [ownStep, setOwnStep] = useState<PlanningStep>(stepProp ?? DEFAULT_PLANNING_STEP);
  const anchor = controlled ? firstOfMonth(initialFrom ?? initialPlan?.today ?? localToday()) : ownAnchor;
  const step = controlled ? (stepProp ?? DEFAULT_PLANNING_STEP) : ownStep;
  const range = useMemo(() => planningRange(anchor, step), [anchor, step]);
  const changeView = (next: { date?: string; step?: PlanningStep }) => {
    const view = { date: firstOfMonth(next.date ?? anchor), step: next.step ?? step };
    if (onViewChange) onViewChange(view);
    else {
      setOwnAnchor(view.date);
      setOwnStep(view.step);
    }
  };

  // the calendar: the caller's when it is of this view, else read from the resource route
  const loader = useFetcher<PlannerLoaderData>();
  const query = useMemo(() => {
    const q = new URLSearchParams({ from: range.from, to: range.to });
    if (projectId) q.set('projectId', projectId);
    return `${RESOURCES}?${q}`;
  }, [range.from, range.to, projectId]);
  const matches = (p: ResourcePlan | undefined): p is ResourcePlan =>
    !!p && p.from === range.from && p.to === range.to && (p.projectId ?? undefined) === (projectId ?? undefined);
  const fetched = loader.data?.kind === 'plan' ? loader.data.plan : undefined;
  const current = matches(fetched) ? fetched : matches(initialPlan) ? initialPlan : undefined;
  const [lastShown, setLastShown] = useState<ResourcePlan | undefined>(current);
  if (current && current !== lastShown) setLastShown(current);
  const plan = current ?? lastShown;
  const loading = !current;
  useEffect(() => {
    if (!matches(initialPlan) && !matches(fetched)) void loader.load(query);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- load when the view asks for other data
  }, [query, initialPlan]);

  // changes: optimistic spans until the next calendar arrives
  const saver = useFetcher<PlannerActionResult>();
  const [optimistic, setOptimistic] = useState<Map<string, DaySpan>>(new Map());
  useEffect(() => setOptimistic(new Map()), [plan]);
  const [draft, setDraft] = useState<PlanDraft | null>(null);
  const [deleting, setDeleting] = useState<ResourceRow | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  useFetcherResult(saver, (result) => {
    if ('ok' in result) {
      setDraft(null);
      setDeleting(null);
      setFields({});
      toast.show({
        kind: 'success',
        message: tc(result.intent === 'delete' ? 'SUCCESSFULLY_DELETED' : 'SUCCESSFULLY_SAVED'),
      });
      // the page's loader runs again by itself; a calendar we read ourselves is read again
      if (!matches(initialPlan)) void loader.load(query);
    } else {
      setOptimistic(new Map());
      setFields(result.fields ?? {});
      if (result.code !== 'VALIDATION_FAILED' || !draft) toast.show({ kind: 'error', message: tc(result.code) });
    }
  });
  const busy = saver.state !== 'idle';

  const submit = (values: Record<string, string>) => void saver.submit(values, { method: 'post', action: RESOURCES });
  const moveTo = (row: ResourceRow, span: DaySpan) => {
    if (span.startDate === row.startDate && span.endDate === row.endDate) return;
    setOptimistic((m) => new Map(m).set(row.id, span));
    submit({ intent: 'move', id: row.id, startDate: span.startDate, endDate: span.endDate });
  };
  const remove = (row: ResourceRow) => submit({ intent: 'delete', id: row.id });

  const editable = (row: ResourceRow) => canEdit && row.projectStatus === 'ongoing';
  const spanOf = (row: ResourceRow): DaySpan => optimistic.get(row.id) ?? row;

  // the rows: people, then suppliers; each with its clashes
  const owners = useMemo(() => {
    if (!plan) return { people: [] as Owner[], suppliers: [] as Owner[] };
    const byUser = new Map<string, PlanConflict[]>();
    for (const c of plan.conflicts) byUser.set(c.userId, [...(byUser.get(c.userId) ?? []), c]);
    return {
      people: plan.people.map<Owner>((p) => ({
        key: `u-${p.userId}`,
        kind: 'user',
        id: p.userId,
        name: p.name,
        rows: p.rows,
        conflicts: byUser.get(p.userId) ?? [],
      })),
      suppliers: plan.suppliers.map<Owner>((s) => ({
        key: `s-${s.supplierId}`,
        kind: 'supplier',
        id: s.supplierId,
        name: s.name,
        rows: s.rows,
        conflicts: [],
      })),
    };
  }, [plan]);

  const weeks = plan?.weeks ?? [];
  const totalDays = plan ? daysBetween(plan.from, plan.to) + 1 : 1;
  const todayIndex = plan ? weeks.findIndex((w) => w.start <= plan.today && plan.today <= addDays(w.start, 6)) : -1;
  const template = `minmax(7rem, 11rem) repeat(${Math.max(1, weeks.length)}, minmax(3rem, 1fr))`;

  // opens scrolled to this week (past the sticky names, a week of context before it)
  const scroller = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const box = scroller.current;
    const head = box?.querySelector<HTMLElement>('[data-today="true"]');
    const first = box?.querySelector<HTMLElement>('[data-names]');
    if (!box || !head || !first) return;
    box.scrollLeft = Math.max(0, head.offsetLeft - first.offsetWidth - head.offsetWidth);
  }, [todayIndex, plan?.from]);

  const locale = t('calendar:locale');
  const monthDay = (date: string) =>
    dateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));
  const fullDate = (date: string) => formatDate(date, clock.dateFormat);
  const periodTitle = useMemo(() => {
    const month = (date: string, style: 'long' | 'short') =>
      dateTimeFormat(locale, { month: style, year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));
    if (step === 1) return month(anchor, 'long');
    return `${month(anchor, 'short')} – ${month(shiftAnchor(anchor, (step - 1) as PlanningStep, 1), 'short')}`;
  }, [anchor, step, locale]);

  const projectLabel = (r: { projectNumber: number; projectTitle: string }) =>
    t('planning.projectLabel', { number: r.projectNumber, title: r.projectTitle });
  const barLabel = (row: ResourceRow, owner: Owner) => {
    const span = spanOf(row);
    return [
      projectLabel(row),
      t('planning.barDates', { start: fullDate(span.startDate), end: fullDate(span.endDate) }),
      row.hoursPerDay != null ? t('planning.hoursPerDayShort', { hours: hoursText(row.hoursPerDay) }) : null,
      owner.name,
      row.comment,
      row.projectStatus === 'closed' ? t('planning.closed') : null,
    ]
      .filter(Boolean)
      .join(', ');
  };
  const conflictText = (c: PlanConflict) => {
    const dates = c.dates.map(fullDate).join(', ');
    const projects = c.projects.map((p) => projectLabel({ projectNumber: p.number, projectTitle: p.title })).join(', ');
    return c.kind === 'overlap'
      ? t('planning.conflict.overlap', { week: c.week, dates, projects })
      : t('planning.conflict.workOrder', {
          week: c.week,
          dates,
          projects,
          orders: c.workOrders.map((w) => `${w.number} ${w.title} (${fullDate(w.date)})`).join('; '),
        });
  };

  // ---- dragging a bar (pointer) ----
  const drag = useRef<Drag | null>(null);
  const dragged = useRef(false);
  const [preview, setPreview] = useState<{ id: string; span: DaySpan } | null>(null);
  const startDrag = (e: PointerEvent<HTMLElement>, row: ResourceRow, mode: Drag['mode']) => {
    // a new press is a new gesture: an earlier drag no longer swallows its click
    dragged.current = false;
    if (!editable(row) || busy || e.button !== 0) return;
    const lane = e.currentTarget.closest<HTMLElement>('[data-lane]');
    if (!lane) return;
    if (mode === 'resize') e.stopPropagation();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { row, mode, x0: e.clientX, dayWidth: lane.getBoundingClientRect().width / totalDays, moved: false };
    dragged.current = false;
  };
  const dragMove = (e: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.x0;
    if (!d.moved && Math.abs(dx) < DRAG_SLOP) return;
    d.moved = true;
    const weeks = weeksMoved(dx, d.dayWidth);
    const base = spanOf(d.row);
    const span = d.mode === 'move' ? moveSpan(base, weeks) : resizeSpan(base, weeks);
    setPreview((p) =>
      p?.id === d.row.id && p.span.startDate === span.startDate && p.span.endDate === span.endDate
        ? p
        : { id: d.row.id, span },
    );
  };
  const endDrag = () => {
    const d = drag.current;
    drag.current = null;
    if (!d) return;
    dragged.current = d.moved;
    const p = preview;
    setPreview(null);
    if (d.moved && p && p.id === d.row.id) moveTo(d.row, p.span);
  };
  const cancelDrag = () => {
    drag.current = null;
    setPreview(null);
  };

  function onBarKey(e: KeyboardEvent, row: ResourceRow) {
    if (busy || !editable(row)) return;
    const dir = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (dir) {
      e.preventDefault();
      const base = spanOf(row);
      moveTo(row, e.shiftKey ? resizeSpan(base, dir) : moveSpan(base, dir));
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      setDeleting(row);
    }
  }

  // ---- the dialog ----
  const openNew = (owner?: Owner, weekStart?: string) => {
    setFields({});
    const start = weekStart ?? (plan && plan.today >= plan.from && plan.today <= plan.to ? plan.today : range.from);
    setDraft({
      id: null,
      projectId: projectId ?? '',
      ownerKind: owner?.kind ?? 'user',
      userId: owner?.kind === 'user' ? owner.id : '',
      supplierId: owner?.kind === 'supplier' ? owner.id : '',
      startDate: start,
      endDate: addDays(start, 4),
      hoursPerDay: '',
      comment: '',
    });
  };
  const openEdit = (row: ResourceRow) => {
    setFields({});
    const span = spanOf(row);
    setDraft({
      id: row.id,
      projectId: row.projectId,
      ownerKind: row.userId ? 'user' : 'supplier',
      userId: row.userId ?? '',
      supplierId: row.supplierId ?? '',
      startDate: span.startDate,
      endDate: span.endDate,
      hoursPerDay: row.hoursPerDay == null ? '' : hoursText(row.hoursPerDay),
      comment: row.comment ?? '',
      locked: !editable(row),
      projectLabel: projectLabel(row),
      ownerName: [...owners.people, ...owners.suppliers].find((o) => o.rows.some((r) => r.id === row.id))?.name,
    });
  };
  const saveDraft = (d: PlanDraft) =>
    submit({
      intent: d.id ? 'move' : 'plan',
      id: d.id ?? '',
      projectId: d.projectId,
      userId: d.ownerKind === 'user' ? d.userId : '',
      supplierId: d.ownerKind === 'supplier' ? d.supplierId : '',
      startDate: d.startDate,
      endDate: d.endDate,
      hoursPerDay: d.hoursPerDay,
      comment: d.comment,
    });
  const draftRow = draft?.id
    ? [...owners.people, ...owners.suppliers].flatMap((o) => o.rows).find((r) => r.id === draft.id)
    : null;

  // ---- drawing ----
  function lane(owner: Owner) {
    const spans = owner.rows.map((r) => ({ id: r.id, ...(preview?.id === r.id ? preview.span : spanOf(r)) }));
    const { lanes, count } = spanLanes(spans);
    const top = owner.conflicts.length ? MARKER_REM : 0;
    const conflictWeeks = new Map<string, PlanConflict[]>();
    for (const c of owner.conflicts) conflictWeeks.set(c.weekStart, [...(conflictWeeks.get(c.weekStart) ?? []), c]);
    return (
      <div
        data-lane
        className="relative"
        style={{ gridColumn: '2 / -1', gridRow: 1, minHeight: `${top + count * LANE_REM + 0.5}rem` }}
        onClick={(e) => {
          // a click on the empty lane plans this person from that week (the + button does it by keyboard)
          if (!canEdit || busy || e.target !== e.currentTarget || !plan) return;
          const box = e.currentTarget.getBoundingClientRect();
          const index = Math.floor(((e.clientX - box.left) / box.width) * weeks.length);
          openNew(owner, weeks[Math.min(Math.max(index, 0), weeks.length - 1)]?.start);
        }}
      >
        {[...conflictWeeks.entries()].map(([weekStart, list]) => {
          const index = weeks.findIndex((w) => w.start === weekStart);
          if (index < 0) return null;
          const text = list.map(conflictText).join(' ');
          return (
            <span
              key={weekStart}
              title={text}
              data-testid={`conflict-${owner.id}-${weekStart}`}
              className="absolute top-0 z-[2] inline-flex h-5 items-center rounded bg-amber-100 px-0.5 text-amber-900 ring-1 ring-amber-500"
              style={{ left: `calc(${(index / weeks.length) * 100}% + 2px)` }}
            >
              <WarningIcon />
              <span className="sr-only">{text}</span>
            </span>
          );
        })}
        {owner.rows.map((row) => {
          const shown = preview?.id === row.id ? preview.span : spanOf(row);
          const place = plan ? spanPlacement(shown, plan.from, plan.to) : null;
          if (!place) return null;
          const label = barLabel(row, owner);
          const can = editable(row);
          return (
            <button
              key={row.id}
              type="button"
              data-resource-id={row.id}
              data-testid="resource-bar"
              aria-label={label}
              aria-describedby={can ? helpId : undefined}
              title={label}
              onPointerDown={(e) => startDrag(e, row, 'move')}
              onPointerMove={dragMove}
              onPointerUp={endDrag}
              onPointerCancel={cancelDrag}
              onClick={() => {
                if (dragged.current) {
                  dragged.current = false;
                  return;
                }
                openEdit(row);
              }}
              onKeyDown={(e) => onBarKey(e, row)}
              className={cx(
                'absolute flex h-7 items-center overflow-hidden rounded px-1.5 text-left text-xs leading-tight whitespace-nowrap ring-1 focus-visible:z-[3] focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-600',
                row.projectStatus === 'closed' ? 'bg-slate-200 text-slate-800 ring-slate-400' : colourOf(row.projectId),
                place.clippedStart && 'rounded-l-none',
                place.clippedEnd && 'rounded-r-none',
                can ? 'cursor-grab touch-pan-y active:cursor-grabbing' : 'cursor-pointer',
                preview?.id === row.id && 'z-[3] shadow-lg',
                optimistic.has(row.id) && 'opacity-70',
              )}
              style={{
                left: `${place.left * 100}%`,
                width: `max(${place.width * 100}%, 0.75rem)`,
                top: `${top + (lanes.get(row.id) ?? 0) * LANE_REM + 0.25}rem`,
              }}
            >
              <span className="truncate font-medium">{projectLabel(row)}</span>
              {can ? (
                <span
                  aria-hidden="true"
                  data-testid="resource-resize"
                  onPointerDown={(e) => startDrag(e, row, 'resize')}
                  onPointerMove={dragMove}
                  onPointerUp={endDrag}
                  onPointerCancel={cancelDrag}
                  className="absolute top-0 right-0 h-full w-2.5 cursor-ew-resize touch-none bg-black/10 hover:bg-black/25"
                />
              ) : null}
            </button>
          );
        })}
      </div>
    );
  }

  function rows(list: Owner[]) {
    return list.map((owner) => (
      <li
        key={owner.key}
        className="relative grid border-b border-slate-100"
        style={{ gridTemplateColumns: template }}
        data-testid={`planner-row-${owner.id}`}
      >
        {/* the week lines and this week, behind the bars */}
        {weeks.map((w, i) => (
          <div
            key={w.start}
            aria-hidden="true"
            className={cx('border-l border-slate-100', i === todayIndex && 'bg-blue-50')}
            style={{ gridColumn: i + 2, gridRow: 1 }}
          />
        ))}
        <div
          className="sticky left-0 z-[4] flex min-w-0 items-start justify-between gap-1 bg-white p-1.5 text-sm"
          style={{ gridColumn: 1, gridRow: 1 }}
        >
          <span className="min-w-0 truncate font-medium" title={owner.name}>
            {owner.name}
            {owner.conflicts.length ? (
              <span className="sr-only">
                {', '}
                {t('planning.conflictCount', { count: owner.conflicts.length })}
              </span>
            ) : null}
          </span>
          {canEdit ? (
            <button
              type="button"
              onClick={() => openNew(owner)}
              aria-label={t('planning.planFor', { name: owner.name })}
              title={t('planning.planFor', { name: owner.name })}
              className="inline-flex h-6 w-6 shrink-0 items-center justify-center rounded text-brand-700 ring-1 ring-slate-300 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600"
            >
              <span aria-hidden="true">+</span>
            </button>
          ) : null}
        </div>
        {lane(owner)}
      </li>
    ));
  }

  const allConflicts = plan?.conflicts ?? [];
  const personName = new Map(owners.people.map((p) => [p.id, p.name]));

  return (
    <section aria-labelledby={headingId} className="min-w-0 space-y-3" data-testid="resource-planner">
      <div className="flex flex-wrap items-center gap-2">
        <div className="flex items-center gap-1">
          <Button
            variant="secondary"
            size="sm"
            onPress={() => changeView({ date: shiftAnchor(anchor, step, -1) })}
            aria-label={t('planning.previous')}
          >
            ‹
          </Button>
          <Button variant="secondary" size="sm" onPress={() => changeView({ date: plan?.today ?? localToday() })}>
            {t('planning.today')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onPress={() => changeView({ date: shiftAnchor(anchor, step, 1) })}
            aria-label={t('planning.next')}
          >
            ›
          </Button>
        </div>
        <h2 id={headingId} className="min-w-40 text-lg font-semibold first-letter:uppercase" aria-live="polite">
          {periodTitle}
        </h2>
        <div role="group" aria-label={t('planning.step')} className="flex rounded-lg ring-1 ring-slate-300">
          {PLANNING_STEPS.map((s) => (
            <button
              key={s}
              type="button"
              aria-pressed={step === s}
              onClick={() => changeView({ step: s })}
              className={cx(
                'min-h-9 px-3 py-1.5 text-sm first:rounded-l-lg last:rounded-r-lg focus-visible:outline-2 focus-visible:outline-blue-600',
                step === s ? 'bg-slate-800 text-white' : 'text-slate-700 hover:bg-slate-100',
              )}
            >
              {t('planning.months', { count: s })}
            </button>
          ))}
        </div>
        {loading ? <Spinner label={t('planning.loading')} /> : null}
        {canEdit ? (
          <Button variant="primary" size="sm" className="ml-auto" onPress={() => openNew()} isDisabled={!plan}>
            {t('planning.plan')}
          </Button>
        ) : null}
      </div>
      <p id={helpId} className="sr-only">
        {t('planning.help')}
      </p>

      {!plan ? (
        <div className="rounded-xl bg-white p-6 text-sm text-slate-600 ring-1 ring-slate-200">
          {t('planning.loading')}
        </div>
      ) : (
        <div
          ref={scroller}
          tabIndex={0}
          role="region"
          aria-label={t('planning.calendarLabel', { period: periodTitle })}
          aria-busy={loading || busy || undefined}
          className={cx(
            'overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-blue-600',
            loading && 'opacity-60',
          )}
        >
          <div className="min-w-max">
            {/* the weeks: what the bars' positions mean; each bar says its own dates */}
            <div
              aria-hidden="true"
              className="sticky top-0 z-[5] grid border-b border-slate-200 bg-slate-50"
              style={{ gridTemplateColumns: template }}
            >
              <div data-names className="sticky left-0 z-[6] bg-slate-50 p-1.5 text-xs font-medium text-slate-600">
                {owners.people.length || !owners.suppliers.length ? t('planning.person') : t('planning.supplier')}
              </div>
              {weeks.map((w, i) => (
                <div
                  key={w.start}
                  data-today={i === todayIndex ? 'true' : undefined}
                  data-testid="planner-week"
                  className={cx(
                    'border-l border-slate-200 px-1 py-1 text-center text-xs',
                    i === todayIndex ? 'bg-blue-700 font-semibold text-white' : 'text-slate-700',
                  )}
                >
                  <span className="block whitespace-nowrap">{t('planning.weekShort', { week: w.week })}</span>
                  <span
                    className={cx(
                      'block text-[10px] whitespace-nowrap',
                      i === todayIndex ? 'text-blue-50' : 'text-slate-600',
                    )}
                  >
                    {monthDay(w.start)}
                  </span>
                </div>
              ))}
            </div>
            {owners.people.length ? (
              <ul aria-label={t('planning.people')}>{rows(owners.people)}</ul>
            ) : projectId ? (
              <p className="p-3 text-sm text-slate-600">{t('planning.emptyProject')}</p>
            ) : (
              <p className="p-3 text-sm text-slate-600">{t('planning.emptyPeople')}</p>
            )}
            {owners.suppliers.length ? (
              <>
                <h3 className="sticky left-0 w-max bg-white px-1.5 pt-3 pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                  {t('planning.suppliers')}
                </h3>
                <ul aria-label={t('planning.suppliers')}>{rows(owners.suppliers)}</ul>
              </>
            ) : null}
          </div>
        </div>
      )}

      {allConflicts.length ? (
        <section
          aria-labelledby={`${headingId}-conflicts`}
          className="rounded-xl bg-amber-50 p-3 ring-1 ring-amber-300"
        >
          <h3 id={`${headingId}-conflicts`} className="flex items-center gap-1 text-sm font-semibold text-amber-950">
            <WarningIcon />
            {t('planning.conflicts', { count: allConflicts.length })}
          </h3>
          <ul className="mt-1 space-y-1 text-sm text-amber-950" data-testid="planner-conflicts">
            {allConflicts.map((c) => (
              <li key={`${c.userId}|${c.weekStart}|${c.kind}`}>
                <span className="font-medium">{personName.get(c.userId) ?? ''}</span>: {conflictText(c)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <ResourcePlanDialog
        draft={draft}
        onChange={setDraft}
        onClose={() => setDraft(null)}
        onSave={saveDraft}
        onDelete={() => draftRow && setDeleting(draftRow)}
        busy={busy}
        fields={fields}
        projectId={projectId}
      />
      <ConfirmDialog
        title={t('planning.deleteTitle')}
        message={deleting ? t('planning.deleteMessage', { label: projectLabel(deleting) }) : undefined}
        variant="danger"
        confirmLabel={t('planning.delete')}
        isOpen={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        isPending={busy}
        onConfirm={() => {
          if (deleting) remove(deleting);
        }}
      />
    </section>
  );
}
