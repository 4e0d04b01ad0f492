import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Link, useFetcher, useNavigation, useRouteLoaderData } from 'react-router';
import type { Route } from './+types/time.office';
import type { loader as rootLoader } from '~/app/root';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import { Button, ConfirmDialog, DateTime, formatDate, useToast, type DateFormat } from '~/app/components/ui';
import { TimeNav } from '~/app/components/time/time-nav';
import { endOfMonth, isoWeek, parsePlainDate } from '~/core/calendar/dates';
import { tenantToday } from '~/core/calendar/tenant-today';
import { hasAccess } from '~/core/permissions/access';
import { listLockMonths, setMonthLocked, type LockMonth } from '~/core/time-reports/period-lock.service';
import { setMonthApproval } from '~/core/time-reports/time-parent.service';
import { isFarBeyondSchedule } from '~/core/time-reports/time-report.rules';
import { timeMonth, type MonthPerson } from '~/core/time-reports/time-week.service';
import { formatDuration } from '~/core/work-orders/time-rules';
import { pageTitle } from '~/app/lib/page-title';

/**
 * The office's time (`/time/office`, timereports:read): everyone's month — each day's time
 * against the schedule, absence, totals and approval — and the year's month locks: a month locks
 * on the lock day of the next month, or now by hand; timereports:edit opens one again.
 */
export const middleware = guard({ permission: 'timereports:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const url = new URL(request.url);
  return run(context, async (ctx) => {
    const today = tenantToday(ctx);
    const year = url.searchParams.get('year') ?? today.slice(0, 4);
    const month = url.searchParams.get('month') ?? String(Number(today.slice(5, 7)));
    const m = await timeMonth(ctx, { year, month });
    return {
      month: m,
      locks: await listLockMonths(ctx, m.year),
      today,
      canLock: hasAccess(auth, { permission: 'timereports:edit' }),
    };
  });
}

type Result = { ok: true; intent: string } | ActionError;

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData()) as Record<string, string>;
  try {
    return await run(context, async (ctx) => {
      if (form.intent === 'lock' || form.intent === 'unlock')
        await setMonthLocked(ctx, { month: form.month, early: form.early }, form.intent === 'lock');
      else
        await setMonthApproval(ctx, {
          userId: form.userId,
          year: form.year,
          month: form.month,
          approved: form.intent === 'approve',
        });
      return data<Result>({ ok: true, intent: form.intent ?? '' });
    });
  } catch (e) {
    return actionError(e);
  }
}

/** The last day (YYYY-MM-DD) of the month starting on `month` (YYYY-MM-01). */
function monthEnd(month: string): string {
  return endOfMonth(month);
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.timeOffice', null, { within: 'nav.time' });

export default function TimeOfficePage({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation('time');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const dateFormat = (useRouteLoaderData<typeof rootLoader>('root')?.dateFormat as DateFormat) ?? 'YYYY-MM-DD';
  const navigation = useNavigation();
  const fetcher = useFetcher<Result>();
  const [unlocking, setUnlocking] = useState<LockMonth | null>(null);
  const [locking, setLocking] = useState<LockMonth | null>(null);
  const [approvingOver, setApprovingOver] = useState<MonthPerson | null>(null);
  useFetcherResult(fetcher, (result) => {
    if ('ok' in result) {
      setUnlocking(null);
      setLocking(null);
      setApprovingOver(null);
      toast.show({ kind: 'success', message: t(`office.done.${result.intent}`) });
    } else toast.show({ kind: 'error', message: tc(result.code) });
  });
  const m = d.month;
  const monthName = (month: number) => t(`month.${month}`);
  const prev = m.month > 1 ? { year: m.year, month: m.month - 1 } : { year: m.year - 1, month: 12 };
  const next = m.month < 12 ? { year: m.year, month: m.month + 1 } : { year: m.year + 1, month: 1 };
  const firstWeek = isoWeek(parsePlainDate(m.dates[0]!.date)!);
  const busyFor = (key: string) => fetcher.state !== 'idle' && fetcher.formData?.get('key') === key;
  const submit = (form: Record<string, string>) => void fetcher.submit(form, { method: 'post' });
  // a month whose last day is today or later has not ended (the month's first day + 1 month > today)
  const lockingEarly = locking !== null && monthEnd(locking.month) >= d.today;
  const submitApproval = (p: MonthPerson, intent: 'approve' | 'reopen') =>
    submit({ intent, key: `approval-${p.userId}`, userId: p.userId, year: String(m.year), month: String(m.month) });
  const diffOf = (p: MonthPerson) => p.totals.total - p.totals.scheduled;
  const navClass = 'inline-flex min-h-11 items-center rounded-md px-3 text-sm ring-1 ring-slate-300 sm:min-h-9';

  return (
    // one column that may shrink below the table's width: a grid item is otherwise as wide as its
    // content, and the month's wide table widened the whole page instead of scrolling in its box
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <TimeNav current="office" />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">{t('office.title', { month: monthName(m.month), year: m.year })}</h1>
          <p className="text-sm text-slate-600">{m.locked ? t('office.monthLocked') : t('office.monthOpen')}</p>
        </div>
        <nav aria-label={t('office.navigation')} className="flex gap-2">
          <Link className={navClass} to={`?year=${prev.year}&month=${prev.month}`} aria-label={t('office.previous')}>
            ←
          </Link>
          <Link className={navClass} to="?">
            {t('office.thisMonth')}
          </Link>
          <Link className={navClass} to={`?year=${next.year}&month=${next.month}`} aria-label={t('office.next')}>
            →
          </Link>
        </nav>
      </div>

      <section
        aria-labelledby="office-people"
        className={`rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 ${navigation.state === 'loading' ? 'opacity-60' : ''}`}
      >
        <h2 id="office-people" className="text-base font-semibold">
          {t('office.people')}
        </h2>
        {m.people.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">{t('office.empty')}</p>
        ) : (
          <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-labelledby="office-people">
            <table className="min-w-full text-sm">
              <thead>
                <tr className="text-left text-slate-600">
                  <th scope="col" className="sticky left-0 bg-white py-2 pr-3 font-medium">
                    {t('office.person')}
                  </th>
                  {m.dates.map((day) => (
                    <th
                      key={day.date}
                      scope="col"
                      className={`px-1 py-2 text-center font-normal tabular-nums ${day.scheduledMinutes === 0 ? 'text-slate-500' : ''}`}
                      title={day.holiday ?? undefined}
                    >
                      {Number(day.date.slice(8))}
                    </th>
                  ))}
                  <th scope="col" className="px-2 py-2 text-right font-medium">
                    {t('totals.total')}
                  </th>
                  <th scope="col" className="px-2 py-2 text-right font-medium">
                    {t('totals.scheduled')}
                  </th>
                  <th scope="col" className="px-2 py-2 text-right font-medium">
                    {t('totals.difference')}
                  </th>
                  <th scope="col" className="px-2 py-2 text-right font-medium">
                    {t('totals.absence')}
                  </th>
                  <th scope="col" className="px-2 py-2 font-medium">
                    {t('office.status')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {m.people.map((p) => {
                  const approved = p.parent?.status === 'approved';
                  const key = `approval-${p.userId}`;
                  const diff = diffOf(p);
                  return (
                    <tr key={p.userId}>
                      <th
                        scope="row"
                        className="sticky left-0 bg-white py-2 pr-3 text-left font-medium whitespace-nowrap"
                      >
                        <Link
                          className="text-brand-700 underline"
                          to={`/time?year=${firstWeek.year}&week=${firstWeek.week}&userId=${p.userId}`}
                        >
                          {p.name}
                        </Link>
                      </th>
                      {m.dates.map((day) => {
                        const cell = p.days[day.date];
                        return (
                          <td
                            key={day.date}
                            className={`px-1 py-2 text-center text-xs tabular-nums ${cell?.absence ? 'bg-purple-50 text-purple-900' : ''}`}
                          >
                            {cell?.total ? formatDuration(cell.total) : ''}
                          </td>
                        );
                      })}
                      <td className="px-2 py-2 text-right font-medium tabular-nums">
                        {formatDuration(p.totals.total)}
                      </td>
                      <td className="px-2 py-2 text-right tabular-nums">{formatDuration(p.totals.scheduled)}</td>
                      <td className={`px-2 py-2 text-right tabular-nums ${diff < 0 ? 'text-amber-800' : ''}`}>
                        {`${diff < 0 ? '−' : '+'}${formatDuration(Math.abs(diff))}`}
                      </td>
                      <td className="px-2 py-2 text-right tabular-nums">{formatDuration(p.totals.absence)}</td>
                      <td className="px-2 py-2 whitespace-nowrap">
                        <span className={approved ? 'text-green-800' : 'text-slate-600'}>
                          {approved ? t('office.approved') : t('office.notApproved')}
                        </span>{' '}
                        <Button
                          size="sm"
                          variant={approved ? 'ghost' : 'secondary'}
                          isPending={busyFor(key)}
                          aria-label={t(approved ? 'office.reopenFor' : 'office.approveFor', { name: p.name })}
                          onPress={() =>
                            // a total far beyond the schedule is approved only after a second look
                            !approved && isFarBeyondSchedule(p.totals.total, p.totals.scheduled)
                              ? setApprovingOver(p)
                              : submitApproval(p, approved ? 'reopen' : 'approve')
                          }
                        >
                          {approved ? t('office.reopen') : t('office.approve')}
                        </Button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="office-locks" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 id="office-locks" className="text-base font-semibold">
          {t('locks.title', { year: d.locks.year })}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {d.locks.lockDay === null ? t('locks.noLockDay') : t('locks.lockDay', { day: d.locks.lockDay })}
        </p>
        <ul className="mt-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {d.locks.months.map((lm) => {
            const month = Number(lm.month.slice(5, 7));
            const key = `lock-${lm.month}`;
            return (
              <li
                key={lm.month}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg p-2 ring-1 ring-slate-200"
              >
                <div className="min-w-0 text-sm">
                  <div className="font-medium">{monthName(month)}</div>
                  <div className="text-slate-600">
                    {lm.locked ? t('locks.locked') : t('locks.open')}
                    {lm.byHand && lm.changedBy ? ` · ${t('locks.byHand', { name: lm.changedBy })}` : null}
                    {!lm.locked && lm.lockDate
                      ? ` · ${t('locks.locksOn', { date: formatDate(lm.lockDate, dateFormat) })}`
                      : null}
                  </div>
                </div>
                {d.canLock ? (
                  lm.locked ? (
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t('locks.unlockMonth', { month: monthName(month) })}
                      onPress={() => setUnlocking(lm)}
                    >
                      {t('locks.unlock')}
                    </Button>
                  ) : (
                    <Button
                      size="sm"
                      variant="secondary"
                      isPending={busyFor(key)}
                      aria-label={t('locks.lockMonth', { month: monthName(month) })}
                      onPress={() => setLocking(lm)}
                    >
                      {t('locks.lock')}
                    </Button>
                  )
                ) : null}
              </li>
            );
          })}
        </ul>
        {d.locks.history.length ? (
          <>
            <h3 className="mt-4 text-sm font-semibold">{t('locks.history')}</h3>
            <ul className="mt-1 grid gap-1 text-sm text-slate-700">
              {d.locks.history.map((h) => (
                <li key={`${h.month}-${h.at}`}>
                  {t(h.action === 'lock' ? 'locks.historyLock' : 'locks.historyUnlock', {
                    month: monthName(Number(h.month.slice(5, 7))),
                    name: h.userName ?? '–',
                  })}{' '}
                  <span className="text-slate-600">
                    <DateTime iso={h.at} />
                  </span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>

      <ConfirmDialog
        title={t('office.overTitle')}
        message={
          approvingOver
            ? t('office.overMessage', {
                name: approvingOver.name,
                total: formatDuration(approvingOver.totals.total),
                scheduled: formatDuration(approvingOver.totals.scheduled),
              })
            : undefined
        }
        confirmLabel={t('office.overConfirm')}
        isOpen={approvingOver !== null}
        onOpenChange={(open) => {
          if (!open) setApprovingOver(null);
        }}
        isPending={fetcher.state !== 'idle'}
        onConfirm={() => {
          if (approvingOver) submitApproval(approvingOver, 'approve');
        }}
      />
      <ConfirmDialog
        title={t('locks.lockTitle')}
        message={
          locking
            ? [
                t('locks.lockMessage', { month: monthName(Number(locking.month.slice(5, 7))) }),
                lockingEarly
                  ? t('locks.lockEarlyMessage', { month: monthName(Number(locking.month.slice(5, 7))) })
                  : '',
              ]
                .filter(Boolean)
                .join(' ')
            : undefined
        }
        confirmLabel={lockingEarly ? t('locks.lockEarly') : t('locks.lock')}
        isOpen={locking !== null}
        onOpenChange={(open) => {
          if (!open) setLocking(null);
        }}
        isPending={fetcher.state !== 'idle'}
        onConfirm={() => {
          if (locking)
            submit({
              intent: 'lock',
              key: `lock-${locking.month}`,
              month: locking.month.slice(0, 7),
              // the month has not ended: the dialog said so, and confirming is the explicit ask
              early: lockingEarly ? 'true' : 'false',
            });
        }}
      />
      <ConfirmDialog
        title={t('locks.unlockTitle')}
        message={
          unlocking ? t('locks.unlockMessage', { month: monthName(Number(unlocking.month.slice(5, 7))) }) : undefined
        }
        confirmLabel={t('locks.unlock')}
        isOpen={unlocking !== null}
        onOpenChange={(open) => {
          if (!open) setUnlocking(null);
        }}
        isPending={fetcher.state !== 'idle'}
        onConfirm={() => {
          if (unlocking)
            submit({ intent: 'unlock', key: `lock-${unlocking.month}`, month: unlocking.month.slice(0, 7) });
        }}
      />
    </div>
  );
}
