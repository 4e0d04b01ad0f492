import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildSecurityFormDocumentModel,
  securityFormHtml,
  type TSecurityFormExport,
} from '~/core/business-objects/security-form-export.service';
import { closeBrowser } from '~/core/documents/pdf';
import { withTenant } from '~/core/db/with-tenant';
import type { Permission } from '~/core/permissions/permissions';
import type { Tenant } from '~/core/tenancy/tenant';
import { inTenant } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { pdfTitle, postBinary } from '~/tests/helpers/binary';
import { unzipEntry } from '~/tests/helpers/zip';
import { testAuth } from '~/tests/helpers/auth';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'office' | 'tech' | 'adminB', string>;
const ref = {} as Record<'bo' | 'boEmpty' | 'boB' | 'officeId', string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));
const exportForm = (id: string, body: unknown, token = tok.admin, host = a.host) =>
  postBinary(srv.url, `/api/bo/${id}/sec/form/export`, host, token, body);

/** A PNG of `width`×`height` dark pixels, as a signature pad's canvas gives it (a data URL). */
function signaturePng(width = 40, height = 12): string {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x20)]);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}
const SIGNATURE_PNG = signaturePng();

/** The text of a Word file's body, tags stripped (a run may split a value into several w:t). */
function docxText(zip: Buffer): string {
  const xml = unzipEntry(zip, 'word/document.xml');
  expect(xml, 'word/document.xml').not.toBeNull();
  return xml!.replace(/<w:br\/>/g, '\n').replace(/<[^>]+>/g, '');
}

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('secx-a');
  b = await createTestTenant('secx-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    const [customer] = await trx('customers').insert({ customer_id: '20001', name: 'Brf Lärkan' }).returning('id');
    const [model] = await trx('models').insert({ code: 'GFX', name: 'Galaxy Flex 50' }).returning('id');
    const [bo, empty] = await trx('business_objects')
      .insert([
        {
          serial_code: '30017',
          customer_id: customer.id,
          model_id: model.id,
          location: 'Lärkvägen 4',
          location2: '722 14 Västerås',
        },
        { serial_code: '30018' },
      ])
      .returning('id');
    await trx('business_object_contacts').insert({
      business_object_id: bo.id,
      name: 'Vera Vaktmästare',
      phone: '070-123 45 67',
    });
    const office = await ensureUser(trx, {
      email: `office@${a.slug}.se`,
      name: 'Olga Kontor',
      password: PASSWORD,
      accessLevels: ['Office'],
    });
    Object.assign(ref, { bo: bo.id, boEmpty: empty.id, officeId: office.id });
  });
  await withTenant((await getTenantBySlug(b.slug))!, async (trx) => {
    const [bo] = await trx('business_objects').insert({ serial_code: '30017' }).returning('id');
    ref.boB = bo.id;
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.office = await signIn(a, `office@${a.slug}.se`);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
  const put = async (type: string, data: Record<string, unknown>) =>
    expect((await call('PUT', `/api/bo/${ref.bo}/sec/${type}`, tok.admin, { data })).status).toBe(200);
  await put('form', {
    controlPanel: 'Galaxy Flex 50 Centralen',
    certificationClass: 'class2',
    numberOfZones: 12,
    installationDate: '2024-03-05',
    notes: 'Larmet kvitteras vid entrén',
  });
  await put('camera', { recorder: 'Inspelare NVR-77', remoteAccess: true, storageDays: 30 });
  await put('firealarm', { sprinkler: false, monitoring: 'rescue_service' });
});
afterAll(async () => {
  await closeBrowser();
  await srv.close();
});

const authOf = (userId: string, perms: Permission[]) => testAuth(userId, perms, ['security']);

const model = (input: Pick<TSecurityFormExport, 'signature' | 'excludedPages'>, id = ref.bo) =>
  inTenant({ tenant: tenantA, auth: authOf(ref.officeId, ['security:bo_document:read']), lang: 'sv' }, (ctx) =>
    buildSecurityFormDocumentModel(ctx, id, input),
  );

describe('[security form] the document model', () => {
  it('prints the object page and each filled form as a page, in words of the document language', async () => {
    const m = await model({ signature: undefined, excludedPages: [] });
    expect(m.lang).toBe('sv');
    expect(m.object).toEqual({ serial: '30017', model: 'Galaxy Flex 50' });
    expect(m.objectPage?.facts).toEqual(
      expect.arrayContaining([
        { label: 'Kund', value: 'Brf Lärkan' },
        { label: 'Placering', value: 'Lärkvägen 4\n722 14 Västerås' },
      ]),
    );
    expect(m.objectPage?.contacts).toEqual([{ name: 'Vera Vaktmästare', details: '070-123 45 67' }]);
    // Only the systems filled in, in the forms' order; passage and assault have no data.
    expect(m.pages.map((p) => p.key)).toEqual(['burglary', 'camera', 'firealarm']);
    const burglary = m.pages[0]!;
    expect(burglary.updatedBy).toEqual(expect.any(String));
    const facts = burglary.sections.flatMap((s) => s.facts);
    expect(facts).toEqual(
      expect.arrayContaining([
        { label: 'Larmklass', value: 'Larmklass 2' },
        { label: 'Antal sektioner', value: '12' },
        { label: 'Installationsdatum', value: '2024-03-05' },
      ]),
    );
    expect(m.pages[2]!.sections.flatMap((s) => s.facts)).toEqual(
      expect.arrayContaining([{ label: 'Sprinkler finns', value: 'Nej' }]),
    );
    // The HTML has one page-breaking section per system and no access codes.
    const html = securityFormHtml(m);
    expect(html.match(/class="page"/g)).toHaveLength(3);
    expect(html).toContain('Inspelare NVR-77');
    expect(html).toContain('Säkerhetsdokumentation');
  });

  it('leaves excluded pages out', async () => {
    const m = await model({ signature: undefined, excludedPages: ['object', 'camera'] });
    expect(m.objectPage).toBeNull();
    expect(m.pages.map((p) => p.key)).toEqual(['burglary', 'firealarm']);
    const html = securityFormHtml(m);
    expect(html).not.toContain('Inspelare NVR-77');
    expect(html).not.toContain('Brf Lärkan');
    expect(html).not.toContain('Vera Vaktmästare');
    expect(html).toContain('Galaxy Flex 50 Centralen');
  });
});

describe('[security form] POST /api/bo/{id}/sec/form/export', () => {
  it('answers a Word file with the forms, the typed signature, and without the excluded pages', async () => {
    const res = await exportForm(ref.bo, { type: 'docx', signature: 'Vera Vaktmästare', excludedPages: ['camera'] });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(res.headers['content-disposition']).toContain('filename="security-form-30017.docx"');
    expect(res.body.subarray(0, 2).toString('latin1')).toBe('PK');
    const body = docxText(res.body);
    expect(body).toContain('Säkerhetsdokumentation');
    expect(body).toContain('Galaxy Flex 50 Centralen');
    expect(body).toContain('Larmet kvitteras vid entrén');
    expect(body).toContain('Brf Lärkan');
    expect(body).toContain('Underskrift');
    expect(body).toContain('Vera Vaktmästare');
    expect(body).not.toContain('Inspelare NVR-77');
    expect(body).not.toContain('Kamerabevakning');
    // Each system starts a new page.
    expect(unzipEntry(res.body, 'word/document.xml')!.match(/<w:pageBreakBefore\/>/g)).toHaveLength(2);
  });

  it('puts a drawn signature in as an image', async () => {
    const res = await exportForm(ref.bo, { type: 'docx', signature: SIGNATURE_PNG });
    expect(res.status).toBe(200);
    expect(unzipEntry(res.body, 'word/document.xml')).toContain('<pic:pic');
    const body = docxText(res.body);
    expect(body).toContain('Inspelare NVR-77');
    expect(body).not.toContain('data:image');
  });

  it('answers a PDF, one page per system after the object page', async () => {
    const pages = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length ?? 0;
    const all = await exportForm(ref.bo, { type: 'pdf', signature: SIGNATURE_PNG, excludedPages: [] });
    expect(all.status).toBe(200);
    expect(all.headers['content-type']).toBe('application/pdf');
    expect(all.headers['content-disposition']).toContain('filename="security-form-30017.pdf"');
    expect(all.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfTitle(all.body)).toBe('Säkerhetsdokumentation 30017');
    expect(pages(all.body)).toBe(4);
    const fewer = await exportForm(ref.bo, { type: 'pdf', excludedPages: ['camera', 'firealarm'] });
    expect(fewer.status).toBe(200);
    expect(pages(fewer.body)).toBe(2);
  });

  it('prints an object with no forms as its object page and a line to sign', async () => {
    const res = await exportForm(ref.boEmpty, { type: 'docx' });
    expect(res.status).toBe(200);
    const body = docxText(res.body);
    expect(body).toContain('30018');
    expect(body).toContain('____');
  });

  it('refuses a bad type, signature or page with the field named (400)', async () => {
    const bad = async (body: unknown) => {
      const res = await call('POST', `/api/bo/${ref.bo}/sec/form/export`, tok.admin, body);
      expect(res.status).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
      return res.json().fields;
    };
    expect(await bad({ type: 'xlsx' })).toEqual({ type: ['ERROR_INVALID_VALUE'] });
    expect(await bad({})).toEqual({ type: ['ERROR_REQUIRED_FIELD'] });
    expect(await bad({ type: 'pdf', excludedPages: ['camera', 'codes'] })).toEqual({
      'excludedPages.1': ['ERROR_INVALID_VALUE'],
    });
    expect(await bad({ type: 'pdf', excludedPages: 'camera' })).toEqual({ excludedPages: ['ERROR_INVALID_VALUE'] });
    expect(await bad({ type: 'pdf', signature: 'data:image/png;base64,bm90IGEgcG5n' })).toEqual({
      signature: ['ERROR_INVALID_VALUE'],
    });
    expect(await bad({ type: 'docx', signature: 'x'.repeat(201) })).toEqual({ signature: ['ERROR_MAX_LENGTH'] });
    expect(await bad({ type: 'docx', signature: 42 })).toEqual({ signature: ['ERROR_INVALID_VALUE'] });
  });

  it("answers 404 for another tenant's object, whatever the body", async () => {
    const res = await call('POST', `/api/bo/${ref.boB}/sec/form/export`, tok.admin, { type: 'pdf' });
    expect(res.status).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
    expect((await call('POST', `/api/bo/${ref.boB}/sec/form/export`, tok.admin, { type: 'bad' })).status).toBe(404);
    expect((await call('POST', '/api/bo/not-a-uuid/sec/form/export', tok.admin, { type: 'pdf' })).status).toBe(404);
    // In its own tenant it is found.
    expect((await exportForm(ref.boB, { type: 'docx' }, tok.adminB, b.host)).status).toBe(200);
  });

  it('needs security:bo_document:read and the security module (403)', async () => {
    expect((await call('POST', `/api/bo/${ref.bo}/sec/form/export`, tok.tech, { type: 'docx' })).status).toBe(403);
    expect((await exportForm(ref.bo, { type: 'docx' }, tok.office)).status).toBe(200);
    await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'security' }).update({ enabled: false }));
    try {
      const res = await call('POST', `/api/bo/${ref.bo}/sec/form/export`, tok.office, { type: 'docx' });
      expect(res.status).toBe(403);
      expect(res.json().code).toBe('WARNING_PERMISSION_DENIED');
    } finally {
      await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'security' }).update({ enabled: true }));
    }
  });
});
