/**
 * Issue 12: files on records and in the drive through the API: uploads checked by their bytes,
 * refusals that leave nothing behind (on disk or in the table), permissions per record kind,
 * another tenant's ids as not found, downloads (ranges, nosniff, names), folders, links, moves,
 * publishing, download all, and the revisit's copy.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_SCHEMA } from '~/core/db/identifiers';
import { getDatabase, withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug, invalidateHostCache } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { multipart, type Part } from '~/tests/helpers/http';
import { unzipEntry } from '~/tests/helpers/zip';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'reader' | 'adminB', string>;
const ref = {} as Record<'customer' | 'bo' | 'wo' | 'woB' | 'customerB' | 'techWo', string>;
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json<T = any>(): T; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function send(
  method: string,
  p: string,
  token: string,
  opts: { body?: Buffer; type?: string; headers?: Record<string, string>; host?: string } = {},
): Promise<Raw> {
  const url = new URL(p, srv.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: {
          host: opts.host ?? a.host,
          authorization: `Bearer ${token}`,
          ...(opts.type ? { 'content-type': opts.type } : {}),
          ...(opts.body ? { 'content-length': String(opts.body.length) } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: () => JSON.parse(body.toString('utf8')),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

const upload = (target: string, parts: Part[], token = tok.admin, host?: string) => {
  const m = multipart(parts);
  return send('POST', `/api/file/${target}`, token, { body: m.body, type: m.type, host });
};

let png: Buffer;
let jpeg: Buffer;
const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

function zipOf(entries: Record<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, body] of Object.entries(entries)) zip.addBuffer(body, name);
  zip.end();
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => parts.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(parts)));
  });
}

/** Every stored object of the tenant (keys under its schema name). */
function storedKeys(): string[] {
  const dir = path.join(srv.config.DATA_DIR, 'files', tenantA.schemaName);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !f.endsWith('.partial')) : [];
}
const fileRows = () => withTenant(tenantA, (trx) => trx('files').count({ n: '*' }).first()).then((r) => Number(r!.n));
const storageBytes = () =>
  withTenant(tenantA, (trx) => trx('file_storage').first('bytes')).then((r) => Number(r!.bytes));

async function setLimits(files: { maxUploadMb: number; quotaMb: number }) {
  await getDatabase()
    .knex.withSchema(CONTROL_SCHEMA)
    .table('tenants')
    .where({ id: tenantA.id })
    .update({ config: getDatabase().knex.raw(`config || ?::jsonb`, [JSON.stringify({ files })]) });
  invalidateHostCache();
}

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('files-a');
  b = await createTestTenant('files-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert({
      display_name: 'Reader',
      permissions: ['workorders:read', 'customers:read', 'bo:read', 'bo:files:read'],
      work_order_limit: 'none',
    });
    await ensureUser(trx, {
      email: `reader@${a.slug}.se`,
      name: 'Rita Läsare',
      password: PASSWORD,
      accessLevels: ['Reader'],
    });
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.reader = await signIn(a, `reader@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);
  ref.customer = (
    await call('POST', '/api/customers', tok.admin, { customer: { customerId: '1001', name: 'Solros BRF' } })
  ).json().id;
  ref.bo = (
    await call('POST', '/api/bo', tok.admin, { bo: { serialCode: 'LARM-1', customerId: ref.customer } })
  ).json().id;
  ref.wo = (
    await call('POST', '/api/wo', tok.admin, {
      workOrder: { title: 'Larmet tjuter', customerId: ref.customer, businessObjectId: ref.bo },
    })
  ).json().workOrder.id;
  ref.woB = (await call('POST', '/api/wo', tok.adminB, { workOrder: { title: 'Annans' } }, b.host)).json().workOrder.id;
  ref.customerB = (
    await call('POST', '/api/customers', tok.adminB, { customer: { customerId: '9', name: 'B AB' } }, b.host)
  ).json().id;
  png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366aa' } })
    .png()
    .toBuffer();
  jpeg = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#aa6633' } })
    .jpeg()
    .toBuffer();
});
afterAll(() => srv?.close());

describe('uploads', () => {
  it('stores several files at once, typed by their bytes, with a re-encoded thumbnail for images', async () => {
    const res = await upload(`generic/wo/${ref.wo}`, [
      { filename: 'photo 1.jpg', body: jpeg, type: 'image/jpeg' },
      // the name and the browser's type lie: the bytes are a PNG
      { filename: 'ritning.pdf', body: png, type: 'application/pdf' },
      { filename: '../../etc/protokoll.pdf', body: pdf },
    ]);
    expect(res.status, res.body.toString()).toBe(200);
    const files = res.json().files as {
      id: string;
      name: string;
      contentType: string;
      size: number;
      hasThumbnail: boolean;
    }[];
    expect(files.map((f) => [f.name, f.contentType, f.hasThumbnail])).toEqual([
      ['photo 1.jpg', 'image/jpeg', true],
      ['ritning.pdf', 'image/png', true],
      ['protokoll.pdf', 'application/pdf', false],
    ]);
    expect(files[2]!.size).toBe(pdf.length);
    const thumb = await send('GET', `/api/file/${files[0]!.id}/thumbnail`, tok.admin);
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    // an image shown in its own tab runs nothing
    expect(thumb.headers['content-security-policy']).toContain('sandbox');
    const meta = await sharp(thumb.body).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(320);

    const list = (await send('GET', `/api/file/generic/wo/${ref.wo}`, tok.admin)).json();
    expect(list.totalCount).toBe(3);
    expect(list.files.map((f: { name: string }) => f.name)).toEqual(['photo 1.jpg', 'ritning.pdf', 'protokoll.pdf']);
  });

  it('downloads with its type, nosniff, a safe name, inline only for what can be shown, and byte ranges', async () => {
    const [up] = (await upload(`generic/customer/${ref.customer}`, [{ filename: 'Avtal "å".pdf', body: pdf }])).json()
      .files;
    const res = await send('GET', `/api/file/${up.id}`, tok.admin);
    expect(res.status).toBe(200);
    expect(res.body.equals(pdf)).toBe(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBe(
      `inline; filename="Avtal ___.pdf"; filename*=UTF-8''${encodeURIComponent('Avtal "å".pdf')}`,
    );
    expect((await send('GET', `/api/file/${up.id}?download=1`, tok.admin)).headers['content-disposition']).toMatch(
      /^attachment;/,
    );
    const part = await send('GET', `/api/file/${up.id}`, tok.admin, { headers: { range: 'bytes=0-4' } });
    expect(part.status).toBe(206);
    expect(part.body.toString()).toBe('%PDF-');
    expect(part.headers['content-range']).toBe(`bytes 0-4/${pdf.length}`);
    expect((await send('GET', `/api/file/${up.id}`, tok.admin, { headers: { range: 'bytes=9999-' } })).status).toBe(
      416,
    );
    const docx = await zipOf({
      '[Content_Types].xml': Buffer.from('<Types/>'),
      'word/document.xml': Buffer.from('<w:document/>'),
    });
    const [word] = (await upload(`generic/customer/${ref.customer}`, [{ filename: 'offert', body: docx }])).json()
      .files;
    expect(word.contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect((await send('GET', `/api/file/${word.id}`, tok.admin)).headers['content-disposition']).toMatch(
      /^attachment;/,
    );
  });

  describe('refusals leave nothing behind', () => {
    const refusals: [string, () => Promise<Part[]>, number, string][] = [
      ['an empty file', async () => [{ filename: 'tom.pdf', body: Buffer.alloc(0) }], 400, 'FILE_EMPTY'],
      [
        'a type not on the list, whatever its name',
        async () => [{ filename: 'photo.jpg', body: '<html><script>alert(1)</script></html>' }],
        400,
        'FILE_TYPE_NOT_ALLOWED',
      ],
      [
        'a truncated PNG',
        async () => [{ filename: 'halv.png', body: png.subarray(0, png.length - 30) }],
        400,
        'FILE_TRUNCATED',
      ],
      ['a truncated PDF', async () => [{ filename: 'halv.pdf', body: pdf.subarray(0, 30) }], 400, 'FILE_TRUNCATED'],
      [
        'a truncated zip',
        async () => [{ filename: 'a.zip', body: (await zipOf({ 'a.txt': Buffer.alloc(1000, 1) })).subarray(0, 60) }],
        400,
        'FILE_TRUNCATED',
      ],
      [
        'a zip bomb',
        async () => [{ filename: 'bomb.zip', body: await zipOf({ 'zeros.bin': Buffer.alloc(30 * 1024 * 1024) }) }],
        400,
        'FILE_ARCHIVE_TOO_LARGE',
      ],
      [
        'a good file beside a bad one (the whole request is refused)',
        async () => [
          { filename: 'ok.png', body: png },
          { filename: 'bad.png', body: png.subarray(0, 100) },
        ],
        400,
        'FILE_TRUNCATED',
      ],
    ];
    for (const [what, parts, status, code] of refusals)
      it(`refuses ${what}: ${code}`, async () => {
        const before = { keys: storedKeys().length, rows: await fileRows(), bytes: await storageBytes() };
        const res = await upload(`generic/bo/${ref.bo}`, await parts());
        expect(res.status, res.body.toString()).toBe(status);
        expect(res.json()).toMatchObject({ code, fields: { file: [code] } });
        expect({ keys: storedKeys().length, rows: await fileRows(), bytes: await storageBytes() }).toEqual(before);
      });

    it('refuses a file over the tenant size limit with the limit, and a full quota, leaving nothing', async () => {
      await setLimits({ maxUploadMb: 1, quotaMb: 10_240 });
      try {
        const before = { keys: storedKeys().length, rows: await fileRows() };
        const big = Buffer.concat([pdf.subarray(0, 9), Buffer.alloc(1024 * 1024 + 10, 0x20), Buffer.from('%%EOF')]);
        const res = await upload(`generic/bo/${ref.bo}`, [{ filename: 'stor.pdf', body: big }]);
        expect(res.json()).toMatchObject({ code: 'FILE_TOO_LARGE', limits: { file: 1 } });
        expect(res.status).toBe(413);
        expect({ keys: storedKeys().length, rows: await fileRows() }).toEqual(before);

        // a quota of 1 MB, of which the tenant already uses some: two files that together pass it
        const used = await storageBytes();
        await setLimits({ maxUploadMb: 50, quotaMb: Math.ceil(used / 1024 / 1024) + 1 });
        const left = Math.ceil(used / 1024 / 1024) * 1024 * 1024 + 1024 * 1024 - used;
        const half = Buffer.concat([
          pdf.subarray(0, 9),
          Buffer.alloc(Math.floor(left * 0.6), 0x20),
          Buffer.from('%%EOF'),
        ]);
        const over = await upload(`generic/bo/${ref.bo}`, [
          { filename: 'a.pdf', body: half },
          { filename: 'b.pdf', body: half },
        ]);
        expect(over.status).toBe(413);
        expect(over.json().code).toBe('STORAGE_QUOTA_EXCEEDED');
        expect({ keys: storedKeys().length, rows: await fileRows() }).toEqual(before);
        expect(await storageBytes()).toBe(used);
        // one of them fits
        expect((await upload(`generic/bo/${ref.bo}`, [{ filename: 'a.pdf', body: half }])).status).toBe(200);
      } finally {
        await setLimits({ maxUploadMb: 50, quotaMb: 10_240 });
      }
    });
  });
});

describe('permissions and tenants', () => {
  it("gates each kind by its files and files:read permissions, and answers another tenant's ids as not found", async () => {
    // the reader may see an object's files but not upload; sees no work-order files upload either
    expect((await send('GET', `/api/file/generic/bo/${ref.bo}`, tok.reader)).status).toBe(200);
    expect((await upload(`generic/bo/${ref.bo}`, [{ filename: 'x.pdf', body: pdf }], tok.reader)).status).toBe(403);
    expect((await send('GET', `/api/file/generic/customer/${ref.customer}`, tok.reader)).status).toBe(403);
    expect((await upload(`generic/wo/${ref.wo}`, [{ filename: 'x.pdf', body: pdf }], tok.reader)).status).toBe(403);
    // the technician sees only orders assigned to them: this one is not found
    expect((await send('GET', `/api/file/generic/wo/${ref.wo}`, tok.tech)).status).toBe(404);
    const [f] = (await send('GET', `/api/file/generic/wo/${ref.wo}`, tok.admin)).json().files;
    expect((await send('GET', `/api/file/${f.id}`, tok.tech)).status).toBe(404);
    // another tenant's record and file
    expect((await send('GET', `/api/file/generic/wo/${ref.woB}`, tok.admin)).status).toBe(404);
    expect((await upload(`generic/wo/${ref.woB}`, [{ filename: 'x.pdf', body: pdf }])).status).toBe(404);
    expect((await send('GET', `/api/file/${f.id}`, tok.adminB, { host: b.host })).status).toBe(404);
    expect((await send('DELETE', `/api/file/${f.id}`, tok.adminB, { host: b.host })).status).toBe(404);
    expect((await send('GET', `/api/file/generic/nosuchkind/${ref.wo}`, tok.admin)).status).toBe(404);
  });
});

describe('folders, links, order and deletion', () => {
  it('makes folders and links, moves, renames, reorders, and deletes a folder with its contents after commit', async () => {
    const base = `/api/file/generic/customer/${ref.customer}`;
    const folder = (await call('POST', `${base}/folder`, tok.admin, { name: 'Ritningar' })).json().file;
    const sub = (await call('POST', `${base}/folder`, tok.admin, { name: 'Plan 2', parentId: folder.id })).json().file;
    expect((await call('POST', `${base}/link`, tok.admin, { name: '', link: '' })).json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { name: expect.any(Array), link: expect.any(Array) },
    });
    expect(
      (await call('POST', `${base}/link`, tok.admin, { name: 'Manual', link: 'javascript:alert(1)' })).status,
    ).toBe(400);
    const link = (
      await call('POST', `${base}/link`, tok.admin, {
        name: 'Manual',
        link: 'https://example.com/m.pdf',
        folderId: folder.id,
      })
    ).json().file;
    expect(link).toMatchObject({ kind: 'link', folderId: folder.id });
    const m = multipart([
      { name: 'folderId', body: sub.id },
      { filename: 'plan.png', body: png },
    ]);
    const up = await send('POST', `${base}`, tok.admin, { body: m.body, type: m.type });
    expect(up.status, up.body.toString()).toBe(200);
    const planFile = up.json().files[0];
    expect(planFile.folderId).toBe(sub.id);

    const inFolder = (await call('GET', `${base}?folderId=${folder.id}`, tok.admin)).json();
    expect(inFolder.path.map((p: { name: string }) => p.name)).toEqual(['Ritningar']);
    expect(inFolder.files.map((f: { name: string }) => f.name)).toEqual(['Plan 2', 'Manual']);
    // a folder cannot go into its own sub-folder
    expect((await call('POST', `/api/file/${folder.id}/move`, tok.admin, { folderId: sub.id })).status).toBe(409);
    expect((await call('POST', `/api/file/${link.id}/rename`, tok.admin, { name: '  ' })).status).toBe(400);
    expect(
      (await call('POST', `/api/file/${link.id}/rename`, tok.admin, { name: 'Bruksanvisning' })).json().file.name,
    ).toBe('Bruksanvisning');
    expect(
      (await call('POST', `/api/file/${link.id}/move`, tok.admin, { folderId: null })).json().file.folderId,
    ).toBeNull();
    const top = (await call('GET', base, tok.admin)).json().files as { id: string; name: string; kind: string }[];
    const notFolders = top
      .filter((f) => f.kind !== 'folder')
      .map((f) => f.id)
      .reverse();
    expect((await call('POST', `/api/file/${notFolders[0]}/reorder`, tok.admin, { ids: notFolders })).status).toBe(200);
    const after = (await call('GET', base, tok.admin)).json().files as { id: string; kind: string }[];
    expect(after.filter((f) => f.kind !== 'folder').map((f) => f.id)).toEqual(notFolders);

    const keysBefore = storedKeys();
    expect(keysBefore.some((k) => k === planFile.id)).toBe(false); // keys are random, not ids
    const bytesBefore = await storageBytes();
    expect((await call('DELETE', `/api/file/${folder.id}`, tok.admin)).status).toBe(200);
    expect((await call('GET', `/api/file/${planFile.id}`, tok.admin)).status).toBe(404);
    expect(await storageBytes()).toBe(bytesBefore - planFile.size);
    // after commit, off the request: on a loaded machine (CI runs this set beside the browser tests) it
    // takes longer than the poll's default second
    await expect.poll(() => storedKeys().length, { timeout: 20_000 }).toBe(keysBefore.length - 2); // the file and its thumbnail
  });

  it('zips up to 100 files of a folder for "download all", names made unique', async () => {
    const target = `generic/model/${(await withTenant(tenantA, (trx) => trx('models').insert({ name: 'Dörröppnare X', code: 'DX-1' }).returning('id')))[0].id}`;
    await upload(target, [
      { filename: 'a.pdf', body: pdf },
      { filename: 'a.pdf', body: pdf },
    ]);
    const zip = await send('GET', `/api/file/${target}/archive`, tok.admin);
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(unzipEntry(zip.body, 'a.pdf')).toContain('%PDF-');
    expect(unzipEntry(zip.body, 'a (2).pdf')).toContain('%%EOF');
  });
});

describe('publishing and the drive', () => {
  it("publishes an object's file to its customer, listed on the customer; unpublishes", async () => {
    const [f] = (await upload(`generic/bo/${ref.bo}`, [{ filename: 'intyg.pdf', body: pdf }])).json().files;
    const pub = await call('POST', `/api/file/drive/${f.id}/publish`, tok.admin, {});
    expect(pub.status, pub.text).toBe(200);
    expect(pub.json().file.published).toBe(true);
    const listed = (await call('GET', `/api/file/published/${ref.customer}`, tok.admin)).json().files;
    expect(listed.map((x: { id: string }) => x.id)).toContain(f.id);
    expect((await call('POST', `/api/file/drive/${f.id}/publish`, tok.tech, {})).status).toBe(403);
    await call('POST', `/api/file/drive/${f.id}/unpublish`, tok.admin, {});
    expect(
      (await call('GET', `/api/file/published/${ref.customer}`, tok.admin))
        .json()
        .files.map((x: { id: string }) => x.id),
    ).not.toContain(f.id);
  });

  it('keeps drive folders, recent files, favourites and search; a drive file is published to a named customer', async () => {
    const folder = (await call('POST', '/api/file/drive/folder', tok.admin, { name: 'Manualer' })).json().file;
    const m = multipart([
      { name: 'folderId', body: folder.id },
      { filename: 'Manual Axis.pdf', body: pdf },
    ]);
    const up = await send('POST', '/api/file/drive', tok.admin, { body: m.body, type: m.type });
    expect(up.status, up.body.toString()).toBe(200);
    const file = up.json().files[0];
    expect((await call('GET', '/api/file/drive/recent', tok.admin)).json().files[0].id).toBe(file.id);
    expect(
      (await call('GET', '/api/file/drive?q=axis', tok.admin)).json().files.map((f: { id: string }) => f.id),
    ).toEqual([file.id]);
    expect((await call('GET', '/api/file/drive', tok.admin)).json().files.map((f: { id: string }) => f.id)).toEqual([
      folder.id,
    ]);
    expect((await call('GET', '/api/file/drive?size=30', tok.admin)).status).toBe(400);
    await call('PUT', '/api/file/drive/config/favourites', tok.tech, { id: file.id, favourite: true });
    expect(
      (await call('GET', '/api/file/drive/favourites', tok.tech)).json().files.map((f: { id: string }) => f.id),
    ).toEqual([file.id]);
    expect((await call('GET', '/api/file/drive/favourites', tok.admin)).json().files).toEqual([]);
    // the technician reads the drive but may not upload
    expect((await upload('drive', [{ filename: 'x.pdf', body: pdf }], tok.tech)).status).toBe(403);
    expect((await call('POST', `/api/file/drive/${file.id}/publish`, tok.admin, {})).status).toBe(400);
    expect(
      (await call('POST', `/api/file/drive/${file.id}/publish`, tok.admin, { customerId: ref.customerB })).status,
    ).toBe(404);
    expect(
      (await call('POST', `/api/file/drive/${file.id}/publish`, tok.admin, { customerId: ref.customer })).status,
    ).toBe(200);
  });

  it("serves the spec's /file/drive/{id} paths for the drive GET /file/drive names, and 404 for any other id", async () => {
    const drive = (await call('GET', '/api/file/drive', tok.admin)).json();
    const id = drive.driveId as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    // the same listing, folder, link, recent files and favourites under the drive's own path
    const folder = await call('POST', `/api/file/drive/${id}/folder`, tok.admin, { name: 'Ritningar' });
    expect(folder.status, folder.text).toBe(200);
    const link = await call('POST', `/api/file/drive/${id}/link`, tok.admin, {
      name: 'Leverantörsportal',
      link: 'https://example.com/portal',
      folderId: folder.json().file.id,
    });
    expect(link.status, link.text).toBe(200);
    const byId = (await call('GET', `/api/file/drive/${id}?folderId=${folder.json().file.id}`, tok.admin)).json();
    expect(byId.files.map((f: { name: string }) => f.name)).toEqual(['Leverantörsportal']);
    expect(byId.driveId).toBe(id);
    expect((await call('GET', `/api/file/drive/${id}?q=ritn`, tok.admin)).json().files[0].id).toBe(
      folder.json().file.id,
    );
    expect((await call('GET', `/api/file/drive/${id}/recent`, tok.admin)).json()).toEqual(
      (await call('GET', '/api/file/drive/recent', tok.admin)).json(),
    );
    const fav = await call('PUT', `/api/file/drive/${id}/config/favourites`, tok.tech, {
      id: link.json().file.id,
      favourite: true,
    });
    expect(fav.status, fav.text).toBe(200);
    expect(
      (await call('GET', `/api/file/drive/${id}/favourites`, tok.tech)).json().files.map((f: { id: string }) => f.id),
    ).toContain(link.json().file.id);
    // the same permissions: the technician reads but may not make folders
    expect((await call('POST', `/api/file/drive/${id}/folder`, tok.tech, { name: 'Nej' })).status).toBe(403);
    // another company's drive, or no drive at all, is not found
    const other = (await call('GET', '/api/file/drive', tok.adminB, undefined, b.host)).json().driveId as string;
    expect(other).not.toBe(id);
    expect((await call('GET', `/api/file/drive/${other}`, tok.admin)).status).toBe(404);
    expect((await call('POST', `/api/file/drive/${other}/folder`, tok.admin, { name: 'X' })).status).toBe(404);
    expect((await call('GET', '/api/file/drive/00000000-0000-4000-8000-000000000000/recent', tok.admin)).status).toBe(
      404,
    );
  });
});

describe('files and the records they belong to', () => {
  it("a revisit with the files option copies the order's files, bytes and all; without it copies none", async () => {
    const source = (await call('POST', '/api/wo', tok.admin, { workOrder: { title: 'Service hiss' } })).json().workOrder
      .id;
    const [photo, doc] = (
      await upload(`generic/wo/${source}`, [
        { filename: 'före.jpg', body: jpeg },
        { filename: 'protokoll.pdf', body: pdf },
      ])
    ).json().files;
    const copy = await call('POST', '/api/wo/copy', tok.admin, { workOrderId: source, options: { files: true } });
    expect(copy.status, copy.text).toBe(200);
    const copied = (await send('GET', `/api/file/generic/wo/${copy.json().workOrder.id}`, tok.admin)).json().files;
    expect(copied.map((f: { name: string; hasThumbnail: boolean }) => [f.name, f.hasThumbnail])).toEqual([
      ['före.jpg', true],
      ['protokoll.pdf', false],
    ]);
    expect((await send('GET', `/api/file/${copied[1].id}`, tok.admin)).body.equals(pdf)).toBe(true);
    // each copy is its own: deleting the source's file leaves the copy readable
    await send('DELETE', `/api/file/${doc.id}`, tok.admin);
    await send('DELETE', `/api/file/${photo.id}`, tok.admin);
    await expect
      .poll(async () => (await send('GET', `/api/file/${copied[0].id}/thumbnail`, tok.admin)).status)
      .toBe(200);
    expect((await send('GET', `/api/file/${copied[1].id}`, tok.admin)).body.equals(pdf)).toBe(true);

    const plain = await call('POST', '/api/wo/copy', tok.admin, { workOrderId: copy.json().workOrder.id, options: {} });
    expect((await send('GET', `/api/file/generic/wo/${plain.json().workOrder.id}`, tok.admin)).json().totalCount).toBe(
      0,
    );
  });

  it("an object's default files show on its work orders", async () => {
    const bo = (
      await call('POST', '/api/bo', tok.admin, { bo: { serialCode: 'HISS-9', customerId: ref.customer } })
    ).json().id;
    const [manual, other] = (
      await upload(`generic/bo/${bo}`, [
        { filename: 'manual.pdf', body: pdf },
        { filename: 'internt.pdf', body: pdf },
      ])
    ).json().files;
    expect(
      (await call('POST', `/api/file/${manual.id}/default`, tok.admin, { isDefault: true })).json().file.isDefault,
    ).toBe(true);
    const wo = (
      await call('POST', '/api/wo', tok.admin, {
        workOrder: { title: 'Hiss stannar', customerId: ref.customer, businessObjectId: bo },
      })
    ).json().workOrder.id;
    const listing = (await send('GET', `/api/file/generic/wo/${wo}`, tok.admin)).json();
    expect(listing.inherited.map((f: { id: string }) => f.id)).toEqual([manual.id]);
    expect(listing.inherited.map((f: { id: string }) => f.id)).not.toContain(other.id);
    // and they can be read through the order
    expect((await send('GET', `/api/file/${manual.id}`, tok.admin)).status).toBe(200);
  });

  it('deleting an object deletes its files: the rows at once, the bytes after commit', async () => {
    const bo = (await call('POST', '/api/bo', tok.admin, { bo: { serialCode: 'GRIND-7' } })).json().id;
    const [f] = (await upload(`generic/bo/${bo}`, [{ filename: 'bild.png', body: png }])).json().files;
    const keys = storedKeys().length;
    const bytes = await storageBytes();
    expect((await call('DELETE', `/api/bo/${bo}`, tok.admin)).status).toBe(200);
    expect((await send('GET', `/api/file/${f.id}`, tok.admin)).status).toBe(404);
    expect(await storageBytes()).toBe(bytes - f.size);
    await expect.poll(() => storedKeys().length, { timeout: 20_000 }).toBe(keys - 2);
  });
});

describe('every record kind follows its own permissions', () => {
  it('models, articles and door automatics: files:read lists, files uploads, neither is refused; a plugin kind is gone with its module', async () => {
    await withTenant(tenantA, async (trx) => {
      await trx('access_levels').insert([
        {
          display_name: 'Kinds reader',
          permissions: ['models:files:read', 'articles:files:read', 'doorautomatics:files:read', 'doorautomatics:read'],
          work_order_limit: 'none',
        },
        {
          display_name: 'Kinds editor',
          permissions: ['models:files', 'articles:files', 'doorautomatics:files', 'doorautomatics:read'],
          work_order_limit: 'none',
        },
      ]);
      await ensureUser(trx, {
        email: `kr@${a.slug}.se`,
        name: 'Karin Läsare',
        password: PASSWORD,
        accessLevels: ['Kinds reader'],
      });
      await ensureUser(trx, {
        email: `ke@${a.slug}.se`,
        name: 'Kent Redaktör',
        password: PASSWORD,
        accessLevels: ['Kinds editor'],
      });
    });
    const reader = await signIn(a, `kr@${a.slug}.se`);
    const editor = await signIn(a, `ke@${a.slug}.se`);
    const model = (
      await withTenant(tenantA, (trx) => trx('models').insert({ name: 'Galaxy Flex', code: 'GF-1' }).returning('id'))
    )[0].id;
    const article = (
      await call('POST', '/api/articles', tok.admin, { article: { articleId: '77001', title: 'Detektor', unit: 'st' } })
    ).json();
    const articleId = (article.article ?? article).id as string;
    const door = (
      await call('POST', '/api/doorautomatics', tok.admin, { title: 'Entrédörr', businessObjectId: ref.bo })
    ).json().id as string;
    for (const [kind, id] of [
      ['model', model],
      ['article', articleId],
      ['doorautomatic', door],
    ] as const) {
      expect((await send('GET', `/api/file/generic/${kind}/${id}`, reader)).status, kind).toBe(200);
      expect((await upload(`generic/${kind}/${id}`, [{ filename: 'a.pdf', body: pdf }], reader)).status, kind).toBe(
        403,
      );
      expect((await upload(`generic/${kind}/${id}`, [{ filename: 'a.pdf', body: pdf }], editor)).status, kind).toBe(
        200,
      );
      expect((await send('GET', `/api/file/generic/${kind}/${id}`, tok.tech)).status, kind).toBe(403);
    }
    await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'doorautomatics' }).update({ enabled: false }));
    try {
      expect((await send('GET', `/api/file/generic/doorautomatic/${door}`, editor)).status).toBe(404);
    } finally {
      await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'doorautomatics' }).update({ enabled: true }));
    }
  });
});
