/**
 * Issue 28 item 19: `/favicon.ico` answered 404 (a console error on every page). The icon is
 * served on any host, a tenant's or not, as an ICO the browser can draw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '~/tests/helpers/app';
import { request } from '~/tests/helpers/http';

let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => {
  await srv?.close();
});

describe('[shell] the site icon', () => {
  it('answers /favicon.ico with an ICO holding a 32 px PNG, cached for a day', async () => {
    const res = await fetch(`${srv.url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/x-icon/);
    expect(res.headers.get('cache-control')).toContain('max-age=86400');
    const ico = Buffer.from(await res.arrayBuffer());
    // ICONDIR: reserved 0, type 1 (icon), one image of 32 × 32 whose data is a PNG
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([ico[6], ico[7]]).toEqual([32, 32]);
    const offset = ico.readUInt32LE(18);
    expect(ico.subarray(offset, offset + 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(ico.readUInt32LE(14)).toBe(ico.length - offset);
  });

  it('is served on an unknown host too, which otherwise gets the bare 404 page', async () => {
    const res = await request(srv.url, { path: '/favicon.ico', host: 'nobody.example' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/x-icon/);
  });
});
