import { useTranslation } from 'react-i18next';
import { formatDate } from '~/app/components/ui';
import type { AgreementInterval } from '~/core/agreements/agreement-constants';
import { periodName } from '~/core/agreements/period-text';
import { isLang, DEFAULT_LANG } from '~/core/i18n/languages';
import { useDateFormat } from './shared';

/*
 * What the Agreement tab's parts share: where they load and save, and dates and periods in words.
 * Types only from the core's services (server code); periods.ts and period-text.ts are pure.
 */

/** The tab's resource route (app/routes/inventory.objects.$id.agreement.tsx). */
export const agreementUrl = (boId: string) => `/inventory/objects/${encodeURIComponent(boId)}/agreement`;

/** Dates in the tenant's format, periods in the page's language ("Q1 2026", "mars 2026"). */
export function useAgreementDates() {
  const format = useDateFormat();
  const { i18n } = useTranslation();
  const lang = isLang(i18n.language) ? i18n.language : DEFAULT_LANG;
  const date = (d: string | null | undefined) => (d ? formatDate(d, format) : '—');
  const range = (from: string, to: string) => `${date(from)} – ${date(to)}`;
  /** "Q1 2026 (2026-01-01 – 2026-03-31)", or the dates alone when the period has no shorter name. */
  const period = (interval: AgreementInterval | null, from: string, to: string) => {
    const dates = range(from, to);
    if (!interval) return dates;
    const name = periodName(lang, interval, from);
    return name === `${from} – ${to}` ? dates : `${name} (${dates})`;
  };
  return { date, range, period };
}

/** A notice box: amber for warnings, blue for information, red for refusals. */
export function Notice({
  tone,
  children,
  className,
}: {
  tone: 'warning' | 'info' | 'error' | 'success';
  children: React.ReactNode;
  className?: string;
}) {
  const tones = {
    warning: 'bg-amber-50 text-amber-950 ring-amber-200',
    info: 'bg-blue-50 text-blue-950 ring-blue-200',
    error: 'bg-red-50 text-red-900 ring-red-200',
    success: 'bg-green-50 text-green-900 ring-green-200',
  } as const;
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-md p-3 text-sm ring-1 ${tones[tone]} ${className ?? ''}`}
    >
      {children}
    </div>
  );
}
