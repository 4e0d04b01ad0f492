/**
 * Issue 12's figures, each beside a baseline measured in the same run:
 * - a 50 MB upload and its download stream through the server, whose resident memory (its own
 *   /metrics) may grow by less than 20 MB once warm (the first round, which loads the upload
 *   path, is printed too); beside a bare node:http server piping the same upload to disk and back;
 * - a drive folder of 10,000 files lists (first page and a late page) with p95 <= 40 ms server
 *   time; beside the raw SQL of the page;
 * - the thumbnails of 20 photos on a work order, fetched as a browser does (6 at a time), within
 *   300 ms on a warm server; beside a bare node:http server sending 20 files of the same sizes.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { Readable } from 'node:stream';
import pg from 'pg';
import sharp from 'sharp';

const MB = 1024 * 1024;
const UPLOAD_BYTES = 50 * MB;
const FOLDER_FILES = 10_000;
const PHOTOS = 20;

type Target = { port: number; host: string; token: string };

function request(
  t: { port: number; host: string },
  opts: { method: string; path: string; headers?: Record<string, string>; body?: Readable | Buffer },
): Promise<{ status: number; bytes: number; body: Buffer; headers: http.IncomingHttpHeaders; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const r = http.request(
      {
        host: '127.0.0.1',
        port: t.port,
        method: opts.method,
        path: opts.path,
        headers: { host: t.host, ...opts.headers },
      },
      (res) => {
        const keep: Buffer[] = [];
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (bytes < 1_000_000) keep.push(c);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            bytes,
            body: Buffer.concat(keep),
            headers: res.headers,
            ms: performance.now() - started,
          }),
        );
      },
    );
    r.on('error', reject);
    if (opts.body instanceof Readable) opts.body.pipe(r);
    else r.end(opts.body);
  });
}

/** A multipart body of one PDF-looking file of `size` bytes, made as it is sent. */
function multipartPdf(size: number, boundary: string): { stream: Readable; length: number } {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="stor.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
  );
  const tail = Buffer.from(`\n%%EOF\n\r\n--${boundary}--\r\n`);
  const filler = size - 9 - 7;
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  let stage = 0;
  const stream = new Readable({
    read() {
      if (stage === 0) {
        stage = 1;
        return void this.push(head);
      }
      if (sent < filler) {
        const n = Math.min(chunk.length, filler - sent);
        sent += n;
        return void this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      }
      if (stage === 1) {
        stage = 2;
        return void this.push(tail);
      }
      this.push(null);
    },
  });
  return { stream, length: head.length + filler + tail.length };
}

async function rssOf(t: Target): Promise<number> {
  const res = await request(t, { method: 'GET', path: '/metrics' });
  const m = /^process_resident_memory_bytes (\d+)/m.exec(res.body.toString());
  return m ? Number(m[1]) : NaN;
}

/** Samples `read` every 50 ms while `work` runs; the largest value seen. */
async function peakDuring(read: () => Promise<number>, work: () => Promise<unknown>): Promise<number> {
  let peak = await read();
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, await read());
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    await work();
  } finally {
    running = false;
    await sampler;
  }
  return Math.max(peak, await read());
}

const BARE = `
const http = require('node:http'); const fs = require('node:fs'); const os = require('node:os'); const path = require('node:path');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bare-'));
const s = http.createServer((req, res) => {
  if (req.url === '/rss') return res.end(String(process.memoryUsage().rss));
  const file = path.join(dir, 'f' + (req.url.split('/')[2] || 'upload'));
  if (req.method === 'POST') { const w = fs.createWriteStream(file); req.pipe(w); w.on('finish', () => res.end('{}')); return; }
  if (req.url.startsWith('/make/')) { fs.writeFileSync(file, Buffer.alloc(Number(req.url.split('/')[3]), 7)); return res.end('{}'); }
  const st = fs.statSync(file); res.setHeader('content-length', st.size); fs.createReadStream(file).pipe(res);
});
s.listen(0, '127.0.0.1', () => console.log(s.address().port));
`;

async function bareServer(): Promise<{ port: number; stop(): void }> {
  const child = spawn(process.execPath, ['-e', BARE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return { port, stop: () => child.kill('SIGTERM') };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** Fetches `paths`, `parallel` at a time as a browser's connections do; the wall time. */
async function fetchAll(
  t: { port: number; host: string },
  paths: string[],
  headers: Record<string, string>,
  parallel = 6,
) {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < paths.length) {
        const res = await request(t, { method: 'GET', path: paths[next++]!, headers });
        if (res.status !== 200) throw new Error(`thumbnail answered ${res.status}`);
      }
    }),
  );
  return performance.now() - started;
}

export async function filesBench(t: Target, databaseUrl: string, schema: string): Promise<Record<string, unknown>[]> {
  const auth = { authorization: `Bearer ${t.token}` };
  const rows: Record<string, unknown>[] = [];
  const bare = await bareServer();
  const bareTarget = { port: bare.port, host: 'localhost' };
  try {
    // 1. 50 MB up and down, twice: the first warms the server (the upload path's modules, its
    // buffer pools), the second is measured; a server that held whole files would grow by the
    // file's size on every round, whatever came before.
    const boundary = 'benchboundary';
    const roundTrip = async () => {
      let fileId = '';
      const before = await rssOf(t);
      const upPeak = await peakDuring(
        () => rssOf(t),
        async () => {
          const body = multipartPdf(UPLOAD_BYTES, boundary);
          const res = await request(t, {
            method: 'POST',
            path: '/api/file/drive',
            headers: {
              ...auth,
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'content-length': String(body.length),
            },
            body: body.stream,
          });
          if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${res.body}`);
          fileId = JSON.parse(res.body.toString()).files[0].id;
        },
      );
      const downPeak = await peakDuring(
        () => rssOf(t),
        async () => {
          const res = await request(t, { method: 'GET', path: `/api/file/${fileId}?download=1`, headers: auth });
          if (res.bytes !== UPLOAD_BYTES) throw new Error(`download gave ${res.bytes} bytes`);
        },
      );
      await request(t, { method: 'DELETE', path: `/api/file/${fileId}`, headers: auth });
      return { up: upPeak - before, down: downPeak - before };
    };
    const bareRss = async () => Number((await request(bareTarget, { method: 'GET', path: '/rss' })).body.toString());
    const bareTrip = async () => {
      const before = await bareRss();
      const peak = await peakDuring(bareRss, async () => {
        const body = multipartPdf(UPLOAD_BYTES, boundary);
        await request(bareTarget, {
          method: 'POST',
          path: '/up/upload',
          headers: { 'content-length': String(body.length) },
          body: body.stream,
        });
        await request(bareTarget, { method: 'GET', path: '/up/upload' });
      });
      return peak - before;
    };
    const first = await roundTrip();
    const warm = await roundTrip();
    await bareTrip();
    const bareGrowth = await bareTrip();
    const growth = Math.max(warm.up, warm.down);
    rows.push(
      {
        scenario: 'bare node:http 50 MB up + down to disk, warm (baseline)',
        rssGrowthMB: +(bareGrowth / MB).toFixed(1),
      },
      {
        scenario: 'upload + download 50 MB (drive), warm',
        rssGrowthMB: +(growth / MB).toFixed(1),
        uploadGrowthMB: +(warm.up / MB).toFixed(1),
        downloadGrowthMB: +(warm.down / MB).toFixed(1),
        firstRoundMB: +(Math.max(first.up, first.down) / MB).toFixed(1),
        target: growth < 20 * MB ? 'ok' : 'MISSED (< 20 MB)',
      },
    );

    // 2. a drive folder of 10,000 files
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    let folder: string;
    try {
      await db.query(`set search_path to "${schema}"`);
      const found = await db.query(
        `select id from files where owner_type = 'drive' and kind = 'folder' and name = 'Bench 10k'`,
      );
      folder = found.rows[0]?.id;
      if (!folder) {
        folder = (
          await db.query(
            `insert into files (owner_type, kind, name) values ('drive', 'folder', 'Bench 10k') returning id`,
          )
        ).rows[0].id;
        await db.query(
          `insert into files (owner_type, folder_id, kind, name, storage_key, content_type, size, sort_order)
           select 'drive', $1, 'file', 'Dokument ' || lpad(n::text, 5, '0') || '.pdf', 'bench/' || gen_random_uuid(), 'application/pdf', 0, n
           from generate_series(1, ${FOLDER_FILES}) n`,
          [folder],
        );
        await db.query('analyze files');
      }
      const raw: number[] = [];
      for (let i = 0; i < 100; i++) {
        const started = performance.now();
        await db.query(
          `select id, kind, name, size from files where owner_type = 'drive' and owner_id is null and folder_id = $1
           order by (kind = 'folder') desc, sort_order, lower(name), id limit 100 offset 5000`,
          [folder],
        );
        raw.push(performance.now() - started);
      }
      rows.push({
        scenario: 'raw SQL: a late page of a 10,000-file folder (baseline)',
        p95ms: +pct(raw, 95).toFixed(2),
      });
    } finally {
      await db.end();
    }
    for (const [name, query] of [
      ['drive folder of 10,000 files, first page of 100', `folderId=${folder}&size=100`],
      ['drive folder of 10,000 files, page 51 of 100', `folderId=${folder}&size=100&from=5000`],
      ['drive search in 10,000 files', `q=0042&size=20`],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < 120; i++) {
        const res = await request(t, { method: 'GET', path: `/api/file/drive?${query}`, headers: auth });
        if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
        const timing = /app;dur=([\d.]+)/.exec(String(res.headers['server-timing'] ?? ''));
        if (i >= 20) times.push(timing ? Number(timing[1]) : res.ms);
      }
      const p95 = +pct(times, 95).toFixed(2);
      rows.push({
        scenario: name,
        p50ms: +pct(times, 50).toFixed(2),
        p95ms: p95,
        target: p95 <= 40 ? 'ok' : 'MISSED (40 ms)',
      });
    }

    // 3. 20 photo thumbnails on a work order
    const wo = (await request(t, { method: 'GET', path: '/api/wo?list=open&size=1', headers: auth })).body;
    const woId = JSON.parse(wo.toString()).workOrders[0].id as string;
    const listing = JSON.parse(
      (
        await request(t, { method: 'GET', path: `/api/file/generic/wo/${woId}?size=50`, headers: auth })
      ).body.toString(),
    );
    let photos = (listing.files as { id: string; hasThumbnail: boolean }[]).filter((f) => f.hasThumbnail);
    if (photos.length < PHOTOS) {
      for (let i = photos.length; i < PHOTOS; i++) {
        const jpeg = await sharp({
          create: { width: 2000, height: 1500, channels: 3, background: { r: (i * 37) % 255, g: 90, b: 140 } },
        })
          .jpeg()
          .toBuffer();
        const b = `photo${i}`;
        const body = Buffer.concat([
          Buffer.from(
            `--${b}\r\nContent-Disposition: form-data; name="file"; filename="foto-${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
          ),
          jpeg,
          Buffer.from(`\r\n--${b}--\r\n`),
        ]);
        const res = await request(t, {
          method: 'POST',
          path: `/api/file/generic/wo/${woId}`,
          headers: {
            ...auth,
            'content-type': `multipart/form-data; boundary=${b}`,
            'content-length': String(body.length),
          },
          body,
        });
        if (res.status !== 200) throw new Error(`photo upload answered ${res.status}`);
      }
      const again = JSON.parse(
        (
          await request(t, { method: 'GET', path: `/api/file/generic/wo/${woId}?size=50`, headers: auth })
        ).body.toString(),
      );
      photos = (again.files as { id: string; hasThumbnail: boolean }[]).filter((f) => f.hasThumbnail);
    }
    const paths = photos.slice(0, PHOTOS).map((p) => `/api/file/${p.id}/thumbnail`);
    const sizes = await Promise.all(
      paths.map(async (p) => (await request(t, { method: 'GET', path: p, headers: auth })).bytes),
    );
    await Promise.all(sizes.map((n, i) => request(bareTarget, { method: 'GET', path: `/make/t${i}/${n}` })));
    const bareTimes: number[] = [];
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      bareTimes.push(
        await fetchAll(
          bareTarget,
          sizes.map((_, j) => `/get/t${j}`),
          {},
        ),
      );
      times.push(await fetchAll(t, paths, auth));
    }
    rows.push(
      {
        scenario: `bare node:http: ${PHOTOS} thumbnail-sized files, 6 at a time (baseline)`,
        p50ms: +pct(bareTimes, 50).toFixed(1),
        p95ms: +pct(bareTimes, 95).toFixed(1),
      },
      {
        scenario: `${PHOTOS} photo thumbnails of a work order, 6 at a time`,
        p50ms: +pct(times, 50).toFixed(1),
        p95ms: +pct(times, 95).toFixed(1),
        kB: Math.round(sizes.reduce((a, b) => a + b, 0) / 1024),
        target: pct(times, 95) <= 300 ? 'ok' : 'MISSED (300 ms)',
      },
    );
  } finally {
    bare.stop();
  }
  for (const r of rows) console.error(JSON.stringify(r)); // progress
  return rows;
}
