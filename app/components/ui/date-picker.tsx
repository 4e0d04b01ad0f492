import { useMemo } from 'react';
import {
  CalendarDateTime,
  DateFormatter,
  getDayOfWeek,
  getLocalTimeZone,
  GregorianCalendar,
  parseDate,
  parseDateTime,
  toCalendar,
  today,
  type CalendarDate,
} from '@internationalized/date';
import {
  Button as AriaButton,
  Calendar as AriaCalendar,
  CalendarCell,
  CalendarGrid,
  CalendarGridBody,
  DateInput,
  DatePicker as AriaDatePicker,
  DateSegment,
  Dialog as AriaDialog,
  Group,
  Heading,
  Popover,
  useLocale,
  type CalendarProps as AriaCalendarProps,
  type DateValue,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { cx, FOCUS_RING } from './class-names';
import {
  FIELD_CLASS,
  FieldDescription,
  FieldErrorText,
  FieldLabel,
  hasError,
  INNER_BUTTON_CLASS,
  INPUT_BOX_CLASS,
  type ErrorMessage,
} from './field';
import { CalendarIcon, ChevronLeftIcon, ChevronRightIcon } from './icons';
import { isoWeek } from '~/core/calendar/dates';

export type { DateValue };

/** Spec section 9: weeks start on Monday, times use the 24-hour clock. */
const FIRST_DAY_OF_WEEK = 'mon';
const HOUR_CYCLE = 24;
/** Spec section 9: a date picker with a time proposes 12:00. */
const DEFAULT_HOUR = 12;

const gregorian = new GregorianCalendar();

export type CalendarProps = Omit<
  AriaCalendarProps<DateValue>,
  'className' | 'children' | 'render' | 'style' | 'firstDayOfWeek' | 'visibleDuration'
>;

/**
 * A month calendar with ISO 8601 week numbers in the first column, weeks from Monday. Used inside
 * DatePicker; also usable on its own (give it an `aria-label`).
 */
export function Calendar(props: CalendarProps) {
  const { t } = useTranslation('ui');
  return (
    <AriaCalendar {...props} firstDayOfWeek={FIRST_DAY_OF_WEEK} className="w-fit max-w-full">
      <header className="flex items-center gap-1 pb-2">
        <Button slot="previous" variant="ghost" isIconOnly aria-label={t('previousMonth')}>
          <ChevronLeftIcon />
        </Button>
        <Heading className="flex-1 text-center text-base font-semibold text-gray-900 capitalize" />
        <Button slot="next" variant="ghost" isIconOnly aria-label={t('nextMonth')}>
          <ChevronRightIcon />
        </Button>
      </header>
      <WeekNumberGrid />
    </AriaCalendar>
  );
}

function WeekNumberGrid() {
  const { t } = useTranslation('ui');
  const { locale } = useLocale();
  const weekdays = useMemo(() => {
    const formatter = new DateFormatter(locale, { weekday: 'short', timeZone: 'UTC' });
    // 2024-01-01 was a Monday.
    return [0, 1, 2, 3, 4, 5, 6].map((i) => formatter.format(new Date(Date.UTC(2024, 0, 1 + i))));
  }, [locale]);

  const cell = (date: CalendarDate) => (
    <CalendarCell
      date={date}
      className={cx(
        'm-px flex size-10 cursor-default items-center justify-center rounded-full text-sm text-gray-900 select-none sm:pointer-fine:size-9',
        FOCUS_RING,
        'data-outside-month:text-gray-400 data-hovered:bg-gray-100 data-pressed:bg-gray-200',
        'data-today:font-bold data-today:underline data-today:underline-offset-4',
        'data-selected:bg-blue-700 data-selected:text-white',
        'data-disabled:cursor-not-allowed data-disabled:text-gray-300',
        'data-unavailable:text-gray-400 data-unavailable:line-through',
        'data-invalid:data-selected:bg-red-700',
      )}
    />
  );

  return (
    <CalendarGrid className="border-collapse">
      {/* Weekday names are part of every day's accessible name already, as in React Aria's own header. */}
      <thead aria-hidden="true">
        <tr>
          <th className="w-8 pb-1 text-xs font-medium text-gray-500">{t('weekShort')}</th>
          {weekdays.map((day, i) => (
            <th key={i} className="pb-1 text-xs font-medium text-gray-600">
              {day}
            </th>
          ))}
        </tr>
      </thead>
      <CalendarGridBody>
        {(date) => {
          if (getDayOfWeek(date, locale, FIRST_DAY_OF_WEEK) !== 0) return cell(date);
          // The week number heads the row, so moving to a new row announces "Week 53".
          const { week } = isoWeek(toCalendar(date, gregorian));
          return (
            <>
              <th scope="row" className="w-8 text-xs font-normal text-gray-500 tabular-nums">
                <span className="sr-only">{t('week')} </span>
                {week}
              </th>
              {cell(date)}
            </>
          );
        }}
      </CalendarGridBody>
    </CalendarGrid>
  );
}

export interface DatePickerProps {
  /** Visible label, already translated. */
  label: string;
  /** Form field name: posts the ISO value ("2024-03-05", or "2024-03-05T12:00:00" with a time). */
  name?: string;
  value?: DateValue | null;
  defaultValue?: DateValue | null;
  onChange?: (value: DateValue | null) => void;
  /** `day` for a date only; `minute` adds a 24-hour time that starts at 12:00. */
  granularity?: 'day' | 'hour' | 'minute';
  minValue?: DateValue;
  maxValue?: DateValue;
  isDateUnavailable?: (date: DateValue) => boolean;
  /** The date (and time) the empty field proposes; today, at 12:00 with a time. */
  placeholderValue?: DateValue;
  description?: string;
  errorMessage?: ErrorMessage;
  /** Marks the field invalid when the error is shown elsewhere (e.g. one message for a period's two dates). */
  isInvalid?: boolean;
  isRequired?: boolean;
  isDisabled?: boolean;
  isReadOnly?: boolean;
  autoFocus?: boolean;
  /** Layout only. */
  className?: string;
}

/**
 * A date (or date and time) field: type the segments with the keyboard or pick from the calendar.
 * Segment order and separators follow the locale from the app's `I18nProvider`.
 */
export function DatePicker({
  label,
  granularity = 'day',
  placeholderValue,
  description,
  errorMessage,
  isInvalid,
  isRequired,
  className,
  ...props
}: DatePickerProps) {
  const { t } = useTranslation('ui');
  const hasTime = granularity !== 'day';
  const proposed = useMemo(() => {
    if (placeholderValue || !hasTime) return placeholderValue;
    const now = today(getLocalTimeZone());
    return new CalendarDateTime(now.year, now.month, now.day, DEFAULT_HOUR, 0);
  }, [placeholderValue, hasTime]);

  return (
    <AriaDatePicker
      {...props}
      granularity={granularity}
      placeholderValue={proposed}
      hourCycle={HOUR_CYCLE}
      firstDayOfWeek={FIRST_DAY_OF_WEEK}
      shouldForceLeadingZeros
      isRequired={isRequired}
      isInvalid={isInvalid || hasError(errorMessage) || undefined}
      className={cx(FIELD_CLASS, className)}
    >
      <FieldLabel isRequired={isRequired}>{label}</FieldLabel>
      <Group
        className={cx(
          INPUT_BOX_CLASS,
          'flex items-center overflow-hidden',
          'data-focus-within:border-blue-600 data-focus-within:ring-2 data-focus-within:ring-blue-600/30',
        )}
      >
        <DateInput className="flex min-w-0 flex-1 items-center overflow-x-auto px-3 tabular-nums">
          {(segment) => (
            <DateSegment
              segment={segment}
              className={cx(
                'rounded-sm px-0.5 outline-none',
                'data-placeholder:text-gray-500 data-[type=literal]:px-0',
                'data-focused:bg-blue-700 data-focused:text-white',
              )}
            />
          )}
        </DateInput>
        <AriaButton aria-label={t('openCalendar')} className={INNER_BUTTON_CLASS}>
          <CalendarIcon />
        </AriaButton>
      </Group>
      <FieldDescription>{description}</FieldDescription>
      <FieldErrorText errorMessage={errorMessage} />
      <Popover className="max-w-[calc(100vw-1rem)] overflow-auto rounded-md border border-gray-200 bg-white shadow-lg outline-none">
        <AriaDialog className="p-2 outline-none">
          <Calendar />
        </AriaDialog>
      </Popover>
    </AriaDatePicker>
  );
}

/**
 * A stored date (`YYYY-MM-DD`) as the picker's value: null for none or for text that is not a date,
 * so a bad value in the database shows an empty field instead of breaking the page.
 */
export function dateValueOf(iso: unknown): CalendarDate | null {
  if (typeof iso !== 'string' || !iso) return null;
  try {
    return parseDate(iso.slice(0, 10));
  } catch {
    return null;
  }
}

/**
 * A stored wall-clock time (`YYYY-MM-DDTHH:MM`, seconds optional) as a picker value with a time;
 * null for none or for text that is not one, like `dateValueOf`.
 */
export function dateTimeValueOf(wallClock: unknown): CalendarDateTime | null {
  if (typeof wallClock !== 'string' || !wallClock) return null;
  try {
    return parseDateTime(wallClock.slice(0, 19));
  } catch {
    return null;
  }
}

/** A picker value back as the wall-clock text the forms keep (`YYYY-MM-DDTHH:MM`); "" for none. */
export function wallClockOf(value: DateValue | null | undefined): string {
  if (!value || !('hour' in value)) return '';
  return value.toString().slice(0, 16);
}
