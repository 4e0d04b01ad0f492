import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate, type DateFormat } from '~/core/i18n/number-format';
import type { ScheduleItem } from '~/core/work-orders/schedule.service';

/**
 * Who is planned on the order and when (its schedule reports), each linking to that week of the
 * calendar where plans are made and moved.
 */
export function PlansStrip({
  plans,
  dateFormat,
}: {
  plans: (ScheduleItem & { userName: string })[];
  dateFormat: DateFormat;
}) {
  const { t } = useTranslation('calendar');
  return (
    <section aria-labelledby="wo-plans" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h3 id="wo-plans" className="text-base font-semibold">
        {t('order.title')}
      </h3>
      {plans.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">
          {t('order.none')}{' '}
          <Link to="/work-orders/calendar" className="text-blue-800 underline">
            {t('order.toCalendar')}
          </Link>
        </p>
      ) : (
        <ul className="mt-2 grid gap-1 text-sm">
          {plans.map((p) => (
            <li key={p.id}>
              <Link
                to={`/work-orders/calendar?period=week&perspective=technician&step=1&date=${p.date}`}
                className="text-blue-800 hover:underline"
              >
                <span className="font-medium">{p.userName}</span> · {formatDate(p.date, dateFormat)} {p.startTime}–
                {p.endTime}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
