import http from 'node:http';

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: <T = any>() => T; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A plain HTTP request with any Host header (fetch forbids setting Host). */
export function request(
  baseUrl: string,
  options: { method?: string; path: string; host: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<HttpResponse> {
  const url = new URL(options.path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: options.method ?? 'GET',
        headers: { host: options.host, ...options.headers },
        agent: keepAlive,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 });

export function jsonBody(body: unknown): { body: string; headers: Record<string, string> } {
  return { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
}

/** One part of a multipart/form-data body: a field (`name`) or a file (`filename`). */
export interface Part {
  name?: string;
  filename?: string;
  body: Buffer | string;
  type?: string;
}

/** A multipart/form-data body and its content type, as a browser sends a form with files. */
export function multipart(parts: Part[]): { body: Buffer; type: string } {
  const boundary = `----ordo${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition =
      p.filename !== undefined
        ? `form-data; name="${p.name ?? 'file'}"; filename="${p.filename.replace(/"/g, '%22')}"`
        : `form-data; name="${p.name}"`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`,
      ),
      Buffer.isBuffer(p.body) ? p.body : Buffer.from(p.body),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}
