import { historyQuery } from '~/core/agreements/agreement-invoices.service';
import { tenantToday } from '~/core/calendar/tenant-today';
import type { Ctx } from '~/core/context';
import { requireAccess } from '~/core/permissions/access';
import { formatDecimal, sum } from '~/core/pricing';
import { REPORTS } from './closed-work-orders.service';
import { monthOf, monthsOf, reportPeriod, type Period } from './report-period';

/*
 * Reports → agreement invoices (spec section 2): the invoices made from agreements whose period
 * starts in the report's period (this month by default) — the same invoices, by the same rule, as
 * the agreement invoice history (GET /invoice/agreement/history, whose query this reuses) — summed
 * per agreement type and month in SQL. Void invoices are left out, as in the history's totals.
 */

export interface AgreementInvoiceSum {
  count: number;
  /** Before VAT. */
  totalPrice: string;
  totalPriceVat: string;
}

export interface AgreementTypeMonth extends AgreementInvoiceSum {
  /** The agreement type; null for an invoice whose agreement is gone. */
  agreementId: string | null;
  code: string | null;
  title: string | null;
  /** YYYY-MM of the invoice period's first day. */
  month: string;
}

export interface AgreementInvoiceReport extends AgreementInvoiceSum {
  startTime: string;
  endTime: string;
  /** Every month of the period, also those without invoices (the chart's bars). */
  months: ({ month: string } & AgreementInvoiceSum)[];
  types: Omit<AgreementTypeMonth, 'month'>[];
  /** Per type and month, by month and then type. */
  rows: AgreementTypeMonth[];
}

type Row = Record<string, unknown>;

function summed<T extends object>(base: T, items: readonly AgreementInvoiceSum[]): T & AgreementInvoiceSum {
  return {
    ...base,
    count: items.reduce((n, i) => n + i.count, 0),
    totalPrice: formatDecimal(sum(items.map((i) => i.totalPrice))),
    totalPriceVat: formatDecimal(sum(items.map((i) => i.totalPriceVat))),
  };
}

export function agreementReportPeriod(ctx: Ctx, raw: unknown): Period {
  return reportPeriod(raw, monthOf(tenantToday(ctx)));
}

/**
 * GET /reports/agreement-invoices?startTime&endTime: the period's agreement invoices summed per
 * type and month, per month, per type and in all (reports:read). One statement; what it returns
 * is at most one row per type and month.
 */
export async function agreementInvoiceReport(ctx: Ctx, raw: unknown = {}): Promise<AgreementInvoiceReport> {
  requireAccess(ctx.auth, REPORTS);
  const period = agreementReportPeriod(ctx, raw);
  const month = ctx.trx.raw(`to_char(i.period_from, 'YYYY-MM')`);
  const grouped = (await historyQuery(ctx)
    .whereBetween('i.period_from', [period.from, period.to])
    .whereNot('i.status', 'void')
    .groupBy('a.id', 'a.code', 'a.title', month)
    .orderByRaw(`to_char(i.period_from, 'YYYY-MM'), lower(a.title) nulls last, a.id`)
    .select(
      'a.id as agreement_id',
      'a.code',
      'a.title',
      ctx.trx.raw(`to_char(i.period_from, 'YYYY-MM') as month`),
      ctx.trx.raw('count(*)::int as n'),
      ctx.trx.raw('coalesce(sum(i.total_price), 0) as net'),
      ctx.trx.raw('coalesce(sum(i.total_price_vat), 0) as gross'),
    )) as Row[];
  const rows: AgreementTypeMonth[] = grouped.map((r) => ({
    agreementId: (r.agreement_id as string | null) ?? null,
    code: (r.code as string | null) ?? null,
    title: (r.title as string | null) ?? null,
    month: r.month as string,
    count: Number(r.n),
    totalPrice: formatDecimal(String(r.net)),
    totalPriceVat: formatDecimal(String(r.gross)),
  }));
  const byType = new Map<string, AgreementTypeMonth[]>();
  for (const r of rows) byType.set(r.agreementId ?? '', [...(byType.get(r.agreementId ?? '') ?? []), r]);
  const types = [...byType.values()]
    .map((list) => summed({ agreementId: list[0]!.agreementId, code: list[0]!.code, title: list[0]!.title }, list))
    .sort((a, b) => Number(b.totalPrice) - Number(a.totalPrice) || (a.title ?? '').localeCompare(b.title ?? ''));
  return {
    ...summed({ startTime: period.from, endTime: period.to }, rows),
    months: monthsOf(period).map((m) =>
      summed(
        { month: m },
        rows.filter((r) => r.month === m),
      ),
    ),
    types,
    rows,
  };
}
