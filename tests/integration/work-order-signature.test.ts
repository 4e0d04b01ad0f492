import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { postBinary } from '~/tests/helpers/binary';
import { pdfText } from '~/tests/helpers/pdf-text';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

/*
 * The work-order signature module (spec section 6, issue 32): the customer signs an open order
 * through the API with the printed name and the drawing, the technician and time are recorded, the
 * work-order PDF prints it (read back with pdf.js), reopening a closed order clears it and keeps it
 * as an earlier signature, another tenant's order is not found, and with the module off it is
 * refused.
 */

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
const ids: Record<string, string> = {};

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

interface Signature {
  id: string;
  signedName: string;
  signature: string | null;
  signedAt: string;
  technicianName: string | null;
  clearedAt: string | null;
  clearedReason: 'reopened' | 'removed' | null;
  clearedByName: string | null;
}
interface Signatures {
  current: Signature | null;
  earlier: Signature[];
  canSign: boolean;
}

/** A 1×1 PNG: what the pad sends is a PNG data URL. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('wosig-a');
  b = await createTestTenant('wosig-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    ids.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    ids.service = (await trx('work_types').where({ name: 'Service' }).first('id')).id;
    ids.customer = (await trx('customers').insert({ name: 'Brf Lärkan', customer_id: '7001' }).returning('id'))[0].id;
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv.close());

async function newOrder(): Promise<string> {
  const res = await call('POST', '/api/wo', tok.admin, {
    workOrder: {
      title: 'Service av porttelefon',
      workTypeId: ids.service,
      assignees: [ids.tech],
      customerId: ids.customer,
    },
  });
  expect(res.status, res.text).toBe(200);
  return res.json<{ workOrder: { id: string } }>().workOrder.id;
}

async function documentText(wo: string): Promise<string> {
  const pdf = await postBinary(srv.url, '/api/wo/pdf', a.host, tok.tech, { workOrder: wo });
  expect(pdf.status, pdf.body.toString()).toBe(200);
  return pdfText(pdf.body);
}

const setModule = (enabled: boolean) =>
  withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'workorder_signature' }).update({ enabled }));

describe('[work-order signature] through the API', () => {
  it('the customer signs an open order; the technician and time are recorded and the document prints it', async () => {
    const wo = await newOrder();
    const before = await call('GET', `/api/wo/${wo}/signature`, tok.tech);
    expect(before.status, before.text).toBe(200);
    expect(before.json<Signatures>()).toEqual({ current: null, earlier: [], canSign: true });
    // the close dialog warns while the order is unsigned
    const closeInfo = async () => (await call('GET', `/api/wo/${wo}/close`, tok.tech)).json<{ signature: string }>();
    expect((await closeInfo()).signature).toBe('unsigned');
    expect(await documentText(wo)).not.toContain('Kim Kund');

    // the printed name is required; a drawing that is not a PNG data URL is refused
    const noName = await call('POST', `/api/wo/${wo}/signature`, tok.tech, { name: '  ', image: PNG });
    expect([noName.status, noName.json<{ fields: object }>().fields]).toEqual([
      400,
      { name: ['ERROR_REQUIRED_FIELD'] },
    ]);
    const badImage = await call('POST', `/api/wo/${wo}/signature`, tok.tech, { name: 'Kim', image: 'javascript:x' });
    expect([badImage.status, badImage.json<{ fields: object }>().fields]).toEqual([
      400,
      { image: ['ERROR_INVALID_VALUE'] },
    ]);

    const signed = await call('POST', `/api/wo/${wo}/signature`, tok.tech, { name: ' Kim Kund ', image: PNG });
    expect(signed.status, signed.text).toBe(200);
    const s = signed.json<Signatures>();
    const techName = (await withTenant(tenantA, (trx) => trx('users').where({ id: ids.tech }).first('name'))).name;
    expect(s.current).toMatchObject({ signedName: 'Kim Kund', signature: PNG, technicianName: techName });
    expect(Number.isNaN(Date.parse(s.current!.signedAt))).toBe(false);
    expect((await closeInfo()).signature).toBe('signed');

    // signed once: a second signature is refused until the first is removed
    const again = await call('POST', `/api/wo/${wo}/signature`, tok.tech, { name: 'Någon Annan' });
    expect([again.status, again.json<{ code: string }>().code]).toEqual([409, 'WORK_ORDER_SIGNED']);

    // the work-order PDF carries the signer, the technician and the heading
    const text = await documentText(wo);
    expect(text).toContain('Kim Kund');
    expect(text).toContain(techName);
    expect(text).toContain('Kundens underskrift');

    // history
    const history = await withTenant(tenantA, (trx) =>
      trx('history').where({ entity_id: wo, action: 'signature.sign' }).select('data'),
    );
    expect(history.map((h) => h.data)).toEqual([{ signatureId: s.current!.id, signedName: 'Kim Kund', drawn: true }]);
  });

  it('a wrong name is removed and signed again; the removed one stays as earlier', async () => {
    const wo = await newOrder();
    await call('POST', `/api/wo/${wo}/signature`, tok.tech, { name: 'Fel Namn' });
    const removed = await call('DELETE', `/api/wo/${wo}/signature`, tok.tech);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json<Signatures>().current).toBeNull();
    expect(removed.json<Signatures>().earlier.map((e) => [e.signedName, e.clearedReason])).toEqual([
      ['Fel Namn', 'removed'],
    ]);
    const none = await call('DELETE', `/api/wo/${wo}/signature`, tok.tech);
    expect([none.status, none.json<{ code: string }>().code]).toEqual([409, 'WORK_ORDER_NOT_SIGNED']);
    // the name alone is a signature (someone who cannot draw)
    const right = await call('POST', `/api/wo/${wo}/signature`, tok.tech, { name: 'Rätt Namn' });
    expect(right.status, right.text).toBe(200);
    expect(right.json<Signatures>().current).toMatchObject({ signedName: 'Rätt Namn', signature: null });
    const text = await documentText(wo);
    expect(text).toContain('Rätt Namn');
    expect(text).not.toContain('Fel Namn');
  });

  it('closing keeps the signature; reopening clears it, keeps it as earlier, and the customer signs again', async () => {
    const wo = await newOrder();
    await call('POST', `/api/wo/${wo}/signature`, tok.tech, { name: 'Kim Kund', image: PNG });
    const closed = await call('POST', '/api/wo/close', tok.tech, { workOrderId: wo, withoutInvoice: true });
    expect(closed.status, closed.text).toBe(200);
    const whileClosed = (await call('GET', `/api/wo/${wo}/signature`, tok.tech)).json<Signatures>();
    expect([whileClosed.current?.signedName, whileClosed.canSign]).toEqual(['Kim Kund', false]);
    expect(await documentText(wo)).toContain('Kim Kund');
    // a closed order is not signed nor its signature removed
    const late = await call('DELETE', `/api/wo/${wo}/signature`, tok.tech);
    expect([late.status, late.json<{ code: string }>().code]).toEqual([409, 'WORK_ORDER_CLOSED']);

    const reopened = await call('POST', '/api/wo/reopen', tok.admin, { workOrderId: wo });
    expect(reopened.status, reopened.text).toBe(200);
    const after = (await call('GET', `/api/wo/${wo}/signature`, tok.tech)).json<Signatures>();
    expect(after.current).toBeNull();
    expect(after.canSign).toBe(true);
    expect(after.earlier.map((e) => [e.signedName, e.signature, e.clearedReason])).toEqual([
      ['Kim Kund', PNG, 'reopened'],
    ]);
    expect(await documentText(wo)).not.toContain('Kim Kund');
    const history = await withTenant(tenantA, (trx) =>
      trx('history').where({ entity_id: wo, action: 'edit' }).whereRaw(`data->>'reopened' = 'true'`).first('data'),
    );
    expect(history.data.signatureCleared).toEqual({ signatureId: after.earlier[0]!.id, signedName: 'Kim Kund' });

    const resigned = await call('POST', `/api/wo/${wo}/signature`, tok.tech, { name: 'Kim Kund' });
    expect(resigned.status, resigned.text).toBe(200);
    expect(resigned.json<Signatures>().earlier).toHaveLength(1);
  });

  it("another tenant's order is not found", async () => {
    const wo = await newOrder();
    const B = (m: string, body?: unknown) => call(m, `/api/wo/${wo}/signature`, tok.adminB, body, b.host);
    expect((await B('GET')).status).toBe(404);
    expect((await B('POST', { name: 'Inkräktare' })).status).toBe(404);
    expect((await B('DELETE')).status).toBe(404);
    expect((await call('GET', `/api/wo/${wo}/signature`, tok.tech)).json<Signatures>().current).toBeNull();
  });

  it('with the module off it is refused and the document prints no signature', async () => {
    const wo = await newOrder();
    await call('POST', `/api/wo/${wo}/signature`, tok.tech, { name: 'Kim Kund' });
    await setModule(false);
    try {
      expect((await call('POST', `/api/wo/${wo}/signature`, tok.tech, { name: 'X' })).status).toBe(403);
      expect((await call('DELETE', `/api/wo/${wo}/signature`, tok.tech)).status).toBe(403);
      expect((await call('GET', `/api/wo/${wo}/signature`, tok.tech)).status).toBe(403);
      expect(await documentText(wo)).not.toContain('Kim Kund');
      expect((await call('GET', `/api/wo/${wo}/close`, tok.tech)).json<{ signature: unknown }>().signature).toBeNull();
    } finally {
      await setModule(true);
    }
    expect(await documentText(wo)).toContain('Kim Kund');
  });
});
