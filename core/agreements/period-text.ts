import type { Lang } from '~/core/i18n/languages';
import type { AgreementInterval } from './agreement-constants';
import { periodLabel, weekOf } from './periods';

/*
 * A period in words on an invoice row and a work order, in the customer's (invoice) or the tenant's
 * language. Server-side text printed into documents, like the fee row's title (close.rules.ts).
 */

const MONTHS: Record<Lang, string[]> = {
  sv: [
    'januari',
    'februari',
    'mars',
    'april',
    'maj',
    'juni',
    'juli',
    'augusti',
    'september',
    'oktober',
    'november',
    'december',
  ],
  en: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
  et: [
    'jaanuar',
    'veebruar',
    'märts',
    'aprill',
    'mai',
    'juuni',
    'juuli',
    'august',
    'september',
    'oktoober',
    'november',
    'detsember',
  ],
  lv: [
    'janvāris',
    'februāris',
    'marts',
    'aprīlis',
    'maijs',
    'jūnijs',
    'jūlijs',
    'augusts',
    'septembris',
    'oktobris',
    'novembris',
    'decembris',
  ],
  ru: [
    'январь',
    'февраль',
    'март',
    'апрель',
    'май',
    'июнь',
    'июль',
    'август',
    'сентябрь',
    'октябрь',
    'ноябрь',
    'декабрь',
  ],
};

const WORDS: Record<Lang, { period: string; half: string; week: string; visit: string }> = {
  sv: { period: 'Period', half: 'H', week: 'vecka', visit: 'servicebesök' },
  en: { period: 'Period', half: 'H', week: 'week', visit: 'service visit' },
  et: { period: 'Periood', half: 'P', week: 'nädal', visit: 'hooldusvisiit' },
  lv: { period: 'Periods', half: 'P', week: 'nedēļa', visit: 'apkopes vizīte' },
  ru: { period: 'Период', half: 'П', week: 'неделя', visit: 'сервисный визит' },
};

/** "Q4 2026", "november 2026", "H2 2026", "2027" or "2027-03-01 – 2028-02-29". */
export function periodName(lang: Lang, interval: AgreementInterval, from: string): string {
  const label = periodLabel(interval, from);
  switch (label.kind) {
    case 'month':
      return `${MONTHS[lang][label.month - 1]} ${label.year}`;
    case 'quarter':
      return `Q${label.quarter} ${label.year}`;
    case 'half':
      return `${WORDS[lang].half}${label.half} ${label.year}`;
    case 'year':
      return String(label.year);
    default:
      return `${label.from} – ${label.to}`;
  }
}

/** The invoice's first row: "Period 2026-10-01 – 2026-12-31 (Q4 2026)". */
export function periodRowText(lang: Lang, interval: AgreementInterval, from: string, to: string): string {
  const name = periodName(lang, interval, from);
  const range = `${from} – ${to}`;
  return name === range ? `${WORDS[lang].period} ${range}` : `${WORDS[lang].period} ${range} (${name})`;
}

/** "vecka 53 2026": the ISO week a service visit is generated in (its year may be the previous one). */
export function weekText(lang: Lang, date: string): string {
  const w = weekOf(date);
  return `${WORDS[lang].week} ${w.week} ${w.year}`;
}

/** A service work order's title: the visit, not the agreement's whole period ("Larm – servicebesök vecka 12 2027"). */
export function visitTitle(lang: Lang, agreementTitle: string, generateOn: string): string {
  return `${agreementTitle} – ${WORDS[lang].visit} ${weekText(lang, generateOn)}`;
}
