import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Form, Link, useFetcher, useNavigation, useRouteLoaderData, useSearchParams } from 'react-router';
import type { Route } from './+types/time';
import type { loader as rootLoader } from '~/app/root';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import { useTagLabel } from '~/app/lib/time-tag-label';
import { Button, ConfirmDialog, Dialog, formatDate, TextField, useToast, type DateFormat } from '~/app/components/ui';
import { NATIVE_INPUT_CLASS, NativeField } from '~/app/components/ui/native-field';
import { TimeNav } from '~/app/components/time/time-nav';
import { DistancePanel } from '~/app/components/time/distance-panel';
import { CompensationPanel } from '~/app/components/time/compensation-panel';
import { isoWeek, isoWeeksInYear, parsePlainDate } from '~/core/calendar/dates';
import { hasAccess } from '~/core/permissions/access';
import { copyPreviousWeek } from '~/core/time-reports/time-parent.service';
import { deleteTimeReport, saveTimeReport, type TimeReport } from '~/core/time-reports/time-report.service';
import { timeWeek, type WeekDay } from '~/core/time-reports/time-week.service';
import { listTimeReportTags, type TimeReportTag } from '~/core/time-reports/tags.service';
import { weekExpenses } from '~/core/time-reports/expenses-week.service';
import { tenantToday } from '~/core/calendar/tenant-today';
import { formatDuration } from '~/core/work-orders/time-rules';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Time (`/time`, spec section 2 "time reporting with absence and compensation"): a person's ISO
 * week — each day's work-order time, own time by tag, absence and attendance, company holidays,
 * totals per day and week against the scheduled time — with mileage and expenses below. Copy last
 * week; the office (timereports:read) opens anyone's week.
 */
export const middleware = guard({ permission: 'timereports:read_own' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const url = new URL(request.url);
  return run(context, async (ctx) => {
    const today = isoWeek(parsePlainDate(tenantToday(ctx))!);
    const year = url.searchParams.get('year') ?? today.year;
    const week = url.searchParams.get('week') ?? today.week;
    const userId = url.searchParams.get('userId') || undefined;
    const w = await timeWeek(ctx, { year, week, userId });
    return {
      week: w,
      tags: await listTimeReportTags(ctx),
      expenses: await weekExpenses(ctx, { year: w.year, week: w.week, userId: w.user.id }),
      isOffice: hasAccess(auth, { permission: 'timereports:read' }),
    };
  });
}

type Result = { ok: true; intent: string; copied?: number } | ActionError;

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData()) as Record<string, string>;
  try {
    return await run(context, async (ctx) => {
      if (form.intent === 'delete') await deleteTimeReport(ctx, form.id);
      else if (form.intent === 'copy') {
        const { copied } = await copyPreviousWeek(ctx, { year: form.year, week: form.week, userId: form.userId });
        return data<Result>({ ok: true, intent: 'copy', copied });
      } else
        await saveTimeReport(ctx, {
          id: form.id || undefined,
          userId: form.userId,
          tagId: form.tagId,
          date: form.date,
          startTime: form.startTime,
          endTime: form.endTime,
          reportedHours: form.reportedHours,
          reportedMinutes: form.reportedMinutes,
          comment: form.comment,
        });
      return data<Result>({ ok: true, intent: form.intent ?? 'save' });
    });
  } catch (e) {
    return actionError(e);
  }
}

interface Draft {
  id: string | null;
  date: string;
  tagId: string;
  startTime: string;
  endTime: string;
  hours: string;
  minutes: string;
  comment: string;
}

const TYPE_ORDER = ['work', 'attend', 'absence'] as const;

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('nav.time');

export default function TimeWeekPage({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation('time');
  const { t: tc } = useTranslation();
  const tagLabel = useTagLabel();
  const toast = useToast();
  const dateFormat = (useRouteLoaderData<typeof rootLoader>('root')?.dateFormat as DateFormat) ?? 'YYYY-MM-DD';
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const fetcher = useFetcher<Result>();
  const w = d.week;
  const tags = d.tags as TimeReportTag[];
  const [draft, setDraft] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState<TimeReport | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  useFetcherResult(fetcher, (result) => {
    if ('ok' in result) {
      setDraft(null);
      setDeleting(null);
      toast.show({
        kind: 'success',
        message:
          result.intent === 'copy'
            ? t('week.copied', { count: result.copied ?? 0 })
            : tc(result.intent === 'delete' ? 'SUCCESSFULLY_DELETED' : 'SUCCESSFULLY_SAVED'),
      });
    } else {
      setFields(result.fields ?? {});
      if (result.code !== 'VALIDATION_FAILED' || !draft) toast.show({ kind: 'error', message: tc(result.code) });
    }
  });
  const busy = fetcher.state !== 'idle';
  const err = (k: string) => fields[k]?.map((c) => tc(c));

  const link = (year: number, week: number) => {
    const p = new URLSearchParams(params);
    p.set('year', String(year));
    p.set('week', String(week));
    return `?${p.toString()}`;
  };
  const prev = w.week > 1 ? [w.year, w.week - 1] : [w.year - 1, isoWeeksInYear(w.year - 1)];
  const next = w.week < w.weeksInYear ? [w.year, w.week + 1] : [w.year + 1, 1];
  const tagById = new Map(tags.map((tag) => [tag.id, tag]));
  const draftTag = draft ? tagById.get(draft.tagId) : undefined;
  const workTag = tags.find((tag) => tag.type === 'work');
  const editableDay = (day: WeekDay) => w.canEdit && !day.locked && !day.approved;

  function openNew(day: WeekDay) {
    setFields({});
    const last = [...day.reports].reverse().find((r) => r.endTime);
    setDraft({
      id: null,
      date: day.date,
      tagId: workTag?.id ?? tags[0]?.id ?? '',
      startTime: w.mode === 'multi' && last?.endTime ? last.endTime : w.mode === 'hours' ? '' : '07:00',
      endTime: w.mode === 'multi' && last ? '' : w.mode === 'hours' ? '' : '16:00',
      hours: '',
      minutes: '',
      comment: '',
    });
  }
  function openEdit(r: TimeReport) {
    setFields({});
    setDraft({
      id: r.id,
      date: r.date,
      tagId: r.tagId,
      startTime: r.startTime ?? '',
      endTime: r.endTime ?? '',
      hours: r.startTime ? '' : String(r.reportedHours),
      minutes: r.startTime ? '' : String(r.reportedMinutes),
      comment: r.comment ?? '',
    });
  }
  const set = (patch: Partial<Draft>) => setDraft((x) => (x ? { ...x, ...patch } : x));
  /** Which fields the dialog asks for: an absence hours (blank: the whole day), otherwise the tenant's mode; a report kept as it was stored. */
  const asksHours = (x: Draft) =>
    draftTag?.type === 'absence' || (x.id ? !x.startTime && x.hours !== '' : w.mode === 'hours');
  function save(x: Draft) {
    const hoursMode = asksHours(x);
    void fetcher.submit(
      {
        intent: 'save',
        id: x.id ?? '',
        userId: w.user.id,
        tagId: x.tagId,
        date: x.date,
        startTime: hoursMode ? '' : x.startTime,
        endTime: hoursMode ? '' : x.endTime,
        reportedHours: hoursMode ? x.hours : '',
        reportedMinutes: hoursMode ? x.minutes : '',
        comment: x.comment,
      },
      { method: 'post' },
    );
  }

  const dayName = (day: WeekDay) => t(`weekday.${day.weekday}`);
  const tagName = (id: string) => {
    const tag = tagById.get(id);
    return tag ? tagLabel(tag) : '';
  };
  const when = (r: TimeReport) =>
    r.startTime && r.endTime ? `${r.startTime}–${r.endTime} (${formatDuration(r.minutes)})` : formatDuration(r.minutes);
  const diff = w.totals.total - w.totals.scheduled;
  const loading = navigation.state === 'loading';

  return (
    <div className="grid gap-4">
      <TimeNav current="week" />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">{t('week.title', { week: w.week, year: w.year })}</h1>
          <p className="text-sm text-slate-600">
            {formatDate(w.days[0]!.date, dateFormat)} – {formatDate(w.days[6]!.date, dateFormat)}
            {w.users.length > 1 ? ` · ${w.user.name}` : null}
          </p>
        </div>
        <nav aria-label={t('week.navigation')} className="flex flex-wrap items-center gap-2">
          <Link
            className="rounded-md px-3 py-2 text-sm ring-1 ring-slate-300 min-h-11 sm:min-h-9 inline-flex items-center"
            to={link(prev[0]!, prev[1]!)}
            aria-label={t('week.previous')}
          >
            ←
          </Link>
          <Link
            className="rounded-md px-3 py-2 text-sm ring-1 ring-slate-300 min-h-11 sm:min-h-9 inline-flex items-center"
            to={link(w.thisWeek.year, w.thisWeek.week)}
          >
            {t('week.thisWeek')}
          </Link>
          <Link
            className="rounded-md px-3 py-2 text-sm ring-1 ring-slate-300 min-h-11 sm:min-h-9 inline-flex items-center"
            to={link(next[0]!, next[1]!)}
            aria-label={t('week.next')}
          >
            →
          </Link>
        </nav>
      </div>

      <div className="flex flex-wrap items-end gap-3">
        {w.users.length > 1 ? (
          <Form method="get" className="flex items-end gap-2">
            <input type="hidden" name="year" value={w.year} />
            <input type="hidden" name="week" value={w.week} />
            <NativeField label={t('week.person')}>
              {(id) => (
                <select
                  id={id}
                  name="userId"
                  defaultValue={w.user.id}
                  className={NATIVE_INPUT_CLASS}
                  onChange={(e) => e.currentTarget.form?.requestSubmit()}
                >
                  {w.users.map((u) => (
                    <option key={u.id} value={u.id}>
                      {u.name}
                    </option>
                  ))}
                </select>
              )}
            </NativeField>
            <noscript>
              <button type="submit">{t('week.show')}</button>
            </noscript>
          </Form>
        ) : null}
        {w.canEdit ? (
          <Button
            variant="secondary"
            isPending={busy && fetcher.formData?.get('intent') === 'copy'}
            onPress={() =>
              void fetcher.submit(
                { intent: 'copy', year: String(w.year), week: String(w.week), userId: w.user.id },
                { method: 'post' },
              )
            }
          >
            {t('week.copy')}
          </Button>
        ) : null}
      </div>

      <section aria-labelledby="week-totals" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 id="week-totals" className="sr-only">
          {t('week.totals')}
        </h2>
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-5">
          <Figure label={t('totals.total')} value={formatDuration(w.totals.total)} strong />
          <Figure label={t('totals.scheduled')} value={formatDuration(w.totals.scheduled)} />
          <Figure
            label={t('totals.difference')}
            value={`${diff < 0 ? '−' : '+'}${formatDuration(Math.abs(diff))}`}
            tone={diff < 0 ? 'warn' : undefined}
          />
          <Figure label={t('totals.workOrders')} value={formatDuration(w.totals.workOrder)} />
          <Figure label={t('totals.absence')} value={formatDuration(w.totals.absence)} />
        </dl>
      </section>

      <ol className={`grid gap-3 ${loading ? 'opacity-60' : ''}`} aria-busy={loading}>
        {w.days.map((day) => (
          <li key={day.date}>
            <section
              aria-labelledby={`day-${day.date}`}
              className={`rounded-xl p-4 shadow-sm ring-1 ${day.holiday || day.weekday > 5 ? 'bg-slate-50 ring-slate-200' : 'bg-white ring-slate-200'}`}
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h2 id={`day-${day.date}`} className="text-base font-semibold">
                  {dayName(day)} {formatDate(day.date, dateFormat)}
                </h2>
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  {day.holiday ? (
                    <span className="rounded-full bg-amber-100 px-2 py-0.5 text-amber-900">{day.holiday}</span>
                  ) : null}
                  {day.locked ? (
                    <span className="rounded-full bg-slate-200 px-2 py-0.5 text-slate-800">{t('day.locked')}</span>
                  ) : day.approved ? (
                    <span className="rounded-full bg-green-100 px-2 py-0.5 text-green-900">{t('day.approved')}</span>
                  ) : null}
                  <span
                    className="tabular-nums"
                    aria-label={t('day.totalOf', {
                      total: formatDuration(day.totals.total),
                      scheduled: formatDuration(day.scheduledMinutes),
                    })}
                  >
                    <strong>{formatDuration(day.totals.total)}</strong> / {formatDuration(day.scheduledMinutes)}
                  </span>
                </div>
              </div>
              {day.workOrderTime.length === 0 && day.reports.length === 0 ? (
                <p className="mt-2 text-sm text-slate-600">{t('day.empty')}</p>
              ) : (
                <ul className="mt-2 divide-y divide-slate-100 text-sm">
                  {day.workOrderTime.map((wo) => (
                    <li key={wo.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                      <Link
                        to={`/work-orders/${wo.workOrderId}`}
                        className="min-w-0 break-words text-brand-700 underline"
                      >
                        {wo.workOrderNumber} {wo.workOrderTitle}
                      </Link>
                      <span className="tabular-nums">
                        {formatDuration(wo.workMinutes)}
                        {wo.travelMinutes ? ` + ${t('day.travel', { time: formatDuration(wo.travelMinutes) })}` : null}
                      </span>
                    </li>
                  ))}
                  {day.reports.map((r) => (
                    <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                      <div className="min-w-0">
                        <span className={r.tagType === 'absence' ? 'font-medium text-purple-800' : 'font-medium'}>
                          {tagName(r.tagId)}
                        </span>{' '}
                        <span className="tabular-nums">{when(r)}</span>
                        {r.comment ? <div className="break-words text-slate-600">{r.comment}</div> : null}
                      </div>
                      {editableDay(day) ? (
                        <div className="flex gap-1">
                          <Button
                            size="sm"
                            variant="secondary"
                            aria-label={t('day.editReport', { tag: tagName(r.tagId), day: dayName(day) })}
                            onPress={() => openEdit(r)}
                          >
                            {t('day.edit')}
                          </Button>
                          <Button
                            size="sm"
                            variant="ghost"
                            aria-label={t('day.deleteReport', { tag: tagName(r.tagId), day: dayName(day) })}
                            onPress={() => setDeleting(r)}
                          >
                            {t('day.delete')}
                          </Button>
                        </div>
                      ) : null}
                    </li>
                  ))}
                </ul>
              )}
              {editableDay(day) ? (
                <div className="mt-2">
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={t('day.addOn', { day: `${dayName(day)} ${formatDate(day.date, dateFormat)}` })}
                    onPress={() => openNew(day)}
                  >
                    {t('day.add')}
                  </Button>
                </div>
              ) : null}
            </section>
          </li>
        ))}
      </ol>

      {d.expenses.distanceEnabled ? (
        <DistancePanel
          year={w.year}
          week={w.week}
          userId={w.user.id}
          days={w.days.map((x) => x.date)}
          rows={d.expenses.distance.rows}
          lastReading={d.expenses.distance.lastReading}
          tags={d.expenses.compensation.tags}
          canEdit={d.expenses.distance.canEdit}
        />
      ) : null}
      {d.expenses.compensationEnabled ? (
        <CompensationPanel
          year={w.year}
          week={w.week}
          userId={w.user.id}
          days={w.days.map((x) => x.date)}
          rows={d.expenses.compensation.rows}
          tags={d.expenses.compensation.tags}
          canEdit={d.expenses.compensation.canEdit}
        />
      ) : null}

      <Dialog
        title={draft?.id ? t('dialog.editTitle') : t('dialog.addTitle')}
        isOpen={draft !== null}
        onOpenChange={(open) => {
          if (!open) setDraft(null);
        }}
        isDismissable={!busy}
        footer={({ close }) => (
          <>
            <Button variant="secondary" onPress={close} isDisabled={busy}>
              {t('dialog.cancel')}
            </Button>
            <Button isPending={busy} onPress={() => draft && save(draft)}>
              {t('dialog.save')}
            </Button>
          </>
        )}
      >
        {draft ? (
          <form
            className="grid gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              save(draft);
            }}
          >
            <p className="text-sm text-slate-700">{formatDate(draft.date, dateFormat)}</p>
            <NativeField label={t('dialog.tag')}>
              {(id) => (
                <select
                  id={id}
                  value={draft.tagId}
                  onChange={(e) => set({ tagId: e.target.value })}
                  className={NATIVE_INPUT_CLASS}
                  aria-invalid={fields.tagId ? true : undefined}
                >
                  {TYPE_ORDER.map((type) => (
                    <optgroup key={type} label={t(`tagType.${type}`)}>
                      {tags
                        .filter((tag) => tag.type === type)
                        .map((tag) => (
                          <option key={tag.id} value={tag.id}>
                            {tag.type === 'absence' ? `${tag.code} – ${tagLabel(tag)}` : tagLabel(tag)}
                          </option>
                        ))}
                    </optgroup>
                  ))}
                </select>
              )}
            </NativeField>
            {err('tagId') ? <p className="text-sm text-red-700">{err('tagId')!.join(' ')}</p> : null}
            {asksHours(draft) ? (
              <>
                <div className="grid grid-cols-2 gap-3">
                  <TextField
                    label={t('dialog.hours')}
                    inputMode="numeric"
                    value={draft.hours}
                    onChange={(v) => set({ hours: v })}
                    errorMessage={err('reportedHours')}
                  />
                  <TextField
                    label={t('dialog.minutes')}
                    inputMode="numeric"
                    value={draft.minutes}
                    onChange={(v) => set({ minutes: v })}
                    errorMessage={err('reportedMinutes')}
                  />
                </div>
                {draftTag?.type === 'absence' ? <p className="text-sm text-slate-600">{t('dialog.wholeDay')}</p> : null}
              </>
            ) : (
              <div className="grid grid-cols-2 gap-3">
                <TimeInput
                  label={t('dialog.start')}
                  value={draft.startTime}
                  onChange={(v) => set({ startTime: v })}
                  errors={err('startTime')}
                />
                <TimeInput
                  label={t('dialog.end')}
                  value={draft.endTime}
                  onChange={(v) => set({ endTime: v })}
                  errors={err('endTime')}
                />
                {draftTag?.type === 'attend' && draftTag.defaultStart ? (
                  <p className="col-span-2 text-sm text-slate-600">
                    {t('dialog.defaultTime', { start: draftTag.defaultStart, end: draftTag.defaultEnd })}
                  </p>
                ) : null}
              </div>
            )}
            <TextField
              label={t('dialog.comment')}
              value={draft.comment}
              onChange={(v) => set({ comment: v })}
              errorMessage={err('comment')}
            />
            <button type="submit" hidden />
          </form>
        ) : null}
      </Dialog>

      <ConfirmDialog
        title={t('dialog.deleteTitle')}
        message={
          deleting
            ? t('dialog.deleteMessage', { tag: tagName(deleting.tagId), date: formatDate(deleting.date, dateFormat) })
            : undefined
        }
        confirmLabel={t('day.delete')}
        variant="danger"
        isOpen={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        isPending={busy}
        onConfirm={() => {
          if (deleting) void fetcher.submit({ intent: 'delete', id: deleting.id }, { method: 'post' });
        }}
      />
    </div>
  );
}

function Figure({ label, value, strong, tone }: { label: string; value: string; strong?: boolean; tone?: 'warn' }) {
  return (
    <div className="min-w-0">
      <dt className="text-slate-600">{label}</dt>
      <dd
        className={`tabular-nums ${strong ? 'text-lg font-semibold' : ''} ${tone === 'warn' ? 'text-amber-800' : ''}`}
      >
        {value}
      </dd>
    </div>
  );
}

function TimeInput({
  label,
  value,
  onChange,
  errors,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  errors?: string[];
}) {
  return (
    <NativeField label={label}>
      {(id) => (
        <>
          <input
            id={id}
            type="time"
            step={300}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            className={NATIVE_INPUT_CLASS}
            aria-invalid={errors ? true : undefined}
            aria-describedby={errors ? `${id}-error` : undefined}
          />
          {errors ? (
            <span id={`${id}-error`} className="text-sm text-red-700">
              {errors.join(' ')}
            </span>
          ) : null}
        </>
      )}
    </NativeField>
  );
}
