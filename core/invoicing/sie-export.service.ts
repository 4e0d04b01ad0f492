import { z } from 'zod';
import type { Ctx } from '~/core/context';
import type { DocumentFile } from '~/core/documents/file';
import { AppError } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import { tenantDate } from '~/core/calendar/dates';
import { readErpConnection } from './erp-connection';
import { INVOICE_READ } from './invoice.service';
import { figuresOf, invoiceColumns } from './invoice-store';
import type { InvoiceRowKind } from './invoice-lines';
import { bookAccounts, invoiceVerification } from './invoice-verification';
import { buildSie, encodeCp437, SIE_CONTENT_TYPE, SIE_PROGRAM, type SieVerification } from './sie';
import { isIsoDay, monthOf, siePeriodError } from './sie-period';

/*
 * GET /invoices/sie (issue 15 item 3; decision 026): the final invoices of a period, by invoice
 * date, as an SIE 4I file the tenant's accounting program imports, one verification per invoice
 * in invoice-number order. Drafts are not in the books yet, and a void invoice is treated as never
 * having existed for the books (it is voided when its order is reopened before it reached an ERP):
 * both are left out. An invoice kept and unlinked when its order was reopened is final and is in.
 * Three statements whatever the period holds: the invoices, their rows, the tenant's accounts.
 */

type Row = Record<string, unknown>;


const zDay = z
  .string({ error: 'ERROR_REQUIRED_FIELD' })
  .trim()
  .min(1, 'ERROR_REQUIRED_FIELD')
  .refine(isIsoDay, 'ERROR_INVALID_DATE');

export const ZSieExport = z.object({
  from: zDay,
  to: zDay,
  /** The verification series in the accounting program (spec #VER 4–5: letters or digits). */
  series: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9]{1,10}$/, 'ERROR_INVALID_VALUE')
      .default('A'),
  ),
});
export type TSieExport = z.infer<typeof ZSieExport>;

/** Refuses a period that ends before it starts or is longer than SIE_MAX_MONTHS (400, on `to`). */
export function checkSiePeriod(from: string, to: string): void {
  const code = siePeriodError(from, to);
  if (code) throw new AppError(code, 400, { fields: { to: [code] } });
}

/** This month in the tenant's country: the period the list offers to export. */
export function currentSiePeriod(ctx: Pick<Ctx, 'now' | 'tenant'>): { from: string; to: string } {
  return monthOf(tenantDate(ctx.now, ctx.tenant.config.country));
}

const str = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));

/** The customer's name as the invoice was made out (its data), else the register's. */
function customerNameOf(invoice: Row): string | null {
  const data = (invoice.data ?? {}) as { customer?: { displayName?: unknown } };
  return str(data.customer?.displayName) ?? str(invoice.c_name);
}

/**
 * The SIE 4I file of the period's final invoices (invoices:read). 400 VALIDATION_FAILED for a
 * missing or impossible date or a bad series, 400 SIE_PERIOD_REVERSED / SIE_PERIOD_TOO_LONG for
 * the period, 409 SIE_MIXED_CURRENCIES when the invoices are not all in one currency (one file
 * has one currency, #VALUTA). A period without invoices gives a valid file without verifications.
 */
export async function exportSie(ctx: Ctx, raw: unknown): Promise<DocumentFile> {
  requireAccess(ctx.auth, INVOICE_READ);
  const input = parseInput(ZSieExport, raw);
  checkSiePeriod(input.from, input.to);
  const inPeriod = () =>
    ctx
      .trx('invoices')
      .where('invoices.status', 'finalized')
      .where('invoices.invoice_date', '>=', input.from)
      .where('invoices.invoice_date', '<=', input.to);
  const invoices: Row[] = await inPeriod()
    .leftJoin('customers as c', 'c.id', 'invoices.customer_id')
    .orderBy([{ column: 'invoices.invoice_sequence' }, { column: 'invoices.id' }])
    .select(...invoiceColumns(ctx.trx), 'c.name as c_name');
  const rows: Row[] = invoices.length
    ? await ctx
        .trx('invoice_rows')
        .whereIn('invoice_id', inPeriod().select('invoices.id'))
        .orderBy([{ column: 'invoice_id' }, { column: 'sort_order' }, { column: 'id' }])
    : [];
  const connection = await readErpConnection(ctx.trx);

  const currencies = new Set(invoices.map((i) => String(i.currency ?? 'SEK')));
  if (currencies.size > 1) throw new AppError('SIE_MIXED_CURRENCIES', 409, { currencies: [...currencies].sort() });
  const rowsOf = new Map<string, Row[]>();
  for (const r of rows) {
    const list = rowsOf.get(r.invoice_id as string);
    if (list) list.push(r);
    else rowsOf.set(r.invoice_id as string, [r]);
  }

  const accounts = bookAccounts(connection.accounts);
  const declared = new Map<string, string>();
  const verifications: SieVerification[] = [];
  for (const invoice of invoices) {
    const own = rowsOf.get(invoice.id as string) ?? [];
    const booked = invoiceVerification(
      {
        invoiceNr: String(invoice.invoice_nr),
        invoiceDate: invoice.date_text as string,
        customerName: customerNameOf(invoice),
        rowKinds: own.map((r) => r.kind as InvoiceRowKind),
        figures: figuresOf(invoice, own),
      },
      accounts,
      input.series,
    );
    if (!booked) continue;
    verifications.push(booked.verification);
    for (const a of booked.used) if (a.basName) declared.set(a.number, a.basName);
  }

  const { company } = ctx.tenant.config;
  const text = buildSie({
    program: SIE_PROGRAM,
    generated: { date: tenantDate(ctx.now, ctx.tenant.config.country), sign: ctx.auth?.user.fullName ?? null },
    company: { name: company.companyName ?? ctx.tenant.displayName, orgNr: company.companyNr },
    currency: [...currencies][0] ?? 'SEK',
    accounts: [...declared].sort(([a], [b]) => a.localeCompare(b)).map(([number, name]) => ({ number, name })),
    verifications,
  });
  return {
    filename: `FAKT_${input.from.replace(/-/g, '')}_${input.to.replace(/-/g, '')}.SI`,
    contentType: SIE_CONTENT_TYPE,
    body: encodeCp437(text),
  };
}
