import type { TFunction } from 'i18next';
import { addMonthsToFirst, isoWeek, type PlainDate } from '~/core/calendar/dates';
import { viewRange, type CalendarColumn, type CalendarView } from '~/core/work-orders/calendar-rules';
import { dateTimeFormat } from '~/core/i18n/intl-cache';

const asDate = (d: PlainDate) => new Date(Date.UTC(d.year, d.month - 1, d.day, 12));

/** The month's name in the page's language ("december 2026"). */
function monthName(t: TFunction, d: PlainDate, style: 'long' | 'short' = 'long'): string {
  return dateTimeFormat(t('calendar:locale'), { month: style, year: 'numeric', timeZone: 'UTC' }).format(asDate(d));
}

/** The toolbar's heading: the day, week, month, quarter, half year or year shown. */
export function periodTitle(t: TFunction, view: CalendarView): string {
  const { from, to } = viewRange(view);
  if (view.perspective === 'project') {
    if (view.step === 1) return monthName(t, from);
    return `${monthName(t, from, 'short')} – ${monthName(t, addMonthsToFirst(to, -1), 'short')}`;
  }
  switch (view.period) {
    case 'day':
      return dateTimeFormat(t('calendar:locale'), { dateStyle: 'full', timeZone: 'UTC' }).format(asDate(from));
    case 'week':
      return t('calendar:title.week', { week: isoWeek(from).week, year: from.year });
    case 'month':
      return monthName(t, from);
    case 'quarter':
      return t('calendar:title.quarter', { quarter: Math.floor((from.month - 1) / 3) + 1, year: from.year });
    case 'half_year':
      return t('calendar:title.halfYear', { half: from.month === 1 ? 1 : 2, year: from.year });
    default:
      return String(from.year);
  }
}

/** A column's heading and its spoken form. */
export function columnLabel(t: TFunction, c: CalendarColumn): { short: string; long: string } {
  if (c.kind === 'hour') {
    const hh = `${String(c.hour).padStart(2, '0')}:00`;
    return { short: String(c.hour).padStart(2, '0'), long: hh };
  }
  if (c.kind === 'week')
    return {
      short: t('calendar:column.week', { week: c.week }),
      long: t('calendar:column.weekLong', { week: c.week, year: c.year }),
    };
  const weekday = dateTimeFormat(t('calendar:locale'), { weekday: 'short', timeZone: 'UTC' }).format(asDate(c.date));
  const long = dateTimeFormat(t('calendar:locale'), { dateStyle: 'full', timeZone: 'UTC' }).format(asDate(c.date));
  return { short: `${weekday} ${c.date.day}`, long };
}
