/**
 * Issue 11: the JavaScript a browser must fetch before a page works (its first load), counted in
 * the bytes the server sends a browser that accepts `br, gzip` (the build's brotli files, else the
 * compression middleware's gzip), beside gzip level 6 of each file: the scripts the page's HTML names
 * (modulepreload, among them the translation namespaces the page uses, app/locales/usage.tsx, and
 * the inline module's imports) and everything they import statically. Not counted: the language's
 * other namespaces, fetched when the page is idle after hydration, and other lazy chunks (`import()`,
 * Leaflet on the map), which load only where used.
 */
import http from 'node:http';
import zlib from 'node:zlib';

/** The body as text, and how many bytes it took on the wire (its Content-Encoding, decoded here). */
function get(port: number, host: string, path: string, cookie?: string): Promise<{ text: string; wire: number }> {
  const headers = { host, 'accept-encoding': 'br, gzip', ...(cookie ? { cookie } : {}) };
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`${path}: ${res.statusCode}`));
          const body = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const text =
            encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;
          resolve({ text: text.toString('utf8'), wire: body.length });
        });
      })
      .on('error', reject);
  });
}

const STATIC_IMPORT = /(?:^|[;\s}])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'](\.\.?\/[^"']+\.js)["']/g;

export async function firstLoad(
  port: number,
  host: string,
  cookie: string,
  pages: string[],
): Promise<Record<string, unknown>[]> {
  const sizes = new Map<string, { raw: number; gzip: number; wire: number; imports: string[] }>();
  const script = async (url: string) => {
    let s = sizes.get(url);
    if (!s) {
      const { text, wire } = await get(port, host, url);
      const base = url.slice(0, url.lastIndexOf('/') + 1);
      const imports = [...text.matchAll(STATIC_IMPORT)].map((m) => new URL(m[1]!, `http://x${base}`).pathname);
      s = { raw: Buffer.byteLength(text), gzip: zlib.gzipSync(text, { level: 6 }).length, wire, imports };
      sizes.set(url, s);
    }
    return s;
  };
  const rows: Record<string, unknown>[] = [];
  for (const page of pages) {
    const { text: html } = await get(port, host, page, cookie);
    const seen = new Set<string>();
    const queue = [...new Set([...html.matchAll(/["'](\/assets\/[^"']+\.js)["']/g)].map((m) => m[1]!))];
    let raw = 0;
    let gzip = 0;
    let wire = 0;
    while (queue.length) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const s = await script(url);
      raw += s.raw;
      gzip += s.gzip;
      wire += s.wire;
      queue.push(...s.imports);
    }
    if (process.env.BENCH_FIRST_LOAD_FILES)
      for (const url of [...seen].sort((a, b) => sizes.get(b)!.wire - sizes.get(a)!.wire))
        console.error(
          `  ${(sizes.get(url)!.wire / 1024).toFixed(1)} KB sent, ${(sizes.get(url)!.gzip / 1024).toFixed(1)} KB gzip  ${url}`,
        );
    rows.push({
      scenario: `first-load JS ${page}`,
      scripts: seen.size,
      rawKB: Math.round(raw / 1024),
      gzipKB: Math.round(gzip / 1024),
      sentKB: Math.round(wire / 1024),
      target: wire <= 180 * 1024 ? 'ok' : 'MISSED (180 KB)',
    });
    console.error(JSON.stringify(rows.at(-1))); // progress
  }
  return rows;
}
