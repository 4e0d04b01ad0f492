import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteLoaderData } from 'react-router';
import { tenantTimeZone } from '~/core/calendar/dates';
import { formatDate, type DateFormat } from '~/core/i18n/number-format';

/** A date of a zone page in the tenant's format and country's zone; a dash for none. */
export function useZoneDate(): (value: string | null | undefined) => string {
  const root = useRouteLoaderData('root') as { dateFormat?: DateFormat; country?: string } | undefined;
  const { t } = useTranslation('zone');
  return (value) =>
    value
      ? formatDate(value, root?.dateFormat ?? 'YYYY-MM-DD', { timeZone: tenantTimeZone(root?.country) })
      : t('none');
}

/** A zone page: its heading and what it shows, full width on a phone. */
export function ZonePage({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  return (
    <section aria-labelledby="zone-page-title" className="flex flex-col gap-4">
      <h1 id="zone-page-title" className="text-xl font-semibold sm:text-2xl">
        {title}
      </h1>
      {intro ? <p className="text-sm text-slate-600">{intro}</p> : null}
      {children}
    </section>
  );
}

/** What a list shows when it has nothing. */
export function ZoneEmpty({ children }: { children: ReactNode }) {
  return <p className="rounded-lg bg-white p-4 text-sm text-slate-600 ring-1 ring-slate-200">{children}</p>;
}

/** One row of a zone list as a card: a title line and label–value pairs, readable on a phone. */
export function ZoneCard({ title, children, actions }: { title: ReactNode; children?: ReactNode; actions?: ReactNode }) {
  return (
    <li className="rounded-lg bg-white p-4 ring-1 ring-slate-200">
      <div className="font-medium">{title}</div>
      {children ? <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">{children}</dl> : null}
      {actions ? <div className="mt-2">{actions}</div> : null}
    </li>
  );
}

export function ZoneField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-600">{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** Previous and next page links of a zone list (plain links: they work without JavaScript). */
export function ZonePager({ page, hasMore, href }: { page: number; hasMore: boolean; href: (page: number) => string }) {
  const { t } = useTranslation('zone');
  if (page <= 1 && !hasMore) return null;
  const link = 'inline-flex min-h-11 items-center rounded-md px-3 text-sm text-brand-700 underline underline-offset-2';
  return (
    <nav aria-label={t('pager.label')} className="flex justify-between">
      {page > 1 ? (
        <a className={link} href={href(page - 1)}>
          {t('pager.previous')}
        </a>
      ) : (
        <span />
      )}
      {hasMore ? (
        <a className={link} href={href(page + 1)}>
          {t('pager.next')}
        </a>
      ) : null}
    </nav>
  );
}

/** The page number a zone list's URL asks for. */
export function pageOf(request: Request): number {
  const n = Number(new URL(request.url).searchParams.get('page') ?? '1');
  return Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : 1;
}
