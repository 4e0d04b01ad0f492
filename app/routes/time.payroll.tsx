import { TimeNav } from '~/app/components/time/time-nav';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, Link, useSearchParams } from 'react-router';
import type { Route } from './+types/time.payroll';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, buttonClass, formatNumber } from '~/app/components/ui';
import { NATIVE_INPUT_CLASS, NativeField } from '~/app/components/ui/native-field';
import { addMonths, MONTH_PATTERN } from '~/core/time-reports/payroll/payroll-month';
import type { CodeHours, CodeQuantity } from '~/core/time-reports/payroll/payroll-lines';
import { payrollDefaultMonth, payrollPreview } from '~/core/time-reports/payroll/payroll.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Payroll (issue 17 part 5): a month's worked hours, absence, compensation and mileage per
 * person as the payroll file will hold them, and the file itself — PAXml 2.0 or CSV — once the
 * month is locked. Only approved time goes to payroll: the people whose month is not approved are
 * named apart; someone in the file without an employee number blocks the downloads, with a link to
 * the user to set it (issue 28). Opens on the latest locked month, or the previous month when none is.
 */
export const middleware = guard({ permission: 'timereports:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAuth(context);
  const asked = new URL(request.url).searchParams.get('month')?.trim() ?? '';
  return run(context, async (ctx) => {
    const month = MONTH_PATTERN.test(asked) ? asked : await payrollDefaultMonth(ctx);
    return payrollPreview(ctx, { month });
  });
}

/** "mars 2026" in the reader's language. */
function monthLabel(month: string, lang: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  try {
    return new Intl.DateTimeFormat(lang, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(Date.UTC(y, m - 1, 1)),
    );
  } catch {
    return month;
  }
}

/** Hours as the spec prints numbers: whole hours bare, otherwise two decimals ("7,50"). */
const hoursText = (n: number) => formatNumber(n, { decimals: Number.isInteger(n) ? 0 : 2 });

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.payroll', null, { within: 'nav.time' });

export default function PayrollPage({ loaderData: d }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('payroll');
  const { t: tc } = useTranslation();
  const [params] = useSearchParams();
  const exportError = params.get('exportError');
  const noticeId = useId();
  const missingId = useId();
  const missing = d.missingEmployeeNumbers;
  // the downloads are off while the month is open or someone in it lacks an employee number
  const blockedBy = [d.locked ? null : noticeId, missing.length ? missingId : null].filter(Boolean).join(' ');
  const month = monthLabel(d.month, i18n.language);
  const unit = (u: CodeQuantity['unit']) => t(`unit.${u}`);
  const exportHref = (format: 'paxml' | 'csv') => `/time/payroll/export?month=${d.month}&format=${format}`;

  const hoursList = (rows: CodeHours[]) =>
    rows.length ? (
      <ul className="grid gap-0.5">
        {rows.map((r) => (
          <li key={r.code} className="whitespace-nowrap">
            <span className="font-mono text-xs text-slate-600">{r.code}</span>{' '}
            <span className="tabular-nums">{t('hours', { hours: hoursText(r.hours) })}</span>
          </li>
        ))}
      </ul>
    ) : (
      <span className="text-slate-400">{t('none')}</span>
    );

  return (
    <div className="grid max-w-6xl gap-6">
      <TimeNav current="payroll" />
      <div>
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>
      </div>

      <section
        aria-label={t('month')}
        className="grid gap-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      >
        <div className="flex flex-wrap items-end gap-3">
          <Link to={`?month=${addMonths(d.month, -1)}`} className="rounded px-2 py-2 text-brand-700 underline">
            <span aria-hidden="true">‹ </span>
            <span className="sr-only">{t('previousMonth')}: </span>
            {monthLabel(addMonths(d.month, -1), i18n.language)}
          </Link>
          <Form method="get" className="flex flex-wrap items-end gap-2">
            <NativeField label={t('month')}>
              {(id) => (
                <input
                  id={id}
                  type="month"
                  name="month"
                  required
                  defaultValue={d.month}
                  key={d.month}
                  pattern="\d{4}-\d{2}"
                  className={NATIVE_INPUT_CLASS}
                />
              )}
            </NativeField>
            <Button type="submit" variant="secondary">
              {t('show')}
            </Button>
          </Form>
          <Link to={`?month=${addMonths(d.month, 1)}`} className="rounded px-2 py-2 text-brand-700 underline">
            <span className="sr-only">{t('nextMonth')}: </span>
            {monthLabel(addMonths(d.month, 1), i18n.language)}
            <span aria-hidden="true"> ›</span>
          </Link>
        </div>

        {d.locked ? (
          <p role="status" className="rounded-md bg-green-50 p-3 text-sm text-green-900">
            {t('lockedNotice', { month })}
          </p>
        ) : (
          <div id={noticeId} role="status" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
            <p className="font-medium">{t('notLockedTitle')}</p>
            <p>{t('notLockedNotice', { month })}</p>
          </div>
        )}
        {exportError ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
            {tc(exportError)}
          </p>
        ) : null}

        {missing.length ? (
          <div id={missingId} role="status" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
            <p className="font-medium">{t('missingEmployeeNumbersTitle', { count: missing.length })}</p>
            <p>{t('missingEmployeeNumbers')}</p>
            <ul className="mt-1 grid gap-0.5" aria-label={t('missingEmployeeNumbersTitle', { count: missing.length })}>
              {missing.map((p) => (
                <li key={p.userId}>
                  <Link to={`/settings/users/${p.userId}`} className="text-brand-700 underline">
                    {t('setEmployeeNumber', { name: p.name })}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : null}

        <div className="flex flex-wrap gap-2">
          {!blockedBy ? (
            <>
              <a href={exportHref('paxml')} className={buttonClass({ variant: 'primary' })}>
                {t('downloadPaxml')}
              </a>
              <a href={exportHref('csv')} className={buttonClass({ variant: 'secondary' })}>
                {t('downloadCsv')}
              </a>
            </>
          ) : (
            <>
              <Button variant="primary" isDisabled aria-describedby={blockedBy}>
                {t('downloadPaxml')}
              </Button>
              <Button variant="secondary" isDisabled aria-describedby={blockedBy}>
                {t('downloadCsv')}
              </Button>
            </>
          )}
        </div>
        <p className="text-xs text-slate-600">{t('formatsHelp')}</p>
      </section>

      {d.notApproved.length ? (
        <section
          aria-labelledby="payroll-not-approved"
          className="rounded-md bg-slate-50 p-3 text-sm text-slate-800 ring-1 ring-slate-200"
        >
          <h2 id="payroll-not-approved" className="font-medium">
            {t('notApprovedTitle', { count: d.notApproved.length })}
          </h2>
          <p>
            {t('notApprovedNotice', { month })}{' '}
            <Link
              to={`/time/office?year=${d.month.slice(0, 4)}&month=${Number(d.month.slice(5, 7))}`}
              className="text-brand-700 underline"
            >
              {t('toApproval')}
            </Link>
          </p>
          <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5" data-testid="payroll-not-approved">
            {d.notApproved.map((p) => (
              <li key={p.userId}>{p.name}</li>
            ))}
          </ul>
        </section>
      ) : null}

      {d.people.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
          {t('empty', { month })}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
          <table className="w-full min-w-[40rem] text-left text-sm" aria-label={t('tableLabel', { month })}>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold uppercase text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2">
                  {t('col.person')}
                </th>
                <th scope="col" className="px-3 py-2">
                  {t('col.worked')}
                </th>
                <th scope="col" className="px-3 py-2">
                  {t('col.absence')}
                </th>
                <th scope="col" className="px-3 py-2">
                  {t('col.compensation')}
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  {t('col.amount')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 align-top">
              {d.people.map((p) => (
                <tr key={p.userId} data-testid="payroll-person">
                  <th scope="row" className="px-3 py-2 font-medium">
                    <div>{p.name}</div>
                    <div
                      className={
                        p.employeeNumber === null
                          ? 'text-xs font-normal text-amber-800'
                          : 'text-xs font-normal text-slate-600'
                      }
                    >
                      {p.employeeNumber === null
                        ? t('employeeNumberMissing')
                        : t('employeeNumber', { number: p.employeeNumber })}
                    </div>
                  </th>
                  <td className="px-3 py-2">
                    <div className="font-medium tabular-nums">
                      {t('hours', { hours: hoursText(p.totals.workHours) })}
                    </div>
                    {p.work.length > 1 ? <div className="mt-1">{hoursList(p.work)}</div> : null}
                  </td>
                  <td className="px-3 py-2">{hoursList(p.absence)}</td>
                  <td className="px-3 py-2">
                    {p.compensation.length ? (
                      <ul className="grid gap-0.5">
                        {p.compensation.map((c) => (
                          <li key={`${c.kind}-${c.code}-${c.unit}`} className="whitespace-nowrap">
                            <span className="font-mono text-xs text-slate-600">{c.code}</span>{' '}
                            <span className="tabular-nums">
                              {hoursText(c.quantity)} {unit(c.unit)}
                              {c.amount !== null ? ` · ${formatNumber(c.amount)}` : ''}
                            </span>
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <span className="text-slate-400">{t('none')}</span>
                    )}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{formatNumber(p.totals.amount)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot className="border-t border-slate-200 bg-slate-50 font-semibold">
              <tr>
                <th scope="row" className="px-3 py-2">
                  {t('total')}
                </th>
                <td className="px-3 py-2 tabular-nums">{t('hours', { hours: hoursText(d.totals.workHours) })}</td>
                <td className="px-3 py-2 tabular-nums">{t('hours', { hours: hoursText(d.totals.absenceHours) })}</td>
                <td className="px-3 py-2 tabular-nums">
                  {hoursText(d.totals.distanceKm)} {unit('km')}
                </td>
                <td className="px-3 py-2 text-right tabular-nums">{formatNumber(d.totals.amount)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </div>
  );
}
