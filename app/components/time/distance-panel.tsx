import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { TextField } from '~/app/components/ui';
import type { CompensationTag } from '~/core/time-reports/compensation-tags.service';
import type { DistanceReport, LastReading } from '~/core/time-reports/distance.service';
import {
  defaultDay,
  ExpenseDeleteDialog,
  ExpenseDialog,
  ExpenseRow,
  ExpenseSection,
  useExpensePanel,
} from './expense-panel';
import { DecimalField, ExpenseField, formatKm, parseTyped, typedOf } from './expense-shared';

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
  const panel = useExpensePanel<Draft, DistanceReport>('deleteDistance');
  const { tagLabel, busy, draft, setDraft, setDeleting, err, dayLabel, set, openDraft, submit } = panel;
  const lastFetcher = useFetcher<{ lastReading: LastReading | null }>();

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
  }, [fetched, setDraft]);

  const distanceTags = tags.filter((tag) => tag.type === 'distance');

  function open(row: DistanceReport | null) {
    openDraft(draftOf(row, days, lastReading));
  }

  function vehicleChanged(d: Draft) {
    const vehicle = d.vehicle.trim().replace(/\s+/g, ' ').toUpperCase();
    if (d.id || vehicle === d.previousFor) return;
    void lastFetcher.load(`/time/expenses?${new URLSearchParams({ userId, vehicle })}`);
  }

  function save(d: Draft) {
    submit({
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
    });
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
    <ExpenseSection
      headingId="expenses-distance"
      title={t('distance.title')}
      addLabel={t('distance.add')}
      onAdd={() => open(null)}
      canEdit={canEdit}
      empty={t('distance.empty')}
      isEmpty={rows.length === 0}
      rows={rows.map((row) => {
        const tag = row.tagId ? tags.find((x) => x.id === row.tagId) : undefined;
        return (
          <ExpenseRow
            key={row.id}
            locked={row.locked}
            head={
              <>
                <span>{dayLabel(row.date)}</span>
                <span className="tabular-nums">{t('distance.km', { value: formatKm(row.reportedDistanceKm) })}</span>
              </>
            }
            canEdit={canEdit}
            editLabel={t('distance.editRow', { date: dayLabel(row.date) })}
            deleteLabel={t('distance.deleteRow', { date: dayLabel(row.date) })}
            onEdit={() => open(row)}
            onDelete={() => setDeleting(row)}
          >
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
          </ExpenseRow>
        );
      })}
      totalLabel={t('distance.total')}
      total={t('distance.km', { value: formatKm(totalKm) })}
    >
      <ExpenseDialog
        title={draft?.id ? t('distance.editTitle') : t('distance.addTitle')}
        panel={panel}
        days={days}
        dateLabel={t('distance.date')}
        isDismissable={!busy}
        onSave={save}
      >
        {(draft) => (
          <>
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
                <DecimalField
                  label={t('distance.readingKm')}
                  errors={readingErrors}
                  description={
                    draft.previousReadingKm !== null
                      ? t('distance.previous', { value: formatKm(draft.previousReadingKm) })
                      : t('distance.noPrevious')
                  }
                  autoComplete="off"
                  value={draft.readingKm}
                  onChange={(v) => set({ readingKm: v })}
                />
                {liveKm !== null ? (
                  <p className="text-sm font-medium tabular-nums" role="status" aria-live="polite">
                    {t('distance.computed', { value: formatKm(liveKm) })}
                  </p>
                ) : null}
                {draft.previousReadingKm === null ? (
                  <DecimalField
                    label={t('distance.firstKm')}
                    errors={draft.readingKm.trim() === '' ? undefined : err('reportedDistanceKm')}
                    value={draft.reportedDistanceKm}
                    onChange={(v) => set({ reportedDistanceKm: v })}
                  />
                ) : null}
              </>
            ) : (
              <DecimalField
                label={t('distance.reportedDistanceKm')}
                errors={err('reportedDistanceKm')}
                value={draft.reportedDistanceKm}
                onChange={(v) => set({ reportedDistanceKm: v })}
              />
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
          </>
        )}
      </ExpenseDialog>

      <ExpenseDeleteDialog
        panel={panel}
        title={t('distance.deleteTitle')}
        message={(row) =>
          t('distance.deleteMessage', { date: dayLabel(row.date), km: formatKm(row.reportedDistanceKm) })
        }
      />
    </ExpenseSection>
  );
}
