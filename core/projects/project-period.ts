import { addMonthsToFirst, endOfMonth } from '~/core/calendar/dates';
import type { ProjectPeriod } from './project.schema';

/**
 * The project list's period (spec section 2 "project list state: period, date"; section 9:
 * quarter by default): the calendar month, quarter, half year or year that holds `date`. A
 * project is in the period when its dates overlap it; a project without dates always is.
 */
export function projectPeriodRange(period: ProjectPeriod, date: string): { from: string; to: string } | null {
  if (period === 'all') return null;
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const months = period === 'month' ? 1 : period === 'quarter' ? 3 : period === 'half_year' ? 6 : 12;
  const firstMonth = Math.floor((month - 1) / months) * months + 1;
  const from = `${year}-${String(firstMonth).padStart(2, '0')}-01`;
  return { from, to: endOfMonth(addMonthsToFirst(from, months - 1)) };
}

/** The same period before or after (`step` −1 or +1). */
export function shiftProjectPeriod(period: ProjectPeriod, date: string, step: number): string {
  const months = period === 'month' ? 1 : period === 'quarter' ? 3 : period === 'half_year' ? 6 : 12;
  return addMonthsToFirst(`${date.slice(0, 7)}-01`, months * step);
}
