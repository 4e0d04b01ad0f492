import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateTime, formatDate } from '~/app/components/ui';
import { useDateFormat } from '~/app/components/objects/shared';
import type { NextInspection, ObjectReport } from '~/core/service-reports/service-report.service';

/**
 * The service reports done at an object (issue 32 item 5), newest first, each with its order and
 * a link to its PDF once generated: part of the object's service log.
 */
export function ObjectServiceReports({ reports, next }: { reports: ObjectReport[]; next: NextInspection | null }) {
  const { t } = useTranslation('servicereports');
  const dateFormat = useDateFormat();
  return (
    <section aria-labelledby="object-reports" className="grid gap-2">
      <h3 id="object-reports" className="text-base font-semibold">
        {t('object.title')}
      </h3>
      {next ? (
        <p
          className={`text-sm ${next.overdue ? 'font-medium text-red-700' : 'text-slate-700'}`}
          data-testid="next-inspection"
        >
          {t(next.overdue ? 'object.overdue' : 'object.nextDue', {
            date: formatDate(next.due, dateFormat),
            months: next.intervalMonths,
            agreement: next.agreement,
          })}
        </p>
      ) : null}
      {reports.length === 0 ? (
        <p className="text-sm text-slate-600">{t('object.empty')}</p>
      ) : (
        <ul className="grid gap-1" data-testid="object-reports">
          {reports.map((r) => (
            <li
              key={r.id}
              className="flex flex-wrap items-baseline justify-between gap-x-3 border-b border-slate-100 py-2 text-sm last:border-b-0"
            >
              <span className="min-w-0 break-words">
                <span className="font-medium">{r.title}</span>
                {r.door ? ` · ${r.door}` : ''} ·{' '}
                <Link to={`/work-orders/${r.workOrderId}`} className="text-brand-700 underline">
                  {t('object.order', { number: r.workOrderNumber })}
                </Link>
              </span>
              <span className="text-slate-600">
                {r.signedAt ? (
                  <>
                    {t('object.signed', { name: r.signedName })} <DateTime iso={r.signedAt} />
                  </>
                ) : (
                  t('object.draft')
                )}
                {r.flagged ? ` · ${t('panel.flagged', { count: r.flagged })}` : ''}
                {r.fileId ? (
                  <>
                    {' · '}
                    <a href={`/api/file/${r.fileId}?download=1`} className="text-brand-700 underline">
                      {t('panel.pdf')}
                    </a>
                  </>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
