import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '~/app/components/ui';
import { isoDayOfWeek } from '~/core/calendar/dates';
import type { CompensationTag } from '~/core/time-reports/compensation-tags.service';

/**
 * What the mileage and compensation panels share: numbers as the spec prints them, a tag's label,
 * the week's day names, and a labelled native input with its errors (number and date pickers).
 */

/** Kilometres: "50,5", "100". */
export const formatKm = (km: number): string => formatNumber(km, { decimals: Number.isInteger(km) ? 0 : 1 });

/** A quantity with the decimals it has (at most 2): "2", "1,5", "123,45". */
export const formatQuantity = (n: number): string =>
  formatNumber(n, { decimals: Number.isInteger(n) ? 0 : Number.isInteger(n * 10) ? 1 : 2 });

/** Money: "1 250,50". */
export const formatAmount = (n: number): string => formatNumber(n);

/** A typed number ("1 234,5") as a number; null when empty or not one. */
export function parseTyped(text: string): number | null {
  const clean = text.replace(/\s/g, '').replace(',', '.');
  if (clean === '') return null;
  const n = Number(clean);
  return Number.isFinite(n) ? n : null;
}

/** A number as it goes back into an input: "1250,5", "" for none. */
export const typedOf = (n: number | null | undefined): string =>
  n === null || n === undefined ? '' : String(n).replace('.', ',');

/** ISO weekday of a YYYY-MM-DD date: Monday 1 … Sunday 7. */
export function weekdayOf(date: string): number {
  return isoDayOfWeek(date);
}

/** "821 · Milersättning egen bil, skattefri": the code and the name typed, or the code's label. */
export function useTagLabel(): (tag: Pick<CompensationTag, 'code' | 'name'>) => string {
  const { t } = useTranslation('expenses');
  return (tag) => {
    const name = tag.name ?? t(`code.${tag.code}`, { defaultValue: '' });
    return name ? `${tag.code} · ${name}` : tag.code;
  };
}

const INPUT_CLASS =
  'w-full min-w-0 rounded-md border border-gray-300 bg-white px-2 text-base text-gray-900 shadow-xs min-h-11 sm:min-h-9 sm:text-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none aria-invalid:border-red-600';

/** A labelled native input (number, date, select) with its help text and errors. */
export function ExpenseField({
  label,
  errors,
  description,
  className,
  children,
}: {
  label: string;
  errors?: string[];
  description?: string;
  className?: string;
  children: (props: {
    id: string;
    className: string;
    'aria-invalid'?: boolean;
    'aria-describedby'?: string;
  }) => ReactNode;
}) {
  const id = useId();
  const described = [description ? `${id}-help` : null, errors ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className ?? ''}`}>
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      {children({
        id,
        className: INPUT_CLASS,
        'aria-invalid': errors ? true : undefined,
        'aria-describedby': described || undefined,
      })}
      {description ? (
        <span id={`${id}-help`} className="text-sm text-slate-600">
          {description}
        </span>
      ) : null}
      {errors ? (
        <span id={`${id}-error`} className="text-sm text-red-700">
          {errors.join(' ')}
        </span>
      ) : null}
    </div>
  );
}

/** A select of the week's days. */
export function DayField({
  label,
  errors,
  days,
  dayLabel,
  value,
  onChange,
}: {
  label: string;
  errors?: string[];
  days: string[];
  dayLabel: (date: string) => string;
  value: string;
  onChange: (date: string) => void;
}) {
  return (
    <ExpenseField label={label} errors={errors}>
      {(props) => (
        <select {...props} value={value} onChange={(e) => onChange(e.target.value)}>
          {days.map((day) => (
            <option key={day} value={day}>
              {dayLabel(day)}
            </option>
          ))}
        </select>
      )}
    </ExpenseField>
  );
}

/** A number typed as text ("1 234,5"), with the phone's decimal keyboard. */
export function DecimalField({
  label,
  errors,
  description,
  autoComplete,
  value,
  onChange,
}: {
  label: string;
  errors?: string[];
  description?: string;
  autoComplete?: string;
  value: string;
  onChange: (typed: string) => void;
}) {
  return (
    <ExpenseField label={label} errors={errors} description={description}>
      {(props) => (
        <input
          {...props}
          inputMode="decimal"
          autoComplete={autoComplete}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </ExpenseField>
  );
}
