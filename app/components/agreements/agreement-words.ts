import { useTranslation } from 'react-i18next';
import { AGREEMENT_TYPES, LAST_DAY_OF_MONTH, type AgreementInterval } from '~/core/agreements/agreement-constants';

/** "No interval" / "no work type" in a Select (a Select key cannot be empty). */
export const NONE = 'none';

/** The intervals in the order a person looks for them: by length. */
const INTERVAL_ORDER: readonly AgreementInterval[] = [
  'month_1',
  'month_2',
  'month_3',
  'quarter',
  'month_4',
  'month_5',
  'month_6',
  'half_year',
  'year_1',
  'month_18',
  'year_2',
  'year_3',
  'year_4',
];

/**
 * The agreement words the pages share: intervals ("Quarterly", "Every 18 months"), generation
 * days ("Day 15", "Last day of the month") and the options of their selects.
 */
export function useAgreementWords() {
  const { t } = useTranslation('agreements');
  const interval = (i: AgreementInterval | null) => (i ? t(`interval.${i}`) : t('interval.none'));
  const day = (d: number) => (d === LAST_DAY_OF_MONTH ? t('day.last') : t('day.number', { day: d }));
  /** "Quarterly, day 1", or "—" when the type makes none. */
  const schedule = (i: AgreementInterval | null, d: number) => (i ? `${interval(i)}, ${day(d).toLowerCase()}` : '—');
  return {
    interval,
    day,
    schedule,
    type: (type: string) => t(`type.${type}`),
    intervalItems: [
      { id: NONE, label: t('interval.none') },
      ...INTERVAL_ORDER.map((i) => ({ id: i, label: t(`interval.${i}`) })),
    ],
    dayItems: [
      ...Array.from({ length: 31 }, (_, k) => ({ id: String(k + 1), label: String(k + 1) })),
      { id: String(LAST_DAY_OF_MONTH), label: t('day.last') },
    ],
    typeItems: AGREEMENT_TYPES.map((type) => ({ id: type, label: t(`type.${type}`) })),
  };
}
