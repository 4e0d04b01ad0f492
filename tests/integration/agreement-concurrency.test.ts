import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDue } from '~/core/agreements/agreement-runs';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { insertAgreementType, insertObjectsWithAgreements } from '~/tests/helpers/agreements';
import { createTestTenant, startTestServer, type TestServer } from '~/tests/helpers/app';

/*
 * Exactly once per period under failure (issue 16 item 3): a duplicated job, a worker killed halfway
 * (a real process, SIGKILL while its batch is written but not committed), and two workers running at
 * once. Both need separate database connections, so this file runs on PostgreSQL only.
 */

const previousUrl = process.env.TEST_DATABASE_URL;
process.env.TEST_DATABASE_URL = previousUrl ?? 'postgres://postgres@127.0.0.1:5432/test';

let srv: TestServer;
let tenant: Tenant;
let slug: string;
const now = new Date('2026-11-25T10:00:00Z');

beforeAll(async () => {
  srv = await startTestServer();
  slug = (await createTestTenant('agr-conc')).slug;
  tenant = (await getTenantBySlug(slug))!;
});
afterAll(async () => {
  await srv.close();
  if (previousUrl === undefined) delete process.env.TEST_DATABASE_URL;
});

async function setUp(code: string, count: number): Promise<string> {
  return withTenant(tenant, async (trx) => {
    const id = await insertAgreementType(trx, { code, invoiceInterval: 'quarter', woInterval: null });
    await insertObjectsWithAgreements(trx, { agreementId: id, count, start: '2026-01-01', prefix: code });
    return id;
  });
}

/** Invoices per (agreement, period) for one type: every period exactly once means all counts are 1. */
async function invoiceCounts(agreementId: string): Promise<{ periods: number; max: number; total: number }> {
  return withTenant(tenant, async (trx) => {
    const r = await trx.raw(
      `select count(*)::int as periods, coalesce(max(n), 0)::int as max, coalesce(sum(n), 0)::int as total from (
         select i.object_agreement_id, i.period_from, count(*) as n from invoices i
           join object_agreements oa on oa.id = i.object_agreement_id
          where oa.agreement_id = ? group by 1, 2) x`,
      [agreementId],
    );
    return r.rows[0] as { periods: number; max: number; total: number };
  });
}

describe('[agreements] exactly once per period', () => {
  it('a duplicated job makes nothing the second time', async () => {
    const type = await setUp('DUP', 30);
    const first = await generateDue(tenant, { now, kinds: ['invoice'] });
    // four quarters of 2026 are due by 25 November, for 30 agreements
    expect(first.invoices).toBe(120);
    const second = await generateDue(tenant, { now, kinds: ['invoice'] });
    expect(second.invoices).toBe(0);
    expect(await invoiceCounts(type)).toEqual({ periods: 120, max: 1, total: 120 });
  });

  it('a worker killed before its batch commits leaves nothing; the next run makes every period once', async () => {
    const type = await setUp('KILL', 40);
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/agreement-generate-child.ts'], {
      env: { ...process.env, TENANT_SLUG: slug, UNTIL: '2026-11-25', LIMIT: '25', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code)),
    );
    const deadline = Date.now() + 60_000;
    while (!stdout.includes('written')) {
      if (Date.now() > deadline) throw new Error(`the child never wrote its batch: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(stdout).toContain('written 100');
    // written but not committed: nobody else sees any of it
    expect((await invoiceCounts(type)).total).toBe(0);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    // the connection's end rolls the batch back and releases its locks: the next run makes all, once
    let rest = 0;
    const until = Date.now() + 30_000;
    while ((await invoiceCounts(type)).total < 160 && Date.now() < until) {
      rest += (await generateDue(tenant, { now, kinds: ['invoice'] })).invoices;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(rest).toBe(160);
    expect(await invoiceCounts(type)).toEqual({ periods: 160, max: 1, total: 160 });
  });

  it('two workers at once share the agreements between them and make each period once', async () => {
    const type = await setUp('PAIR', 400);
    const nrBefore = await withTenant(tenant, (trx) => trx('invoice_settings').first('next_invoice_nr'));
    const [a, b] = await Promise.all([
      generateDue(tenant, { now, kinds: ['invoice'], batchSize: 50 }),
      generateDue(tenant, { now, kinds: ['invoice'], batchSize: 50 }),
    ]);
    expect(a.invoices + b.invoices).toBe(1600);
    expect(await invoiceCounts(type)).toEqual({ periods: 1600, max: 1, total: 1600 });
    // numbers without gaps or doubles across both workers
    const numbers = await withTenant(tenant, async (trx) => {
      const r = await trx.raw(
        `select count(distinct invoice_sequence)::int as distinct, min(invoice_sequence)::bigint as lo, max(invoice_sequence)::bigint as hi
           from invoices i join object_agreements oa on oa.id = i.object_agreement_id where oa.agreement_id = ?`,
        [type],
      );
      return r.rows[0] as { distinct: number; lo: string; hi: string };
    });
    expect(numbers.distinct).toBe(1600);
    expect(Number(numbers.hi) - Number(numbers.lo) + 1).toBe(1600);
    expect(Number(numbers.lo)).toBe(Number(nrBefore.next_invoice_nr));
  });
});
