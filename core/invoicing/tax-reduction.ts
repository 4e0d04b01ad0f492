import { formatDecimal, round } from '~/core/pricing';

/**
 * Swedish tax reductions on an invoice (spec section 9: tax-reduction marks none, ROT, RUT,
 * green): the rate and the yearly cap in force on the day the customer pays, as Skatteverket sets
 * them. ROT and RUT reduce the labour (including VAT) only; green technology reduces labour and
 * material. The reduction is rounded down to whole kronor and capped per person and year, ROT and
 * RUT together at the combined cap.
 */
export type TaxReductionKind = 'none' | 'ROT' | 'RUT' | 'green';
export const TAX_REDUCTION_KINDS: readonly TaxReductionKind[] = ['none', 'ROT', 'RUT', 'green'];

/** What a green-technology row installs; each has its own rate. */
export type GreenTechnology = 'solar' | 'storage' | 'charger';
export const GREEN_TECHNOLOGIES: readonly GreenTechnology[] = ['solar', 'storage', 'charger'];

/** A value in force from `from` (inclusive, YYYY-MM-DD) until the next entry's `from`. */
interface Period<T> {
  from: string;
  value: T;
}

/** Percent of labour incl. VAT (ROT: 50 % on work paid 12 May – 31 Dec 2025, otherwise 30 %). */
const ROT_PERCENT: Period<string>[] = [
  { from: '2021-01-01', value: '30' },
  { from: '2025-05-12', value: '50' },
  { from: '2026-01-01', value: '30' },
];
const RUT_PERCENT: Period<string>[] = [{ from: '2021-01-01', value: '50' }];
/** Percent of labour and material incl. VAT: solar 15 %, 20 % in 2022 – June 2025; storage and chargers 50 %. */
const GREEN_PERCENT: Record<GreenTechnology, Period<string>[]> = {
  solar: [
    { from: '2021-01-01', value: '15' },
    { from: '2022-01-01', value: '20' },
    { from: '2025-07-01', value: '15' },
  ],
  storage: [{ from: '2021-01-01', value: '50' }],
  charger: [{ from: '2021-01-01', value: '50' }],
};

export interface Caps {
  /** ROT per person and year (75,000 for 2024, apart from RUT's 75,000). */
  rot: string;
  rut: string;
  /** ROT and RUT together per person and year. */
  rotRut: string;
  /** Green technology per person and year, apart from ROT and RUT. */
  green: string;
}
const CAPS: Period<Caps>[] = [
  { from: '2021-01-01', value: { rot: '50000', rut: '75000', rotRut: '75000', green: '50000' } },
  { from: '2024-01-01', value: { rot: '75000', rut: '75000', rotRut: '150000', green: '50000' } },
  { from: '2025-01-01', value: { rot: '50000', rut: '75000', rotRut: '75000', green: '50000' } },
];

function inForce<T>(periods: Period<T>[], day: string): T {
  let value = periods[0]!.value;
  for (const p of periods) if (p.from <= day) value = p.value;
  return value;
}

/** The ROT or RUT percent on `day` (YYYY-MM-DD). */
export function reductionPercent(kind: 'ROT' | 'RUT', day: string): string {
  return inForce(kind === 'ROT' ? ROT_PERCENT : RUT_PERCENT, day);
}

/** The green-technology percent for what a row installs, on `day`. */
export function greenPercent(technology: GreenTechnology, day: string): string {
  return inForce(GREEN_PERCENT[technology], day);
}

/** The caps per person and year on `day`. */
export function reductionCaps(day: string): Caps {
  return inForce(CAPS, day);
}

/**
 * The reduction shared between the people asking for it, as each one's asked amount: whole kronor
 * (Skatteverket pays out, and Fortnox takes an application, only in whole kronor), equal parts, and
 * the kronor left over to the first person. 1,001 kr between two is 501 and 500, never 500.50 each.
 * The reduction itself is whole kronor (rounded down by invoiceFigures); a total with öre would
 * leave them with the first person too.
 */
export function splitTaxReduction(total: string, persons: number): string[] {
  const n = Math.max(0, Math.trunc(persons));
  if (n === 0) return [];
  const ore = round(total, 2).units;
  const eachKronor = ore / 100n / BigInt(n);
  const others = eachKronor * 100n * BigInt(n - 1);
  const first = ore - others;
  return [first, ...Array.from({ length: n - 1 }, () => eachKronor * 100n)].map((units) =>
    formatDecimal({ units, scale: 2 }),
  );
}
