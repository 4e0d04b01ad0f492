import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from '~/app/components/ui/class-names';
import { addDays, formatPlainDate, isoDayOfWeek, parsePlainDate } from '~/core/calendar/dates';
import {
  columnIndex,
  DAY_FIRST_HOUR,
  DAY_LAST_HOUR,
  formatClock,
  RESIZE_STEP_MINUTES,
  type CalendarColumn,
  type CalendarView,
} from '~/core/work-orders/calendar-rules';
import type { Board, BoardItem } from '~/core/work-orders/schedule.service';
import { columnLabel } from './labels';

export type PlanChange =
  | { kind: 'plan'; workOrderId: string; userId: string; date: string; startTime?: string }
  | { kind: 'move'; item: BoardItem; userId?: string; date?: string; startTime?: string; endTime?: string }
  | { kind: 'edit'; item: BoardItem }
  | { kind: 'remove'; item: BoardItem };

interface Row {
  key: string;
  label: string;
  userId: string | null;
}

/** The project perspective's row of plans on orders of no project. */
const NO_PROJECT = 'no-project';
const PLAN_TYPE = 'application/x-ordo-plan';
const ORDER_TYPE = 'application/x-ordo-order';
const DAY_MINUTES = (DAY_LAST_HOUR - DAY_FIRST_HOUR) * 60;
/** How many plans a week column shows before "+N". */
const WEEK_CELL_MAX = 3;

/** The day a plan dropped on a column lands on (a week column keeps the plan's weekday). */
function dropDate(col: CalendarColumn, item?: BoardItem): string {
  if (col.kind === 'day') return col.key;
  if (col.kind === 'hour') return formatPlainDate(col.date);
  const weekday = item ? isoDayOfWeek(parsePlainDate(item.date)!) : 1;
  return formatPlainDate(addDays(col.from, weekday - 1));
}

/**
 * The board itself: a row per technician (or project), a column per hour, day or week, the plans
 * in their cells. Plans and unscheduled orders are dragged onto a cell; in the day view a plan's
 * right edge stretches it. Every mouse action has a keyboard one: arrows move a focused plan a
 * column or a person, Shift+arrows change its length, Enter opens its dialog, Delete removes it.
 */
export function BoardGrid({
  view,
  columns,
  board,
  busy,
  onChange,
  onOpen,
}: {
  view: CalendarView;
  columns: CalendarColumn[];
  board: Board;
  busy: boolean;
  onChange: (change: PlanChange) => void;
  onOpen: (item: BoardItem) => void;
}) {
  const { t } = useTranslation('calendar');
  const technician = view.perspective === 'technician';
  const canPlan = board.canPlan && technician;
  const dayView = columns[0]?.kind === 'hour';
  const userName = useMemo(() => new Map(board.users.map((u) => [u.id, u.name])), [board.users]);

  const rows: Row[] = useMemo(() => {
    if (technician) return board.users.map((u) => ({ key: u.id, label: u.name, userId: u.id }));
    // a row per project the period's plans belong to, by number ("1001 · Title"), then the plans of none
    const used = new Set(board.items.map((i) => i.projectId ?? NO_PROJECT));
    const rows: Row[] = (board.projects ?? [])
      .filter((p) => used.has(p.id))
      .map((p) => ({ key: p.id, label: t('project.row', { number: p.number, title: p.title }), userId: null }));
    // a plan whose project the board was not told about still gets a row
    for (const id of used)
      if (id !== NO_PROJECT && !rows.some((r) => r.key === id))
        rows.push({ key: id, label: t('project.unknown'), userId: null });
    if (used.has(NO_PROJECT)) rows.push({ key: NO_PROJECT, label: t('project.none'), userId: null });
    return rows;
  }, [technician, board.users, board.items, board.projects, t]);

  /** rowKey → column index → plans */
  const cells = useMemo(() => {
    const m = new Map<string, Map<number, BoardItem[]>>();
    for (const item of board.items) {
      const rowKey = technician ? item.userId : (item.projectId ?? NO_PROJECT);
      const col = columnIndex(columns, item.date, item.startMinutes);
      if (col < 0) continue;
      const row = m.get(rowKey) ?? new Map<number, BoardItem[]>();
      row.set(col, [...(row.get(col) ?? []), item]);
      m.set(rowKey, row);
    }
    return m;
  }, [board.items, columns, technician]);

  const holidays = useMemo(() => new Map(board.holidays.map((h) => [h.date, h.name])), [board.holidays]);
  const holidayOf = (c: CalendarColumn): string | undefined => {
    if (c.kind === 'week') {
      for (let i = 0; i < 7; i++) {
        const name = holidays.get(formatPlainDate(addDays(c.from, i)));
        if (name) return name;
      }
      return undefined;
    }
    return holidays.get(c.kind === 'day' ? c.key : formatPlainDate(c.date));
  };

  // Today: the column holding it is marked (aria-current="date") and scrolled into view when the
  // board opens or its period changes.
  const isToday = (c: CalendarColumn): boolean =>
    c.kind === 'day'
      ? c.key === board.today
      : c.kind === 'week'
        ? formatPlainDate(c.from) <= board.today && board.today < formatPlainDate(c.to)
        : formatPlainDate(c.date) === board.today;
  const todayIndex = dayView ? -1 : columns.findIndex(isToday);
  const scroller = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const box = scroller.current;
    const head = box?.querySelector<HTMLElement>('[role="columnheader"][aria-current="date"]');
    const first = box?.querySelector<HTMLElement>('[role="columnheader"]');
    if (!box || !head || !first) return;
    // past the sticky first column, with a day of context before today where there is room
    const left = head.offsetLeft - first.offsetWidth - head.offsetWidth;
    box.scrollLeft = Math.max(0, left);
  }, [todayIndex, columns.length, board.from]);

  // keep the keyboard on a plan after it moved (its element is new)
  const [focusId, setFocusId] = useState<string | null>(null);
  useLayoutEffect(() => {
    if (!focusId) return;
    const el = document.querySelector<HTMLElement>(`[data-plan-id="${focusId}"]`);
    if (el && document.activeElement !== el) el.focus();
  }, [board, focusId]);

  const [over, setOver] = useState<string | null>(null);
  const colMinRem = dayView ? 3.5 : columns[0]?.kind === 'week' ? 3.25 : columns.length > 7 ? 4.5 : 6.5;
  const colWidth = `minmax(${colMinRem}rem, 1fr)`;
  // A row is as wide as its columns, not only as the scroller (issue 28 item 18): a sticky cell
  // stays inside its row's box, so in a month wider than the screen the technician column would
  // otherwise scroll away with the row's box once the board scrolled past the screen's width.
  const rowMinWidth = `${8 + columns.length * colMinRem}rem`;
  const template = `minmax(8rem, 11rem) repeat(${columns.length}, ${colWidth})`;

  function onDrop(e: React.DragEvent, row: Row, col: CalendarColumn) {
    e.preventDefault();
    setOver(null);
    if (!canPlan || busy || !row.userId) return;
    const planId = e.dataTransfer.getData(PLAN_TYPE);
    const orderId = e.dataTransfer.getData(ORDER_TYPE);
    if (planId) {
      const item = board.items.find((i) => i.id === planId);
      if (!item) return;
      const date = dropDate(col, item);
      const startTime = col.kind === 'hour' ? formatClock(col.hour * 60 + (item.startMinutes % 60)) : undefined;
      if (date === item.date && row.userId === item.userId && (!startTime || startTime === item.startTime)) return;
      setFocusId(item.id);
      onChange({ kind: 'move', item, userId: row.userId !== item.userId ? row.userId : undefined, date, startTime });
    } else if (orderId) {
      onChange({
        kind: 'plan',
        workOrderId: orderId,
        userId: row.userId,
        date: dropDate(col),
        startTime: col.kind === 'hour' ? formatClock(col.hour * 60) : undefined,
      });
    }
  }

  function onKey(e: KeyboardEvent, item: BoardItem) {
    if (busy) return;
    const step = dayView ? 0 : columns[0]?.kind === 'week' ? 7 : 1;
    const key = e.key;
    const move = (c: Omit<Extract<PlanChange, { kind: 'move' }>, 'kind' | 'item'>) => {
      e.preventDefault();
      setFocusId(item.id);
      onChange({ kind: 'move', item, ...c });
    };
    if (key === 'Enter' || key === ' ') {
      e.preventDefault();
      onChange({ kind: 'edit', item });
    } else if (key === 'Delete' || key === 'Backspace') {
      e.preventDefault();
      onChange({ kind: 'remove', item });
    } else if (!canPlan) {
      return;
    } else if ((key === 'ArrowRight' || key === 'ArrowLeft') && e.shiftKey) {
      const delta = key === 'ArrowRight' ? RESIZE_STEP_MINUTES : -RESIZE_STEP_MINUTES;
      const duration = item.durationMinutes + delta;
      if (duration < RESIZE_STEP_MINUTES || duration > 24 * 60 - RESIZE_STEP_MINUTES) return;
      move({ endTime: formatClock(item.startMinutes + duration) });
    } else if (key === 'ArrowRight' || key === 'ArrowLeft') {
      const dir = key === 'ArrowRight' ? 1 : -1;
      if (step) move({ date: addDays(item.date, dir * step) });
      else {
        const start = item.startMinutes + dir * 60;
        if (start < 0 || start >= 24 * 60) return;
        move({ startTime: formatClock(start) });
      }
    } else if (key === 'ArrowUp' || key === 'ArrowDown') {
      const index = board.users.findIndex((u) => u.id === item.userId);
      const next = board.users[index + (key === 'ArrowDown' ? 1 : -1)];
      if (next) move({ userId: next.id });
    }
  }

  if (!rows.length)
    return (
      <div className="rounded-xl bg-white p-6 text-sm text-slate-600 shadow-sm ring-1 ring-slate-200">
        {technician ? t('empty.technicians') : t('empty.projects')}
      </div>
    );

  return (
    <div className="min-w-0 rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      <p id="board-help" className="sr-only">
        {t('help.keyboard')}
      </p>
      <div
        ref={scroller}
        // a wide board scrolls sideways: reachable by keyboard too
        tabIndex={0}
        className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-blue-600"
        role="table"
        // while a change is saved the board takes no keys: say so
        aria-busy={busy || undefined}
        aria-label={t('board.label')}
        aria-describedby="board-help"
      >
        <div role="rowgroup" className="sticky top-0 z-10 bg-slate-50">
          <div
            role="row"
            className="grid border-b border-slate-200"
            style={{ gridTemplateColumns: template, minWidth: rowMinWidth }}
          >
            <div role="columnheader" className="sticky left-0 z-[1] bg-slate-50 p-2 text-xs font-medium text-slate-500">
              {technician ? t('column.technician') : t('column.project')}
            </div>
            {columns.map((c, i) => {
              const label = columnLabel(t, c);
              const holiday = holidayOf(c);
              const weekend = c.kind === 'day' && c.weekday >= 6;
              const today = i === todayIndex;
              const named = holiday ? `${label.long}, ${holiday}` : label.long;
              return (
                <div
                  key={c.key}
                  role="columnheader"
                  aria-current={today ? 'date' : undefined}
                  aria-label={today ? `${named}, ${t('today')}` : named}
                  title={holiday ?? label.long}
                  className={cx(
                    'border-l border-slate-200 p-1 text-center text-xs',
                    today
                      ? 'bg-blue-700 font-semibold text-white'
                      : holiday
                        ? 'bg-rose-50 text-rose-800'
                        : weekend
                          ? 'text-slate-600'
                          : 'text-slate-700',
                  )}
                >
                  <span className="block whitespace-nowrap">{label.short}</span>
                  {c.kind === 'day' && (c.weekday === 1 || columns.length <= 7) ? (
                    <span className={cx('block text-[10px]', today ? 'text-blue-50' : 'text-slate-600')}>
                      {t('column.week', { week: c.week })}
                    </span>
                  ) : null}
                  {holiday ? <span className="block truncate text-[10px]">{holiday}</span> : null}
                </div>
              );
            })}
          </div>
        </div>
        <div role="rowgroup">
          {rows.map((row) => {
            const rowCells = cells.get(row.key);
            const lanes = dayView ? layoutLanes([...(rowCells?.values() ?? [])].flat()) : null;
            const laneCount = lanes ? Math.max(1, ...[...lanes.values()].map((l) => l + 1)) : 1;
            return (
              <div
                key={row.key}
                role="row"
                className="relative grid border-b border-slate-100"
                style={{
                  gridTemplateColumns: template,
                  minWidth: rowMinWidth,
                  minHeight: dayView ? `${laneCount * 2 + 1}rem` : undefined,
                }}
                data-testid={`row-${row.key}`}
              >
                <div
                  role="rowheader"
                  className="sticky left-0 z-[1] truncate bg-white p-2 text-sm font-medium"
                  style={{ gridRow: 1 }}
                >
                  {row.label}
                </div>
                {columns.map((c, i) => {
                  const items = rowCells?.get(i) ?? [];
                  const cellKey = `${row.key}|${c.key}`;
                  const holiday = holidayOf(c);
                  return (
                    <div
                      key={c.key}
                      role="cell"
                      aria-label={`${row.label}, ${columnLabel(t, c).long}`}
                      data-testid={`cell-${row.key}-${c.key}`}
                      onDragOver={(e) => {
                        if (!canPlan) return;
                        e.preventDefault();
                        e.dataTransfer.dropEffect = 'move';
                        if (over !== cellKey) setOver(cellKey);
                      }}
                      onDragLeave={() => setOver((o) => (o === cellKey ? null : o))}
                      onDrop={(e) => onDrop(e, row, c)}
                      style={{ gridRow: 1, gridColumn: i + 2 }}
                      className={cx(
                        'min-h-12 space-y-1 border-l border-slate-100 p-1',
                        i === todayIndex && 'bg-blue-50/70',
                        holiday && 'bg-rose-50/60',
                        c.kind === 'day' && c.weekday >= 6 && !holiday && 'bg-slate-50',
                        over === cellKey && 'bg-blue-50 ring-2 ring-blue-400 ring-inset',
                      )}
                    >
                      {dayView
                        ? null
                        : (c.kind === 'week' ? items.slice(0, WEEK_CELL_MAX) : items).map((item) => (
                            <Chip
                              key={item.id}
                              item={item}
                              compact={c.kind === 'week' || columns.length > 7}
                              userName={userName.get(item.userId) ?? ''}
                              canPlan={canPlan}
                              onKey={onKey}
                              onChange={onChange}
                              onOpen={onOpen}
                            />
                          ))}
                      {c.kind === 'week' && items.length > WEEK_CELL_MAX ? (
                        <span className="block text-[10px] text-slate-500">
                          {t('more', { count: items.length - WEEK_CELL_MAX })}
                        </span>
                      ) : null}
                    </div>
                  );
                })}
                {dayView && rowCells ? (
                  <DayLane
                    items={[...rowCells.values()].flat()}
                    lanes={lanes!}
                    canPlan={canPlan}
                    busy={busy}
                    userName={userName}
                    onKey={onKey}
                    onChange={(c) => {
                      if (c.kind === 'move') setFocusId(c.item.id);
                      onChange(c);
                    }}
                    onOpen={onOpen}
                  />
                ) : null}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** Greedy lanes so overlapping plans of one person sit one above the other in the day view. */
function layoutLanes(items: BoardItem[]): Map<string, number> {
  const lanes = new Map<string, number>();
  const ends: number[] = [];
  for (const it of [...items].sort((a, b) => a.startMinutes - b.startMinutes)) {
    let lane = ends.findIndex((end) => end <= it.startMinutes);
    if (lane < 0) lane = ends.length;
    ends[lane] = it.startMinutes + it.durationMinutes;
    lanes.set(it.id, lane);
  }
  return lanes;
}

/** The day view's plans, placed by their hours over the row's hour cells; the right edge resizes. */
function DayLane({
  items,
  lanes,
  canPlan,
  busy,
  userName,
  onKey,
  onChange,
  onOpen,
}: {
  items: BoardItem[];
  lanes: Map<string, number>;
  canPlan: boolean;
  busy: boolean;
  userName: Map<string, string>;
  onKey: (e: KeyboardEvent, item: BoardItem) => void;
  onChange: (c: PlanChange) => void;
  onOpen: (item: BoardItem) => void;
}) {
  const { t } = useTranslation('calendar');
  const lane = useRef<HTMLDivElement>(null);
  const [stretch, setStretch] = useState<{ id: string; minutes: number } | null>(null);
  const drag = useRef<{ item: BoardItem; x: number; perMinute: number } | null>(null);

  const start = (e: PointerEvent, item: BoardItem) => {
    if (!canPlan || busy || !lane.current) return;
    e.preventDefault();
    e.stopPropagation();
    (e.target as HTMLElement).setPointerCapture(e.pointerId);
    drag.current = { item, x: e.clientX, perMinute: lane.current.getBoundingClientRect().width / DAY_MINUTES };
    setStretch({ id: item.id, minutes: item.durationMinutes });
  };
  const moveTo = (e: PointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const raw = d.item.durationMinutes + (e.clientX - d.x) / d.perMinute;
    const minutes = Math.max(RESIZE_STEP_MINUTES, Math.round(raw / RESIZE_STEP_MINUTES) * RESIZE_STEP_MINUTES);
    setStretch({ id: d.item.id, minutes });
  };
  const end = () => {
    const d = drag.current;
    drag.current = null;
    if (d && stretch && stretch.minutes !== d.item.durationMinutes)
      onChange({ kind: 'move', item: d.item, endTime: formatClock(d.item.startMinutes + stretch.minutes) });
    setStretch(null);
  };
  useEffect(() => () => void (drag.current = null), []);

  return (
    <div ref={lane} className="pointer-events-none relative" style={{ gridRow: 1, gridColumn: '2 / -1' }}>
      {items.map((item) => {
        const duration = stretch?.id === item.id ? stretch.minutes : item.durationMinutes;
        const from = Math.min(Math.max(item.startMinutes - DAY_FIRST_HOUR * 60, 0), DAY_MINUTES - 30);
        const width = Math.max(Math.min(duration, DAY_MINUTES - from), 30);
        return (
          <div
            key={item.id}
            className="pointer-events-auto absolute"
            style={{
              left: `${(from / DAY_MINUTES) * 100}%`,
              width: `${(width / DAY_MINUTES) * 100}%`,
              top: `${(lanes.get(item.id) ?? 0) * 2 + 0.25}rem`,
            }}
          >
            <Chip
              item={item}
              userName={userName.get(item.userId) ?? ''}
              canPlan={canPlan}
              onKey={onKey}
              onChange={onChange}
              onOpen={onOpen}
              fill
            />
            {canPlan ? (
              <span
                role="separator"
                aria-orientation="vertical"
                aria-label={t('resize', { number: item.number })}
                data-testid={`resize-${item.id}`}
                onPointerDown={(e) => start(e, item)}
                onPointerMove={moveTo}
                onPointerUp={end}
                onPointerCancel={() => {
                  drag.current = null;
                  setStretch(null);
                }}
                className="absolute top-0 right-0 h-full w-2 cursor-ew-resize rounded-r bg-blue-900/20 hover:bg-blue-900/40"
              />
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

function Chip({
  item,
  userName,
  compact = false,
  fill = false,
  canPlan,
  onKey,
  onChange,
  onOpen,
}: {
  item: BoardItem;
  userName: string;
  compact?: boolean;
  fill?: boolean;
  canPlan: boolean;
  onKey: (e: KeyboardEvent, item: BoardItem) => void;
  onChange: (c: PlanChange) => void;
  onOpen: (item: BoardItem) => void;
}) {
  const { t } = useTranslation('calendar');
  const label = t('plan.label', {
    number: item.number,
    title: item.title,
    customer: item.customerName ?? '',
    date: item.date,
    start: item.startTime,
    end: item.endTime,
    user: userName,
  });
  return (
    <div
      role="button"
      tabIndex={0}
      draggable={canPlan}
      data-plan-id={item.id}
      data-testid="plan"
      aria-label={label}
      aria-describedby="board-help"
      title={label}
      onDragStart={(e) => {
        e.dataTransfer.setData(PLAN_TYPE, item.id);
        e.dataTransfer.setData('text/plain', item.number);
        e.dataTransfer.effectAllowed = 'move';
      }}
      onClick={() => onChange({ kind: 'edit', item })}
      onDoubleClick={() => onOpen(item)}
      onKeyDown={(e) => onKey(e, item)}
      className={cx(
        'block cursor-pointer truncate rounded px-1.5 py-0.5 text-xs leading-5 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-600',
        item.isClosed
          ? 'bg-slate-200 text-slate-600 line-through'
          : item.priority === 'high'
            ? 'bg-red-100 text-red-900'
            : 'bg-blue-100 text-blue-900',
        canPlan && 'active:cursor-grabbing',
        fill && 'h-7 pr-3',
      )}
    >
      {compact ? (
        <>
          <span className="font-medium">{item.number}</span>
        </>
      ) : (
        <>
          <span className="tabular-nums">{item.startTime}</span> <span className="font-medium">{item.number}</span>{' '}
          <span>{item.title}</span>
        </>
      )}
    </div>
  );
}
