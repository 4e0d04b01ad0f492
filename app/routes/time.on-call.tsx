import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Link, useFetcher, useNavigation } from 'react-router';
import type { Route } from './+types/time.on-call';
import { tenantContext } from '~/app/context';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import {
  Button,
  ConfirmDialog,
  DatePicker,
  dateTimeValueOf,
  Dialog,
  formatDate,
  Select,
  TextField,
  useTenantClock,
  useToast,
  wallClockOf,
} from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import { TimeNav } from '~/app/components/time/time-nav';
import { tenantToday } from '~/core/calendar/tenant-today';
import { parsePlainDate, addDays, formatPlainDate } from '~/core/calendar/dates';
import { dateTimeFormat } from '~/core/i18n/intl-cache';
import { tenantTimeZone } from '~/core/i18n/number-format';
import { hasAccess } from '~/core/permissions/access';
import { monthWeeks, nextMonth, previousMonth, shiftDays } from '~/core/time-reports/on-call.rules';
import {
  ONCALL_ACCESS,
  createOnCallShift,
  deleteOnCallShift,
  listOnCallPeople,
  listOnCallShifts,
  onCallNow,
  updateOnCallShift,
  type OnCallShift,
} from '~/core/time-reports/on-call.service';
import { isoToWallClock } from '~/core/work-orders/time-rules';
import { pageTitle } from '~/app/lib/page-title';

/**
 * The on-call schedule (`/time/on-call`, the ONCALL app module; spec section 2): a month as ISO
 * weeks, Monday first, each day naming who is on call, coloured per person, company holidays
 * marked; on a phone a list of the month's days. With oncallreports:edit one adds a shift from the
 * button or a day, and changes or deletes it. Times are the company's zone.
 */
export const middleware = guard(ONCALL_ACCESS.read);

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const timeZone = tenantTimeZone(context.get(tenantContext).config?.country);
  const asked = new URL(request.url).searchParams.get('month') ?? '';
  const canEdit = hasAccess(auth, ONCALL_ACCESS.edit);
  return run(context, async (ctx) => {
    const today = tenantToday(ctx);
    const month = `${MONTH.test(asked) ? asked : today.slice(0, 7)}-01`;
    const weeks = monthWeeks(month);
    const list = await listOnCallShifts(ctx, { from: weeks[0]!.days[0], to: weeks.at(-1)!.days[6] });
    return {
      month,
      today,
      timeZone,
      weeks,
      shifts: list.shifts,
      holidays: list.holidays,
      now: await onCallNow(ctx),
      canEdit,
      people: canEdit ? await listOnCallPeople(ctx) : [],
    };
  });
}

type Result = { ok: true; intent: string } | ActionError;

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData()) as Record<string, string>;
  const shift = { userId: form.userId, startTs: form.startTs, endTs: form.endTs, comment: form.comment };
  try {
    return await run(context, async (ctx) => {
      if (form.intent === 'delete') await deleteOnCallShift(ctx, form.id);
      else if (form.id) await updateOnCallShift(ctx, { ...shift, id: form.id });
      else await createOnCallShift(ctx, shift);
      return data<Result>({ ok: true, intent: form.intent ?? 'save' });
    });
  } catch (e) {
    return actionError(e);
  }
}

/** A person's colour: the same on every day and every visit (from their id). */
const PALETTE = [
  'bg-sky-100 text-sky-900 ring-sky-300',
  'bg-amber-100 text-amber-900 ring-amber-300',
  'bg-emerald-100 text-emerald-900 ring-emerald-300',
  'bg-fuchsia-100 text-fuchsia-900 ring-fuchsia-300',
  'bg-orange-100 text-orange-900 ring-orange-300',
  'bg-teal-100 text-teal-900 ring-teal-300',
  'bg-violet-100 text-violet-900 ring-violet-300',
  'bg-lime-100 text-lime-900 ring-lime-300',
] as const;
function colourOf(userId: string): string {
  let h = 0;
  for (const c of userId) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length]!;
}

interface Draft {
  id: string | null;
  userId: string;
  startTs: string;
  endTs: string;
  comment: string;
}

/** A new shift's default times: the evening of the day to the next morning (the usual on-call night). */
const DEFAULT_START = '17:00';
const DEFAULT_END = '07:00';

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.onCall');

export default function OnCallPage({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation('oncall');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const clock = useTenantClock();
  const navigation = useNavigation();
  const fetcher = useFetcher<Result>();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState<OnCallShift | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  useFetcherResult(fetcher, (result) => {
    if ('ok' in result) {
      setDraft(null);
      setDeleting(null);
      toast.show({
        kind: 'success',
        message: tc(result.intent === 'delete' ? 'SUCCESSFULLY_DELETED' : 'SUCCESSFULLY_SAVED'),
      });
    } else {
      setFields(result.fields ?? {});
      if (result.code !== 'VALIDATION_FAILED' || !draft) toast.show({ kind: 'error', message: tc(result.code) });
    }
  });
  const busy = fetcher.state !== 'idle';
  const err = (k: string) => fields[k]?.map((c) => tc(c));

  const locale = t('locale');
  const monthDate = parsePlainDate(d.month)!;
  const monthTitle = dateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(monthDate.year, monthDate.month - 1, 15)),
  );
  const noon = (day: string) => new Date(`${day}T12:00:00Z`);
  const weekdayShort = (day: string) => dateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(noon(day));
  const dayLong = (day: string) => dateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(noon(day));
  const wall = (iso: string) => isoToWallClock(iso, d.timeZone);
  const when = (iso: string) => `${formatDate(wall(iso).slice(0, 10), clock.dateFormat)} ${wall(iso).slice(11, 16)}`;
  const label = (s: OnCallShift) => t('shiftLabel', { name: s.userName, start: when(s.startTs), end: when(s.endTs) });

  // the shifts of each day, in the company's zone
  const byDay = new Map<string, OnCallShift[]>();
  for (const s of d.shifts)
    for (const day of shiftDays(s.startTs, s.endTs, d.timeZone)) byDay.set(day, [...(byDay.get(day) ?? []), s]);
  const holidays = new Map(d.holidays.map((h) => [h.date, h.name]));
  const inMonth = (day: string) => day.slice(0, 7) === d.month.slice(0, 7);
  const monthDays = d.weeks.flatMap((w) => w.days).filter(inMonth);
  const monthShifts = d.shifts.filter((s) => monthDays.some((day) => byDay.get(day)?.includes(s)));

  function openNew(day?: string) {
    const first = day ?? (inMonth(d.today) ? d.today : d.month);
    const next = formatPlainDate(addDays(parsePlainDate(first)!, 1));
    setFields({});
    setDraft({
      id: null,
      userId: '',
      startTs: `${first}T${DEFAULT_START}`,
      endTs: `${next}T${DEFAULT_END}`,
      comment: '',
    });
  }
  function openEdit(s: OnCallShift) {
    setFields({});
    setDraft({ id: s.id, userId: s.userId, startTs: wall(s.startTs), endTs: wall(s.endTs), comment: s.comment ?? '' });
  }
  function save(e: FormEvent) {
    e.preventDefault();
    if (!draft) return;
    void fetcher.submit({ intent: 'save', ...draft, id: draft.id ?? '' }, { method: 'post' });
  }
  const set = (patch: Partial<Draft>) => setDraft((x) => (x ? { ...x, ...patch } : x));

  /** One shift on one day: the person, and the time when it starts or ends that day. */
  function chip(s: OnCallShift, day: string) {
    const start = wall(s.startTs);
    const end = wall(s.endTs);
    const from = start.slice(0, 10) === day ? start.slice(11, 16) : null;
    const until = end.slice(0, 10) === day ? end.slice(11, 16) : null;
    const time =
      from && until
        ? t('fromUntil', { from, until })
        : from
          ? t('from', { time: from })
          : until
            ? t('until', { time: until })
            : null;
    const body = (
      <>
        <span className="block truncate font-medium">{s.userName}</span>
        {time ? <span className="block truncate text-xs">{time}</span> : null}
      </>
    );
    const className = cx('block w-full rounded px-1.5 py-0.5 text-left text-sm ring-1', colourOf(s.userId));
    return d.canEdit ? (
      <button
        type="button"
        className={cx(className, 'min-h-9 cursor-pointer hover:brightness-95')}
        onClick={() => openEdit(s)}
        title={label(s)}
      >
        {/* the visible name and time, said as an edit (axe: the name holds what is seen) */}
        <span className="sr-only">{t('edit')} </span>
        {body}
      </button>
    ) : (
      <span className={className} title={label(s)}>
        {body}
      </span>
    );
  }

  const loading = navigation.state === 'loading';

  return (
    <div className="grid gap-4">
      <TimeNav current="onCall" />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">{t('title')}</h1>
          <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>
        </div>
        {d.canEdit ? (
          <Button variant="primary" onPress={() => openNew()}>
            {t('add')}
          </Button>
        ) : null}
      </div>

      <p className="rounded-lg bg-white px-4 py-3 text-sm shadow-sm ring-1 ring-slate-200" data-testid="on-call-now">
        {d.now.length ? t('now', { names: [...new Set(d.now.map((s) => s.userName))].join(', ') }) : t('nowNone')}
      </p>

      <section
        aria-labelledby="on-call-month"
        className={cx('rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200 sm:p-4', loading && 'opacity-60')}
      >
        <div className="flex flex-wrap items-center gap-2">
          <Link
            to={`?month=${previousMonth(d.month).slice(0, 7)}`}
            className="inline-flex min-h-11 items-center rounded-md px-3 text-brand-700 ring-1 ring-slate-300 hover:bg-slate-50 sm:min-h-9"
            aria-label={t('previous')}
            title={t('previous')}
          >
            <span aria-hidden="true">‹</span>
          </Link>
          <h2 id="on-call-month" className="min-w-40 text-center text-lg font-semibold first-letter:uppercase">
            {monthTitle}
          </h2>
          <Link
            to={`?month=${nextMonth(d.month).slice(0, 7)}`}
            className="inline-flex min-h-11 items-center rounded-md px-3 text-brand-700 ring-1 ring-slate-300 hover:bg-slate-50 sm:min-h-9"
            aria-label={t('next')}
            title={t('next')}
          >
            <span aria-hidden="true">›</span>
          </Link>
          <Link
            to="?"
            className="inline-flex min-h-11 items-center rounded-md px-3 text-sm text-brand-700 ring-1 ring-slate-300 hover:bg-slate-50 sm:min-h-9"
          >
            {t('today')}
          </Link>
        </div>

        {monthShifts.length === 0 ? (
          <div
            className="mt-3 rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600"
            data-testid="on-call-empty"
          >
            <p>{t('empty')}</p>
            {d.canEdit ? <p className="mt-1">{t('emptyEdit')}</p> : null}
          </div>
        ) : null}

        {/* wider screens: the month as weeks */}
        <table
          className="mt-3 hidden w-full table-fixed border-collapse sm:table"
          aria-label={t('calendarLabel', { month: monthTitle })}
        >
          <thead>
            <tr>
              <th scope="col" className="w-12 p-1 text-left text-xs font-medium text-slate-600">
                {t('week')}
              </th>
              {d.weeks[0]!.days.map((day) => (
                <th
                  key={day}
                  scope="col"
                  className="p-1 text-left text-xs font-medium text-slate-600 first-letter:uppercase"
                >
                  {weekdayShort(day)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {d.weeks.map((w) => (
              <tr key={w.days[0]}>
                <th
                  scope="row"
                  className="border-t border-slate-200 p-1 text-left align-top text-xs font-normal text-slate-600"
                >
                  <span aria-label={t('weekLong', { week: w.week })}>{t('weekShort', { week: w.week })}</span>
                </th>
                {w.days.map((day) => {
                  const holiday = holidays.get(day);
                  const isToday = day === d.today;
                  return (
                    <td
                      key={day}
                      data-date={day}
                      aria-current={isToday ? 'date' : undefined}
                      className={cx(
                        'h-24 border border-slate-200 p-1 align-top',
                        !inMonth(day) && 'bg-slate-50 text-slate-500',
                        holiday && 'bg-rose-50',
                      )}
                    >
                      <div className="flex items-start justify-between gap-1">
                        {d.canEdit ? (
                          <button
                            type="button"
                            onClick={() => openNew(day)}
                            aria-label={t('addOnDay', { date: dayLong(day) })}
                            title={t('addOnDay', { date: dayLong(day) })}
                            className={cx(
                              'min-h-7 min-w-7 rounded text-sm tabular-nums hover:bg-slate-100',
                              isToday && 'bg-blue-700 font-semibold text-white hover:bg-blue-800',
                            )}
                          >
                            {Number(day.slice(8))}
                          </button>
                        ) : (
                          <span
                            className={cx(
                              'inline-flex min-h-7 min-w-7 items-center justify-center rounded text-sm tabular-nums',
                              isToday && 'bg-blue-700 font-semibold text-white',
                            )}
                          >
                            {Number(day.slice(8))}
                          </span>
                        )}
                        {holiday ? (
                          <span className="truncate text-xs text-rose-800" title={t('holiday', { name: holiday })}>
                            {holiday}
                          </span>
                        ) : null}
                      </div>
                      <ul className="mt-1 grid gap-1">
                        {(byDay.get(day) ?? []).map((s) => (
                          <li key={s.id}>{chip(s, day)}</li>
                        ))}
                      </ul>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>

        {/* phones: the month's days as a list */}
        <ol
          className="mt-3 divide-y divide-slate-100 sm:hidden"
          aria-label={t('dayList', { month: monthTitle })}
          data-testid="on-call-day-list"
        >
          {monthDays.map((day) => {
            const holiday = holidays.get(day);
            const shifts = byDay.get(day) ?? [];
            const monday = noon(day).getUTCDay() === 1;
            const week = d.weeks.find((w) => w.days.includes(day))!.week;
            return (
              <li
                key={day}
                data-date={day}
                aria-current={day === d.today ? 'date' : undefined}
                className={cx('py-2', holiday && 'bg-rose-50')}
              >
                {monday || day === monthDays[0] ? (
                  <p className="mb-1 text-xs font-medium text-slate-600">{t('weekLong', { week })}</p>
                ) : null}
                <div className="flex items-center justify-between gap-2">
                  <p className={cx('text-sm first-letter:uppercase', day === d.today && 'font-semibold text-blue-800')}>
                    {dayLong(day)}
                    {holiday ? (
                      <span className="block text-xs text-rose-800">{t('holiday', { name: holiday })}</span>
                    ) : null}
                  </p>
                  {d.canEdit ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      onPress={() => openNew(day)}
                      aria-label={t('addOnDay', { date: dayLong(day) })}
                    >
                      +
                    </Button>
                  ) : null}
                </div>
                {shifts.length ? (
                  <ul className="mt-1 grid gap-1">
                    {shifts.map((s) => (
                      <li key={s.id}>{chip(s, day)}</li>
                    ))}
                  </ul>
                ) : (
                  <p className="text-xs text-slate-500">{t('noOne')}</p>
                )}
              </li>
            );
          })}
        </ol>
      </section>

      {monthShifts.length ? (
        <section
          aria-labelledby="on-call-shifts"
          className="rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200 sm:p-4"
        >
          <h2 id="on-call-shifts" className="text-lg font-semibold">
            {t('shifts')}
          </h2>
          <ul className="mt-2 divide-y divide-slate-100">
            {monthShifts.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <div className="min-w-0">
                  <span
                    className={cx('mr-2 inline-block h-3 w-3 rounded-full ring-1', colourOf(s.userId))}
                    aria-hidden="true"
                  />
                  <span className="font-medium">{s.userName}</span>{' '}
                  <span className="text-sm text-slate-700 tabular-nums">
                    {t('times', { start: when(s.startTs), end: when(s.endTs) })}
                  </span>
                  {s.comment ? <p className="text-sm text-slate-600">{s.comment}</p> : null}
                </div>
                {d.canEdit ? (
                  <div className="flex gap-1">
                    <Button
                      size="sm"
                      variant="secondary"
                      onPress={() => openEdit(s)}
                      aria-label={t('editLabel', { label: label(s) })}
                    >
                      {t('edit')}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      onPress={() => setDeleting(s)}
                      aria-label={t('deleteLabel', { label: label(s) })}
                    >
                      {t('delete')}
                    </Button>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <Dialog
        title={draft?.id ? t('editTitle') : t('addTitle')}
        isOpen={draft !== null}
        onOpenChange={(open) => (open ? undefined : setDraft(null))}
        isDismissable={!busy}
      >
        {draft ? (
          <form className="grid gap-3" onSubmit={save} noValidate>
            <Select
              label={t('person')}
              items={d.people.map((p) => ({ id: p.id, label: p.name }))}
              selectedKey={draft.userId || null}
              onSelectionChange={(k) => set({ userId: k ? String(k) : '' })}
              placeholder={t('choosePerson')}
              isRequired
              autoFocus
              errorMessage={err('userId')}
            />
            <div className="grid gap-3 sm:grid-cols-2">
              <DatePicker
                label={t('start')}
                granularity="minute"
                isRequired
                errorMessage={err('startTs')}
                value={dateTimeValueOf(draft.startTs)}
                onChange={(v) => set({ startTs: wallClockOf(v) })}
              />
              <DatePicker
                label={t('end')}
                granularity="minute"
                isRequired
                errorMessage={err('endTs')}
                value={dateTimeValueOf(draft.endTs)}
                onChange={(v) => set({ endTs: wallClockOf(v) })}
              />
            </div>
            <TextField
              label={t('comment')}
              value={draft.comment}
              onChange={(v) => set({ comment: v })}
              errorMessage={err('comment')}
            />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
              {draft.id ? (
                <Button
                  variant="ghost"
                  onPress={() => {
                    const s = d.shifts.find((x) => x.id === draft.id);
                    if (s) setDeleting(s);
                  }}
                >
                  {t('delete')}
                </Button>
              ) : (
                <span />
              )}
              <div className="flex flex-col-reverse gap-2 sm:flex-row">
                <Button variant="secondary" onPress={() => setDraft(null)} isDisabled={busy}>
                  {t('cancel')}
                </Button>
                <Button type="submit" variant="primary" isPending={busy}>
                  {t('save')}
                </Button>
              </div>
            </div>
          </form>
        ) : null}
      </Dialog>

      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t('deleteTitle')}
        message={deleting ? t('deleteMessage', { label: label(deleting) }) : undefined}
        variant="danger"
        confirmLabel={t('delete')}
        isPending={busy}
        onConfirm={() => {
          if (deleting) void fetcher.submit({ intent: 'delete', id: deleting.id }, { method: 'post' });
        }}
      />
    </div>
  );
}
