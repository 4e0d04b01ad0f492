import { describe, expect, it } from 'vitest';
import {
  backlogOf,
  canMarkIncluded,
  newPart,
  percentOf,
  projectTotals,
  type BacklogRow,
  type ProjectInvoice,
} from './project-invoicing';

const SUM = 100_000_00; // 100 000,00 kr in öre
const final = (contractAmount: number, backlogAmount = 0): ProjectInvoice => ({
  status: 'finalized',
  contractAmount,
  backlogAmount,
});

describe('percentOf', () => {
  it.each([
    [SUM, 30, 30_000_00],
    [SUM, 33.33, 33_330_00],
    [1_00, 50, 50],
    // half an öre rounds away from zero
    [1, 50, 1],
    [3_33, 33.33, 1_11],
    [SUM, 100, SUM],
  ])('%i öre × %s %% = %i', (amount, percent, expected) => {
    expect(percentOf(amount, percent)).toBe(expected);
  });
});

describe('the backlog', () => {
  const rows: BacklogRow[] = [
    { id: 'a', amount: 5_000_00, status: 'open' },
    { id: 'b', amount: 2_000_00, status: 'included' },
    { id: 'c', amount: 1_000_00, status: 'invoiced' },
    { id: 'ata1', amount: 8_000_00, status: 'open', extraWork: 'accepted' },
    { id: 'ata2', amount: 4_000_00, status: 'open', extraWork: 'pending' },
    { id: 'ata3', amount: 3_000_00, status: 'open', extraWork: 'declined' },
  ];
  it('is what is open, with only accepted extra work', () => {
    expect(backlogOf(rows)).toBe(13_000_00);
  });
  it('a backlog part takes exactly those rows', () => {
    const part = newPart({ contractSum: SUM, invoices: [], rows, percent: null, withBacklog: true });
    expect(part).toEqual({ ok: true, contractAmount: 0, backlogAmount: 13_000_00, rowIds: ['a', 'ata1'] });
  });
  it('invoiced rows, and rows on an invoice, cannot be marked included', () => {
    expect(canMarkIncluded(rows[2]!, false)).toBe(false);
    expect(canMarkIncluded(rows[0]!, true)).toBe(false);
    expect(canMarkIncluded(rows[0]!, false)).toBe(true);
  });
});

describe('parts of the contract sum', () => {
  it('30 % then the rest is the contract sum; the rest absorbs the rounding of thirds', () => {
    const first = newPart({ contractSum: SUM, invoices: [], rows: [], percent: 30, withBacklog: false });
    expect(first).toMatchObject({ ok: true, contractAmount: 30_000_00 });
    const rest = newPart({
      contractSum: SUM,
      invoices: [final(30_000_00)],
      rows: [],
      percent: 'rest',
      withBacklog: false,
    });
    expect(rest).toMatchObject({ ok: true, contractAmount: 70_000_00 });

    const odd = 1_000_01; // 10 000,01 kr
    const third = percentOf(odd, 33.33);
    const parts = [final(third), final(third)];
    const last = newPart({ contractSum: odd, invoices: parts, rows: [], percent: 'rest', withBacklog: false });
    expect(last.ok && third * 2 + last.contractAmount).toBe(odd);
  });

  it('refuses a part beyond what is left (drafts count as planned), a 0 or 101 % part, and an empty invoice', () => {
    const drafts: ProjectInvoice[] = [
      final(60_000_00),
      { status: 'draft', contractAmount: 30_000_00, backlogAmount: 0 },
    ];
    expect(newPart({ contractSum: SUM, invoices: drafts, rows: [], percent: 20, withBacklog: false })).toEqual({
      ok: false,
      error: 'PROJECT_INVOICE_EXCEEDS_CONTRACT',
    });
    expect(newPart({ contractSum: SUM, invoices: drafts, rows: [], percent: 10, withBacklog: false }).ok).toBe(true);
    expect(newPart({ contractSum: SUM, invoices: [], rows: [], percent: 0, withBacklog: false })).toEqual({
      ok: false,
      error: 'ERROR_INVALID_VALUE',
    });
    expect(newPart({ contractSum: SUM, invoices: [], rows: [], percent: 101, withBacklog: false }).ok).toBe(false);
    expect(newPart({ contractSum: SUM, invoices: [final(SUM)], rows: [], percent: 'rest', withBacklog: true })).toEqual(
      {
        ok: false,
        error: 'PROJECT_INVOICE_EMPTY',
      },
    );
  });
});

describe('projectTotals', () => {
  it('a part invoice and a final invoice add up to the contract sum plus the accepted extra work', () => {
    const extra: BacklogRow = { id: 'ata', amount: 12_500_00, status: 'open', extraWork: 'accepted' };
    const before = projectTotals(SUM, [], [extra]);
    expect(before).toMatchObject({ invoiced: 0, backlog: 12_500_00, leftToInvoice: SUM + 12_500_00 });

    const part = final(40_000_00);
    const rest = newPart({ contractSum: SUM, invoices: [part], rows: [extra], percent: 'rest', withBacklog: true });
    if (!rest.ok) throw new Error(rest.error);
    const invoices = [part, final(rest.contractAmount, rest.backlogAmount)];
    const after = projectTotals(SUM, invoices, [{ ...extra, status: 'invoiced' }]);
    expect(after).toEqual({
      invoiced: SUM + 12_500_00,
      contractLeft: 0,
      contractUnplanned: 0,
      backlog: 0,
      leftToInvoice: 0,
    });
  });

  it('drafts are not invoiced yet', () => {
    const totals = projectTotals(SUM, [{ status: 'draft', contractAmount: 50_000_00, backlogAmount: 0 }], []);
    expect(totals).toMatchObject({ invoiced: 0, contractLeft: SUM, contractUnplanned: 50_000_00, leftToInvoice: SUM });
  });
});

describe('gaps the service relies on', () => {
  it('33,33 % twice and the rest make 100 000,00 exactly; nothing is left for a fourth part', () => {
    const third = percentOf(SUM, 33.33);
    const rest = newPart({
      contractSum: SUM,
      invoices: [final(third), { status: 'draft', contractAmount: third, backlogAmount: 0 }],
      rows: [],
      percent: 'rest',
      withBacklog: false,
    });
    expect(rest).toMatchObject({ ok: true, contractAmount: 33_340_00 });
    const all = [final(third), final(third), final(33_340_00)];
    expect(all.reduce((s, i) => s + i.contractAmount, 0)).toBe(SUM);
    expect(newPart({ contractSum: SUM, invoices: all, rows: [], percent: 0.01, withBacklog: false })).toEqual({
      ok: false,
      error: 'PROJECT_INVOICE_EXCEEDS_CONTRACT',
    });
  });

  it('a project without a contract sum invoices its backlog only; a percentage of nothing is empty', () => {
    const rows: BacklogRow[] = [{ id: 'a', amount: 1_250_00, status: 'open' }];
    expect(newPart({ contractSum: 0, invoices: [], rows, percent: 50, withBacklog: false })).toEqual({
      ok: false,
      error: 'PROJECT_INVOICE_EMPTY',
    });
    expect(newPart({ contractSum: 0, invoices: [], rows, percent: null, withBacklog: true })).toMatchObject({
      ok: true,
      contractAmount: 0,
      backlogAmount: 1_250_00,
    });
  });

  it('a credit row lowers the backlog; extra work that is declined stays out even when open', () => {
    const rows: BacklogRow[] = [
      { id: 'credit', amount: -500_00, status: 'open' },
      { id: 'ata', amount: 900_00, status: 'open', extraWork: 'declined' },
      { id: 'ok', amount: 200_00, status: 'open', extraWork: 'accepted' },
    ];
    expect(backlogOf(rows)).toBe(-300_00);
    expect(newPart({ contractSum: 0, invoices: [], rows, withBacklog: true })).toMatchObject({
      ok: true,
      backlogAmount: -300_00,
      rowIds: ['credit', 'ok'],
    });
  });
});
