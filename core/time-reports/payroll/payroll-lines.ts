/**
 * A month's time as payroll lines (issue 17 part 5), as pure rules: the rows come already summed
 * by SQL (person, day, code); this turns them into what the payroll system reads.
 *
 * - Work: a person's own work time (tags of type work: ARB, RES …) and their time on work orders
 *   (work minutes under the ARB tag's code, travel minutes under RES's), one line per person,
 *   day and code.
 * - Absence: one line per person, day and code (SEM, SJK, VAB …).
 * - Compensation: one salary line per person, day and compensation code (811, 892 …) with the
 *   quantity, the tag's unit price and the amount (an amount typed on the report wins; otherwise
 *   quantity × unit price).
 * - Mileage: the distance log's kilometres per person, day and distance code (821 …; an untagged
 *   trip takes the first distance code), priced by the code's price per kilometre.
 *
 * The code is the tag's payroll code when the office set one, else the tag's own code. Ordo's
 * seeded codes that PAXml spells differently are written as PAXml spells them (NAR → NÄR,
 * RES → RE1, FRA → FR1). Attendance (NARV, JOUR) is presence, not paid time, and is left out;
 * so are the kilometres typed on time rows and work orders, which belong to the order (and its
 * invoice), not to the mileage log.
 */

export type LineKind = 'work' | 'absence' | 'compensation' | 'distance';
export type LineUnit = 'h' | 'km' | 'day' | 'pcs';
export type CompensationType = 'distance' | 'travel' | 'expense';

/**
 * PAXml 2.0's time codes (tidkodTYPE in paxml-2.0.xsd, verbatim; the unit test compares the two).
 * Time under any other code goes to the file as a salary line with the code as its löneart.
 */
export const PAXML_TIME_CODES: ReadonlySet<string> = new Set(
  (
    'SJK SJK_KAR SJK_LÖN SJK_ERS SJK_PEN ASK HAV FPE VAB SMB UTB MIL SVE NÄR TJL SEM SEM_BET SEM_SPA SEM_OBE ' +
    'SEM_FÖR KOM PEM PER FAC ATK KON PAP ATF FR1 FR2 FR3 FR4 FR5 FR6 FR7 FR8 FR9 FLX SCH TS1 TS2 TS3 TS4 TS5 ' +
    'TS6 TS7 TS8 TS9 TID ARB MER ÖT1 ÖT2 ÖT3 ÖT4 ÖT5 ÖK1 ÖK2 ÖK3 ÖK4 ÖK5 OB1 OB2 OB3 OB4 OB5 OS1 OS2 OS3 OS4 ' +
    'OS5 JR1 JR2 JR3 JS1 JS2 JS3 BE1 BE2 BE3 BS1 BS2 BS3 RE1 RE2 RE3 HLG SKI LT1 LT2 LT3 LT4 LT5 LT6 LT7 LT8 ' +
    'LT9 NV1 NV2 NV3 NV4 NV5 NV6 NV7 NV8 NV9'
  ).split(' '),
);

/** Ordo's seeded codes written in ASCII where PAXml has its own spelling or number. */
const PAXML_SPELLING: Readonly<Record<string, string>> = { NAR: 'NÄR', RES: 'RE1', FRA: 'FR1' };

/** The code the payroll system gets: the payroll code set by the office, else the code itself. */
export function payrollCodeOf(code: string, payrollCode: string | null | undefined): string {
  const set = payrollCode?.trim();
  if (set) return set;
  const own = code.trim();
  return PAXML_SPELLING[own.toUpperCase()] ?? own;
}

/** Whether a time code is one of PAXml's (a tidtrans); otherwise the time is a lonetrans. */
export const isPaxmlTimeCode = (code: string) => PAXML_TIME_CODES.has(code);

/** Own time summed per person, day and tag (SQL: group by user, date, tag). */
export interface TimeSum {
  userId: string;
  date: string;
  tagType: 'work' | 'absence' | 'attend';
  code: string;
  payrollCode: string | null;
  minutes: number;
}

/** Work-order time summed per person and day. */
export interface WorkOrderTimeSum {
  userId: string;
  date: string;
  workMinutes: number;
  travelMinutes: number;
}

/** Compensation summed per person, day and compensation tag. */
export interface CompensationSum {
  userId: string;
  date: string;
  tagType: CompensationType;
  code: string;
  payrollCode: string | null;
  unitPrice: number | null;
  quantity: number;
  /** Typed amounts, and quantity × unit price for reports without one. */
  amount: number;
  comment: string | null;
}

/** The distance log summed per person, day and distance tag (null: an untagged trip). */
export interface DistanceSum {
  userId: string;
  date: string;
  code: string | null;
  payrollCode: string | null;
  unitPrice: number | null;
  km: number;
  comment: string | null;
}

/** A tag's code and payroll code. */
export interface TagCode {
  code: string;
  payrollCode: string | null;
}

export interface PayrollInput {
  time: readonly TimeSum[];
  workOrderTime: readonly WorkOrderTimeSum[];
  compensation: readonly CompensationSum[];
  distance: readonly DistanceSum[];
  /** The tags work-order time is paid under: work minutes and travel minutes. */
  workOrderTags: { work: TagCode; travel: TagCode };
  /** The code (and price) of a trip logged without one. */
  defaultDistance: TagCode & { unitPrice: number | null };
}

/** One line of the payroll file. */
export interface PayrollLine {
  userId: string;
  /** YYYY-MM-DD */
  date: string;
  kind: LineKind;
  /** PAXml tidkod (time) or löneart (everything else, and time under other codes). */
  code: string;
  /** Time lines: the exact minutes the hours come from; null for the rest. */
  minutes: number | null;
  /** Hours (2 decimals), kilometres or a count. */
  quantity: number;
  unit: LineUnit;
  unitPrice: number | null;
  /** Money, rounded to öre; null when nothing gives one (the payroll system prices it). */
  amount: number | null;
  comment: string | null;
}

export const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;
export const hoursOf = (minutes: number) => round2(minutes / 60);

const KIND_ORDER: Record<LineKind, number> = { work: 0, absence: 1, compensation: 2, distance: 3 };
const UNIT_OF: Record<CompensationType, LineUnit> = { distance: 'km', travel: 'day', expense: 'pcs' };

/** The month's lines, per person by day, then work, absence, compensation, mileage, then code. */
export function payrollLines(input: PayrollInput): PayrollLine[] {
  const time = new Map<string, PayrollLine>();
  const addTime = (userId: string, date: string, kind: 'work' | 'absence', code: string, minutes: number) => {
    if (minutes <= 0) return;
    const key = `${userId}|${date}|${kind}|${code}`;
    const line = time.get(key);
    if (line) line.minutes! += minutes;
    else
      time.set(key, {
        userId,
        date,
        kind,
        code,
        minutes,
        quantity: 0,
        unit: 'h',
        unitPrice: null,
        amount: null,
        comment: null,
      });
  };
  for (const t of input.time) {
    if (t.tagType === 'attend') continue;
    addTime(t.userId, t.date, t.tagType, payrollCodeOf(t.code, t.payrollCode), t.minutes);
  }
  // Work-order time is part of the person's worked time, not on top of it (workedMinutes): own work
  // rows of the day cover the order time first (work, then travel); only the rest is paid under ARB/RES.
  const ownWork = new Map<string, number>();
  for (const t of input.time)
    if (t.tagType === 'work')
      ownWork.set(`${t.userId}|${t.date}`, (ownWork.get(`${t.userId}|${t.date}`) ?? 0) + t.minutes);
  const { work, travel } = input.workOrderTags;
  for (const w of input.workOrderTime) {
    const covered = ownWork.get(`${w.userId}|${w.date}`) ?? 0;
    const workBeyond = Math.max(0, w.workMinutes - covered);
    const travelBeyond = Math.max(0, w.travelMinutes - Math.max(0, covered - w.workMinutes));
    addTime(w.userId, w.date, 'work', payrollCodeOf(work.code, work.payrollCode), workBeyond);
    addTime(w.userId, w.date, 'work', payrollCodeOf(travel.code, travel.payrollCode), travelBeyond);
  }
  const lines: PayrollLine[] = [...time.values()].map((l) => ({ ...l, quantity: hoursOf(l.minutes!) }));

  for (const c of input.compensation) {
    if (c.quantity <= 0 && c.amount <= 0) continue;
    lines.push({
      userId: c.userId,
      date: c.date,
      kind: 'compensation',
      code: payrollCodeOf(c.code, c.payrollCode),
      minutes: null,
      quantity: round2(c.quantity),
      unit: UNIT_OF[c.tagType],
      unitPrice: c.unitPrice,
      amount: c.amount > 0 ? round2(c.amount) : null,
      comment: c.comment?.trim() || null,
    });
  }

  // Untagged trips join the default code's trips of the same day.
  const trips = new Map<string, PayrollLine>();
  for (const d of input.distance) {
    const tag = d.code === null ? input.defaultDistance : { code: d.code, payrollCode: d.payrollCode };
    const unitPrice = d.code === null ? input.defaultDistance.unitPrice : d.unitPrice;
    const code = payrollCodeOf(tag.code, tag.payrollCode);
    const key = `${d.userId}|${d.date}|${code}`;
    const line = trips.get(key);
    const comment = d.comment?.trim() || null;
    if (line) {
      line.quantity += d.km;
      line.comment = [line.comment, comment].filter(Boolean).join('; ') || null;
    } else
      trips.set(key, {
        userId: d.userId,
        date: d.date,
        kind: 'distance',
        code,
        minutes: null,
        quantity: d.km,
        unit: 'km',
        unitPrice,
        amount: null,
        comment,
      });
  }
  for (const t of trips.values()) {
    if (t.quantity <= 0) continue;
    const km = round2(t.quantity);
    lines.push({ ...t, quantity: km, amount: t.unitPrice !== null ? round2(km * t.unitPrice) : null });
  }

  return lines.sort(
    (a, b) =>
      a.userId.localeCompare(b.userId) ||
      a.date.localeCompare(b.date) ||
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      a.code.localeCompare(b.code),
  );
}

/** Who a line belongs to, as the payroll system knows them. */
export interface PayrollPerson {
  userId: string;
  name: string;
  /** The ERP employee number (Settings → Users); null when not set — never the Ordo id. */
  employeeNumber: string | null;
}

/** A person the file is written for: with the employee number the payroll system knows. */
export interface PayrollEmployee extends PayrollPerson {
  employeeNumber: string;
}

/**
 * The employee number the payroll system knows a person by, or null when none is set: a file
 * naming someone by their Ordo id reaches a payroll system that knows no such person (issue 28).
 */
export function employeeNumberOf(configured: unknown): string | null {
  const set =
    typeof configured === 'number' ? String(configured) : typeof configured === 'string' ? configured.trim() : '';
  return set || null;
}

/** An approved period of a person's time (a parent report), YYYY-MM-DD inclusive. */
export interface ApprovedPeriod {
  userId: string;
  start: string;
  end: string;
}

/**
 * The people whose time of the month is approved: every day they have a payroll line on lies in
 * one of their approved periods (issue 28). Only they go to payroll; time nobody has looked at
 * waits until it is approved.
 */
export function approvedPeople(lines: readonly PayrollLine[], approved: readonly ApprovedPeriod[]): Set<string> {
  const covered = (userId: string, date: string) =>
    approved.some((a) => a.userId === userId && a.start <= date && date <= a.end);
  const out = new Set(lines.map((l) => l.userId));
  for (const l of lines) if (out.has(l.userId) && !covered(l.userId, l.date)) out.delete(l.userId);
  return out;
}

export interface CodeHours {
  code: string;
  hours: number;
}

export interface CodeQuantity {
  code: string;
  kind: 'compensation' | 'distance';
  unit: LineUnit;
  quantity: number;
  amount: number | null;
}

/** One person's month on the preview: what the file will hold for them, summed per code. */
export interface PersonSummary extends PayrollPerson {
  work: CodeHours[];
  absence: CodeHours[];
  compensation: CodeQuantity[];
  totals: { workHours: number; absenceHours: number; amount: number; distanceKm: number };
}

/** The preview per person (in the order of `people`); people without lines are left out. */
export function summarize(people: readonly PayrollPerson[], lines: readonly PayrollLine[]): PersonSummary[] {
  const byUser = new Map<string, PayrollLine[]>();
  for (const l of lines) byUser.set(l.userId, [...(byUser.get(l.userId) ?? []), l]);
  const out: PersonSummary[] = [];
  for (const person of people) {
    const own = byUser.get(person.userId);
    if (!own?.length) continue;
    const minutes = (kind: 'work' | 'absence') => {
      const sums = new Map<string, number>();
      for (const l of own) if (l.kind === kind) sums.set(l.code, (sums.get(l.code) ?? 0) + l.minutes!);
      return [...sums].sort(([a], [b]) => a.localeCompare(b)).map(([code, m]) => ({ code, minutes: m }));
    };
    const work = minutes('work');
    const absence = minutes('absence');
    const money = new Map<string, CodeQuantity>();
    for (const l of own) {
      if (l.kind !== 'compensation' && l.kind !== 'distance') continue;
      const key = `${l.kind}|${l.code}|${l.unit}`;
      const sum = money.get(key) ?? { code: l.code, kind: l.kind, unit: l.unit, quantity: 0, amount: null };
      sum.quantity = round2(sum.quantity + l.quantity);
      if (l.amount !== null) sum.amount = round2((sum.amount ?? 0) + l.amount);
      money.set(key, sum);
    }
    const compensation = [...money.values()].sort(
      (a, b) => a.code.localeCompare(b.code) || a.kind.localeCompare(b.kind),
    );
    const total = (rows: { minutes: number }[]) => hoursOf(rows.reduce((s, r) => s + r.minutes, 0));
    out.push({
      ...person,
      work: work.map(({ code, minutes: m }) => ({ code, hours: hoursOf(m) })),
      absence: absence.map(({ code, minutes: m }) => ({ code, hours: hoursOf(m) })),
      compensation,
      totals: {
        workHours: total(work),
        absenceHours: total(absence),
        amount: round2(compensation.reduce((s, c) => s + (c.amount ?? 0), 0)),
        distanceKm: round2(compensation.filter((c) => c.unit === 'km').reduce((s, c) => s + c.quantity, 0)),
      },
    });
  }
  return out;
}

/** A decimal as PAXml and the CSV write it: no exponent, at most 2 decimals, no trailing zeros. */
export function decimalText(n: number): string {
  return round2(n)
    .toFixed(2)
    .replace(/\.?0+$/, '');
}
