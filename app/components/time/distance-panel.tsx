import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher, useRouteLoaderData } from 'react-router';
import { Button, ConfirmDialog, Dialog, formatDate, TextField, useToast, type DateFormat } from '~/app/components/ui';
import type { loader as rootLoader } from '~/app/root';
import type { ExpensesActionResult } from '~/app/routes/time.expenses';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import type { CompensationTag } from '~/core/time-reports/compensation-tags.service';
import type { DistanceReport, LastReading } from '~/core/time-reports/distance.service';
import { ExpenseField, formatKm, LockIcon, parseTyped, typedOf, useTagLabel, weekdayOf } from './expense-shared';

export interface DistancePanelProps {
  year: number;
  week: number;
  /** Whose trips. */
  userId: string;
  /** The week's seven dates, Monday first. */
  days: string[];
  /** The week's trips (weekExpenses(…).distance.rows). */
  rows: DistanceReport[];
  /** The compensation tags; the distance ones are offered as the trip's mileage allowance. */
  tags: CompensationTag[];
  /** The person's latest odometer reading, to prefill a new trip. */
  lastReading?: LastReading | null;
  canEdit: boolean;
}

type Mode = 'reading' | 'km';

interface Draft {
  id: string | null;
  date: string;
  mode: Mode;
  vehicle: string;
  readingKm: string;
  reportedDistanceKm: string;
  tagId: string;
  comment: string;
  /** The reading the trip is measured from (the vehicle's last, or the row's previous). */
  previousReadingKm: number | null;
  /** The vehicle whose last reading `previousReadingKm` is (a new trip only). */
  previousFor: string | null;
}

/** Today when it lies in the week, else the week's Monday. */
function defaultDay(days: string[]): string {
  const now = new Date();
  const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return days.includes(today) ? today : days[0]!;
}

function draftOf(row: DistanceReport | null, days: string[], last: LastReading | null | undefined): Draft {
  if (!row)
    return {
      id: null,
      date: defaultDay(days),
      mode: 'reading',
      vehicle: last?.vehicle ?? '',
      readingKm: typedOf(last?.readingKm),
      reportedDistanceKm: '',
      tagId: '',
      comment: '',
      previousReadingKm: last?.readingKm ?? null,
      previousFor: last?.vehicle ?? '',
    };
  return {
    id: row.id,
    date: row.date,
    mode: row.readingKm === null ? 'km' : 'reading',
    vehicle: row.vehicle,
    readingKm: typedOf(row.readingKm),
    reportedDistanceKm: row.readingKm === null || row.previousReadingKm === null ? typedOf(row.reportedDistanceKm) : '',
    tagId: row.tagId ?? '',
    comment: row.comment ?? '',
    previousReadingKm: row.previousReadingKm,
    previousFor: null,
  };
}

/**
 * The week's trips (issue 17; spec section 3 "Distance report"): each by the odometer at its end
 * — the field prefilled with the last reading, the trip's kilometres shown as they are typed — or
 * by kilometres directly, with an optional mileage allowance (821 …). Adding and changing happen
 * in a dialog; deleting asks first; trips in a locked period show a lock and cannot change. Posts
 * to /time/expenses; the page's loader then runs again.
 */
export function DistancePanel({ userId, days, rows, tags, lastReading, canEdit }: DistancePanelProps) {
  const { t } = useTranslation('expenses');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const tagLabel = useTagLabel();
  const dateFormat = (useRouteLoaderData<typeof rootLoader>('root')?.dateFormat as DateFormat) ?? 'YYYY-MM-DD';
  const fetcher = useFetcher<ExpensesActionResult>();
  const lastFetcher = useFetcher<{ lastReading: LastReading | null }>();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState<DistanceReport | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const busy = fetcher.state !== 'idle';

  useFetcherResult(fetcher, (result) => {
    if (result.ok) {
      toast.show({
        kind: 'success',
        message: tc(result.intent === 'deleteDistance' ? 'SUCCESSFULLY_DELETED' : 'SUCCESSFULLY_SAVED'),
      });
      setDraft(null);
      setDeleting(null);
    } else {
      setFields(result.fields ?? {});
      if (result.code !== 'VALIDATION_FAILED' || !draft) toast.show({ kind: 'error', message: tc(result.code) });
    }
  });

  // another vehicle typed on a new trip: its own last reading is what the trip is measured from
  const fetched = lastFetcher.state === 'idle' ? lastFetcher.data : undefined;
  useEffect(() => {
    if (!fetched) return;
    setDraft((d) => {
      if (!d || d.id || d.previousFor === null) return d;
      const reading = fetched.lastReading?.readingKm ?? null;
      const untouched = d.readingKm === '' || parseTyped(d.readingKm) === d.previousReadingKm;
      return {
        ...d,
        previousReadingKm: reading,
        previousFor: d.vehicle,
        readingKm: untouched ? typedOf(reading) : d.readingKm,
      };
    });
  }, [fetched]);

  const distanceTags = tags.filter((tag) => tag.type === 'distance');
  const err = (...keys: string[]) => {
    const list = keys.flatMap((k) => fields[k] ?? []).map((k) => tc(k));
    return list.length ? list : undefined;
  };
  const dayLabel = (date: string) => `${t(`weekday.${weekdayOf(date)}`)} ${formatDate(date, dateFormat)}`;
  const set = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  function open(row: DistanceReport | null) {
    setFields({});
    setDraft(draftOf(row, days, lastReading));
  }

  function vehicleChanged(d: Draft) {
    const vehicle = d.vehicle.trim().replace(/\s+/g, ' ').toUpperCase();
    if (d.id || vehicle === d.previousFor) return;
    void lastFetcher.load(`/time/expenses?${new URLSearchParams({ userId, vehicle })}`);
  }

  function save(d: Draft) {
    void fetcher.submit(
      {
        intent: 'saveDistance',
        id: d.id ?? '',
        userId,
        date: d.date,
        mode: d.mode,
        vehicle: d.vehicle,
        readingKm: d.mode === 'reading' ? d.readingKm : '',
        reportedDistanceKm: d.reportedDistanceKm,
        tagId: d.tagId,
        comment: d.comment,
      },
      { method: 'post', action: '/time/expenses' },
    );
  }

  const totalKm = rows.reduce((s, r) => s + Math.round(r.reportedDistanceKm * 10), 0) / 10;
  const typedReading = draft ? parseTyped(draft.readingKm) : null;
  const liveKm =
    draft && draft.mode === 'reading' && typedReading !== null && draft.previousReadingKm !== null
      ? (Math.round(typedReading * 10) - Math.round(draft.previousReadingKm * 10)) / 10
      : null;
  // an odometer trip without a reading: the server misses the kilometres, the form the reading
  const readingErrors =
    draft?.mode === 'reading' && draft.readingKm.trim() === ''
      ? err('readingKm', 'reportedDistanceKm')
      : err('readingKm');

  return (
    <section
      aria-labelledby="expenses-distance"
      className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id="expenses-distance" className="text-base font-semibold">
          {t('distance.title')}
        </h2>
        {canEdit ? (
          <Button size="sm" onPress={() => open(null)}>
            {t('distance.add')}
          </Button>
        ) : null}
      </div>

      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t('distance.empty')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100">
          {rows.map((row) => {
            const tag = row.tagId ? tags.find((x) => x.id === row.tagId) : undefined;
            return (
              <li key={row.id} className="flex flex-wrap items-start justify-between gap-2 py-2">
                <div className="min-w-0 text-sm">
                  <div className="flex flex-wrap items-center gap-x-2 font-medium">
                    {row.locked ? (
                      <span className="text-slate-600" title={t('locked')}>
                        <LockIcon />
                        <span className="sr-only">{t('locked')}</span>
                      </span>
                    ) : null}
                    <span>{dayLabel(row.date)}</span>
                    <span className="tabular-nums">
                      {t('distance.km', { value: formatKm(row.reportedDistanceKm) })}
                    </span>
                  </div>
                  <div className="text-slate-700">
                    {row.vehicle ? <span className="me-2">{row.vehicle}</span> : null}
                    {row.readingKm !== null ? (
                      <span className="tabular-nums">
                        {row.previousReadingKm !== null
                          ? t('distance.reading', {
                              from: formatKm(row.previousReadingKm),
                              to: formatKm(row.readingKm),
                            })
                          : t('distance.readingOnly', { to: formatKm(row.readingKm) })}
                      </span>
                    ) : null}
                  </div>
                  {tag ? <div className="text-slate-600">{tagLabel(tag)}</div> : null}
                  {row.comment ? <div className="break-words text-slate-600">{row.comment}</div> : null}
                </div>
                {canEdit && !row.locked ? (
                  <div className="flex gap-1">
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t('distance.editRow', { date: dayLabel(row.date) })}
                      onPress={() => open(row)}
                    >
                      {t('edit')}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={t('distance.deleteRow', { date: dayLabel(row.date) })}
                      onPress={() => setDeleting(row)}
                    >
                      {t('delete')}
                    </Button>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}

      <dl className="mt-3 flex gap-2 border-t border-slate-200 pt-2 text-sm">
        <dt className="text-slate-600">{t('distance.total')}</dt>
        <dd className="font-medium tabular-nums">{t('distance.km', { value: formatKm(totalKm) })}</dd>
      </dl>

      <Dialog
        title={draft?.id ? t('distance.editTitle') : t('distance.addTitle')}
        isOpen={draft !== null}
        onOpenChange={(isOpen) => {
          if (!isOpen) setDraft(null);
        }}
        isDismissable={!busy}
        footer={({ close }) => (
          <>
            <Button variant="secondary" onPress={close} isDisabled={busy}>
              {t('cancel')}
            </Button>
            <Button isPending={busy} onPress={() => draft && save(draft)}>
              {t('save')}
            </Button>
          </>
        )}
      >
        {draft ? (
          <form
            className="grid gap-3"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              save(draft);
            }}
          >
            <ExpenseField label={t('distance.date')} errors={err('date')}>
              {(props) => (
                <select {...props} value={draft.date} onChange={(e) => set({ date: e.target.value })}>
                  {days.map((day) => (
                    <option key={day} value={day}>
                      {dayLabel(day)}
                    </option>
                  ))}
                </select>
              )}
            </ExpenseField>
            <fieldset className="grid gap-2">
              <legend className="text-sm font-medium text-gray-900">{t('distance.mode')}</legend>
              <div className="flex flex-wrap gap-4 text-sm">
                {(['reading', 'km'] as const).map((m) => (
                  <label key={m} className="flex min-h-11 items-center gap-2 sm:min-h-9">
                    <input
                      type="radio"
                      name="distance-mode"
                      value={m}
                      checked={draft.mode === m}
                      onChange={() => set({ mode: m })}
                      className="size-4"
                    />
                    {t(m === 'reading' ? 'distance.modeReading' : 'distance.modeKm')}
                  </label>
                ))}
              </div>
            </fieldset>
            <TextField
              label={t('distance.vehicle')}
              description={t('distance.vehicleHint')}
              value={draft.vehicle}
              onChange={(v) => set({ vehicle: v })}
              onBlur={() => vehicleChanged(draft)}
              errorMessage={err('vehicle')}
            />
            {draft.mode === 'reading' ? (
              <>
                <ExpenseField
                  label={t('distance.readingKm')}
                  errors={readingErrors}
                  description={
                    draft.previousReadingKm !== null
                      ? t('distance.previous', { value: formatKm(draft.previousReadingKm) })
                      : t('distance.noPrevious')
                  }
                >
                  {(props) => (
                    <input
                      {...props}
                      inputMode="decimal"
                      autoComplete="off"
                      value={draft.readingKm}
                      onChange={(e) => set({ readingKm: e.target.value })}
                    />
                  )}
                </ExpenseField>
                {liveKm !== null ? (
                  <p className="text-sm font-medium tabular-nums" role="status" aria-live="polite">
                    {t('distance.computed', { value: formatKm(liveKm) })}
                  </p>
                ) : null}
                {draft.previousReadingKm === null ? (
                  <ExpenseField
                    label={t('distance.firstKm')}
                    errors={draft.readingKm.trim() === '' ? undefined : err('reportedDistanceKm')}
                  >
                    {(props) => (
                      <input
                        {...props}
                        inputMode="decimal"
                        value={draft.reportedDistanceKm}
                        onChange={(e) => set({ reportedDistanceKm: e.target.value })}
                      />
                    )}
                  </ExpenseField>
                ) : null}
              </>
            ) : (
              <ExpenseField label={t('distance.reportedDistanceKm')} errors={err('reportedDistanceKm')}>
                {(props) => (
                  <input
                    {...props}
                    inputMode="decimal"
                    value={draft.reportedDistanceKm}
                    onChange={(e) => set({ reportedDistanceKm: e.target.value })}
                  />
                )}
              </ExpenseField>
            )}
            {distanceTags.length ? (
              <ExpenseField label={t('distance.tag')} errors={err('tagId')}>
                {(props) => (
                  <select {...props} value={draft.tagId} onChange={(e) => set({ tagId: e.target.value })}>
                    <option value="">{t('distance.noTag')}</option>
                    {distanceTags
                      .filter((tag) => tag.active || tag.id === draft.tagId)
                      .map((tag) => (
                        <option key={tag.id} value={tag.id}>
                          {tagLabel(tag)}
                        </option>
                      ))}
                  </select>
                )}
              </ExpenseField>
            ) : null}
            <TextField
              label={t('distance.comment')}
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
        title={t('distance.deleteTitle')}
        message={
          deleting
            ? t('distance.deleteMessage', { date: dayLabel(deleting.date), km: formatKm(deleting.reportedDistanceKm) })
            : undefined
        }
        confirmLabel={t('delete')}
        variant="danger"
        isOpen={deleting !== null}
        onOpenChange={(isOpen) => {
          if (!isOpen) setDeleting(null);
        }}
        isPending={busy}
        onConfirm={() => {
          if (deleting)
            void fetcher.submit(
              { intent: 'deleteDistance', id: deleting.id },
              { method: 'post', action: '/time/expenses' },
            );
        }}
      />
    </section>
  );
}
