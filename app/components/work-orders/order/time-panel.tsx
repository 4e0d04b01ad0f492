import { useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher, useRouteLoaderData } from 'react-router';
import {
  Button,
  ConfirmDialog,
  DatePicker,
  Dialog,
  formatDate,
  Select,
  TextField,
  dateTimeValueOf,
  dateValueOf,
  useToast,
  wallClockOf,
  type DateFormat,
} from '~/app/components/ui';
import { LockIcon } from '~/app/components/ui/icons';
import type { TimeActionResult } from '~/app/routes/work-orders.$id.time';
import type { loader as rootLoader } from '~/app/root';
import { formatDuration, isoToWallClock, splitMinutes } from '~/core/work-orders/time-rules';
import type { TimePanelData, TimeRow } from '~/core/work-orders/time.service';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import { todayInZone } from '~/core/calendar/dates';

export interface TimePanelProps {
  workOrderId: string;
  data: TimePanelData;
  /** The order may change (open, unlocked, not deleted); with data.canReport time can be reported. */
  editable: boolean;
  currentUserId: string;
  /** The tenant's time zone (start and end are shown and typed in it); Stockholm unless told. */
  timeZone?: string;
}

type Mode = 'span' | 'hours';

/** What the row dialog edits; null id for a new row. */
interface Draft {
  id: string | null;
  userId: string;
  mode: Mode;
  date: string;
  start: string;
  end: string;
  hours: string;
  minutes: string;
  travelHours: string;
  travelMinutes: string;
  distanceKm: string;
  comment: string;
}

function draftOf(row: TimeRow | null, userId: string, timeZone: string): Draft {
  if (!row) {
    const day = todayInZone(timeZone);
    return {
      id: null,
      userId,
      mode: 'span',
      date: day,
      start: `${day}T08:00`,
      end: `${day}T16:00`,
      hours: '',
      minutes: '',
      travelHours: '',
      travelMinutes: '',
      distanceKm: '',
      comment: '',
    };
  }
  const work = splitMinutes(row.workMinutes);
  const travel = splitMinutes(row.travelMinutes);
  const span = Boolean(row.startTs && row.endTs);
  return {
    id: row.id,
    userId: row.userId,
    mode: span ? 'span' : 'hours',
    date: row.date,
    start: isoToWallClock(row.startTs, timeZone),
    end: isoToWallClock(row.endTs, timeZone),
    hours: span ? '' : String(work.hours),
    minutes: span ? '' : String(work.minutes),
    travelHours: travel.hours ? String(travel.hours) : '',
    travelMinutes: travel.minutes ? String(travel.minutes) : '',
    distanceKm: row.distanceKm ? String(row.distanceKm).replace('.', ',') : '',
    comment: row.comment ?? '',
  };
}

const INPUT =
  'w-full min-w-0 rounded-md border border-gray-300 bg-white px-2 text-base text-gray-900 shadow-xs min-h-11 sm:min-h-9 sm:text-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none aria-invalid:border-red-600';

/**
 * Each person's time on a work order (issue 5 item 6): who, which day, start–end or hours, travel
 * and distance, with totals. A row is added or changed in a dialog (start–end, or hours and
 * minutes); deleting asks first; rows in a locked period show a lock and cannot change. Reporting
 * for someone else is offered only to those with workorders:timereports_select (data.users).
 */
export function TimePanel({
  workOrderId,
  data,
  editable,
  currentUserId,
  timeZone = 'Europe/Stockholm',
}: TimePanelProps) {
  const { t } = useTranslation('workorderrows');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const dateFormat = (useRouteLoaderData<typeof rootLoader>('root')?.dateFormat as DateFormat) ?? 'YYYY-MM-DD';
  const fetcher = useFetcher<TimeActionResult>();
  const [view, setView] = useState(data);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState<TimeRow | null>(null);
  /** The field errors of the last save, until the dialog opens again. */
  const [fields, setFields] = useState<Record<string, string[]>>({});

  useEffect(() => setView(data), [data]);

  useFetcherResult(fetcher, (result) => {
    if (result.ok) {
      setView(result.data);
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
  const canReport = editable && view.canReport;
  const canSelectOthers = view.users.some((u) => u.id !== currentUserId);
  const mayChange = (row: TimeRow) => canReport && !row.locked && (row.userId === currentUserId || canSelectOthers);
  const err = (...keys: string[]) => {
    const list = keys.flatMap((k) => fields[k] ?? []).map((k) => tc(k));
    return list.length ? list : undefined;
  };

  const clock = (iso: string) => isoToWallClock(iso, timeZone).slice(11, 16);
  const when = (row: TimeRow) =>
    row.startTs && row.endTs
      ? `${clock(row.startTs)}–${clock(row.endTs)}`
      : t('time.hoursValue', { value: formatDuration(row.workMinutes) });

  function save(d: Draft) {
    const form: Record<string, string> = {
      intent: 'save',
      id: d.id ?? '',
      userId: d.userId,
      mode: d.mode,
      date: d.date,
      start: d.start,
      end: d.end,
      hours: d.hours,
      minutes: d.minutes,
      travelHours: d.travelHours,
      travelMinutes: d.travelMinutes,
      distanceKm: d.distanceKm,
      comment: d.comment,
    };
    void fetcher.submit(form, { method: 'post', action: `/work-orders/${workOrderId}/time` });
  }

  function openDraft(d: Draft) {
    setFields({});
    setDraft(d);
  }

  const set = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  return (
    <section
      aria-labelledby={`wo-time-${workOrderId}`}
      className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex items-center justify-between gap-2">
        <h3 id={`wo-time-${workOrderId}`} className="text-base font-semibold">
          {t('time.title')}
        </h3>
        {canReport ? (
          <Button size="sm" onPress={() => openDraft(draftOf(null, currentUserId, timeZone))}>
            {t('time.add')}
          </Button>
        ) : null}
      </div>

      {view.rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t('time.empty')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100">
          {view.rows.map((row) => (
            <li key={row.id} className="flex flex-wrap items-start justify-between gap-2 py-2">
              <div className="min-w-0 text-sm">
                <div className="flex items-center gap-1 font-medium">
                  {row.locked ? (
                    <span className="text-slate-600" title={t('time.locked')}>
                      <LockIcon />
                      <span className="sr-only">{t('time.locked')}</span>
                    </span>
                  ) : null}
                  <span className="break-words">{row.userName}</span>
                </div>
                <div className="text-slate-700">
                  {formatDate(row.date, dateFormat)} · {when(row)}
                  {row.startTs ? ` (${formatDuration(row.workMinutes)})` : null}
                </div>
                {row.travelMinutes || row.distanceKm ? (
                  <div className="text-slate-600">
                    {row.travelMinutes ? t('time.travelValue', { value: formatDuration(row.travelMinutes) }) : null}
                    {row.travelMinutes && row.distanceKm ? ' · ' : null}
                    {row.distanceKm
                      ? t('time.distanceValue', { value: String(row.distanceKm).replace('.', ',') })
                      : null}
                  </div>
                ) : null}
                {row.comment ? <div className="break-words text-slate-600">{row.comment}</div> : null}
              </div>
              {mayChange(row) ? (
                <div className="flex gap-1">
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={t('time.editRow', { name: row.userName, date: row.date })}
                    onPress={() => openDraft(draftOf(row, currentUserId, timeZone))}
                  >
                    {t('time.edit')}
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={t('time.deleteRow', { name: row.userName, date: row.date })}
                    onPress={() => setDeleting(row)}
                  >
                    {t('time.delete')}
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 border-t border-slate-200 pt-2 text-sm">
        <div className="flex gap-2">
          <dt className="text-slate-600">{t('time.totalWork')}</dt>
          <dd className="font-medium tabular-nums">{formatDuration(view.totals.workMinutes)}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-slate-600">{t('time.totalTravel')}</dt>
          <dd className="tabular-nums">{formatDuration(view.totals.travelMinutes)}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-slate-600">{t('time.totalDistance')}</dt>
          <dd className="tabular-nums">
            {t('time.distanceValue', { value: String(view.totals.distanceKm).replace('.', ',') })}
          </dd>
        </div>
      </dl>

      <Dialog
        title={draft?.id ? t('time.editTitle') : t('time.addTitle')}
        isOpen={draft !== null}
        onOpenChange={(open) => {
          if (!open) setDraft(null);
        }}
        isDismissable={!busy}
        footer={({ close }) => (
          <>
            <Button variant="secondary" onPress={close} isDisabled={busy}>
              {t('time.cancel')}
            </Button>
            <Button isPending={busy} onPress={() => draft && save(draft)}>
              {t('time.save')}
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
            {canSelectOthers ? (
              <Select
                label={t('time.person')}
                items={view.users.map((u) => ({ id: u.id, label: u.name }))}
                selectedKey={draft.userId}
                onSelectionChange={(key) => key && set({ userId: String(key) })}
                errorMessage={err('userId')}
              />
            ) : null}
            <fieldset className="grid gap-2">
              <legend className="text-sm font-medium text-gray-900">{t('time.mode')}</legend>
              <div className="flex flex-wrap gap-4 text-sm">
                {(['span', 'hours'] as const).map((m) => (
                  <label key={m} className="flex min-h-11 items-center gap-2 sm:min-h-9">
                    <input
                      type="radio"
                      name="mode"
                      value={m}
                      checked={draft.mode === m}
                      onChange={() => set({ mode: m })}
                      className="size-4"
                    />
                    {t(m === 'span' ? 'time.modeSpan' : 'time.modeHours')}
                  </label>
                ))}
              </div>
            </fieldset>
            {draft.mode === 'span' ? (
              <div className="grid gap-3 sm:grid-cols-2">
                <DatePicker
                  label={t('time.start')}
                  granularity="minute"
                  errorMessage={err('startTs')}
                  value={dateTimeValueOf(draft.start)}
                  onChange={(v) => set({ start: wallClockOf(v) })}
                />
                <DatePicker
                  label={t('time.end')}
                  granularity="minute"
                  errorMessage={err('endTs')}
                  value={dateTimeValueOf(draft.end)}
                  onChange={(v) => set({ end: wallClockOf(v) })}
                />
              </div>
            ) : (
              <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
                <DatePicker
                  label={t('time.date')}
                  value={dateValueOf(draft.date)}
                  onChange={(v) => set({ date: v?.toString() ?? '' })}
                  errorMessage={err('date')}
                  className="col-span-2 sm:col-span-1"
                />
                <Field label={t('time.hours')} errors={err('hours')}>
                  {(props) => (
                    <input
                      {...props}
                      inputMode="numeric"
                      value={draft.hours}
                      onChange={(e) => set({ hours: e.target.value })}
                    />
                  )}
                </Field>
                <Field label={t('time.minutes')} errors={err('minutes')}>
                  {(props) => (
                    <input
                      {...props}
                      inputMode="numeric"
                      value={draft.minutes}
                      onChange={(e) => set({ minutes: e.target.value })}
                    />
                  )}
                </Field>
              </div>
            )}
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              <Field label={t('time.travelHours')} errors={err('travelHours')}>
                {(props) => (
                  <input
                    {...props}
                    inputMode="numeric"
                    value={draft.travelHours}
                    onChange={(e) => set({ travelHours: e.target.value })}
                  />
                )}
              </Field>
              <Field label={t('time.travelMinutes')} errors={err('travelMinutes')}>
                {(props) => (
                  <input
                    {...props}
                    inputMode="numeric"
                    value={draft.travelMinutes}
                    onChange={(e) => set({ travelMinutes: e.target.value })}
                  />
                )}
              </Field>
              <Field label={t('time.distance')} errors={err('distanceKm')} className="col-span-2 sm:col-span-1">
                {(props) => (
                  <input
                    {...props}
                    inputMode="decimal"
                    value={draft.distanceKm}
                    onChange={(e) => set({ distanceKm: e.target.value })}
                  />
                )}
              </Field>
            </div>
            <TextField
              label={t('time.comment')}
              value={draft.comment}
              onChange={(v) => set({ comment: v })}
              errorMessage={err('comment')}
            />
            {/* Enter in a field saves */}
            <button type="submit" hidden />
          </form>
        ) : null}
      </Dialog>

      <ConfirmDialog
        title={t('time.deleteTitle')}
        message={
          deleting
            ? t('time.deleteMessage', { name: deleting.userName, date: formatDate(deleting.date, dateFormat) })
            : undefined
        }
        confirmLabel={t('time.delete')}
        variant="danger"
        isOpen={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        isPending={busy}
        onConfirm={() => {
          if (deleting)
            void fetcher.submit(
              { intent: 'delete', id: deleting.id },
              { method: 'post', action: `/work-orders/${workOrderId}/time` },
            );
        }}
      />
    </section>
  );
}

/** A labelled native input (date and time pickers, numbers) with its errors. */
function Field({
  label,
  errors,
  className,
  children,
}: {
  label: string;
  errors?: string[];
  className?: string;
  children: (props: {
    id: string;
    className: string;
    'aria-invalid'?: boolean;
    'aria-describedby'?: string;
  }) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className ?? ''}`}>
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      {children({
        id,
        className: INPUT,
        'aria-invalid': errors ? true : undefined,
        'aria-describedby': errors ? `${id}-error` : undefined,
      })}
      {errors ? (
        <span id={`${id}-error`} className="text-sm text-red-700">
          {errors.join(' ')}
        </span>
      ) : null}
    </div>
  );
}
