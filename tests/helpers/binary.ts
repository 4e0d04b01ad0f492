import http from 'node:http';

export interface BinaryResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A POST with a JSON body whose answer is kept as bytes (the JSON helper's `text` would mangle a
 * PDF or a zip).
 */
export function postBinary(
  baseUrl: string,
  path: string,
  host: string,
  token: string,
  body: unknown,
): Promise<BinaryResponse> {
  const url = new URL(path, baseUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A GET whose answer is kept as bytes (the JSON helper decodes text as UTF-8): downloads. */
export function getBinary(baseUrl: string, path: string, host: string, token: string): Promise<BinaryResponse> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    http
      .get(
        {
          hostname: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          headers: { host, authorization: `Bearer ${token}` },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      )
      .on('error', reject);
  });
}

/** The /Title of a PDF's info dictionary, as a literal or a UTF-16BE hex string. */
export function pdfTitle(pdf: Buffer): string | null {
  const head = pdf.subarray(0, 4000).toString('latin1');
  const literal = /\/Title \(((?:[^()\\]|\\.)*)\)/.exec(head);
  if (literal) return literal[1]!.replace(/\\(.)/g, '$1');
  const hex = /\/Title <FEFF([0-9A-F]*)>/i.exec(head);
  return hex ? Buffer.from(hex[1]!, 'hex').swap16().toString('utf16le') : null;
}
