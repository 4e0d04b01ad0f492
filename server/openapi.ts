import { z } from 'zod';
import type { ApiCall } from '~/core/api/define-call';

/** OpenAPI 3.1 from the catalogue's zod schemas: the same schemas that validate requests. */
export function buildOpenApi(calls: ApiCall[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const call of calls) {
    const path = call.path.replace(/:(\w+)/g, '{$1}');
    let schema: unknown = {};
    try {
      schema = z.toJSONSchema(call.input, { unrepresentable: 'any', io: 'input' });
    } catch {
      schema = {};
    }
    const bodyful = !['GET', 'DELETE'].includes(call.method);
    const { parameters, body } = splitInput(call.path, bodyful, schema);
    (paths[path] ??= {})[call.method.toLowerCase()] = {
      summary: call.summary,
      'x-permission': call.access.permission,
      ...(call.access.module ? { 'x-app-module': call.access.module } : {}),
      security: call.access.permission === 'public' ? [] : [{ bearer: [] }],
      ...(parameters.length ? { parameters } : {}),
      ...(bodyful ? { requestBody: { content: { 'application/json': { schema: body } } } } : {}),
      responses: {
        '200': { description: 'Success (the only success status)' },
        '400': { description: 'Validation failed: {code, fields}' },
        '401': { description: 'INVALID_SESSION' },
        '403': { description: 'WARNING_PERMISSION_DENIED' },
        '404': { description: 'NOT_FOUND or UNKNOWN_API_CALL' },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Ordo API', version: '1' },
    servers: [{ url: '/api' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}

interface JsonObjectSchema {
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/**
 * The input schema as OpenAPI places it: `:name` path parameters, a GET's or DELETE's other fields
 * as query parameters, and a body of the rest. The router merges them all into one input.
 */
function splitInput(path: string, bodyful: boolean, schema: unknown) {
  const inPath = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const s = (schema ?? {}) as JsonObjectSchema;
  const props = s.properties ?? {};
  const required = s.required ?? [];
  const param = (name: string, where: 'path' | 'query') => ({
    name,
    in: where,
    required: where === 'path' || required.includes(name),
    schema: props[name] ?? { type: 'string' },
  });
  const parameters = [
    ...inPath.map((name) => param(name, 'path')),
    ...(bodyful
      ? []
      : Object.keys(props)
          .filter((name) => !inPath.includes(name))
          .map((name) => param(name, 'query'))),
  ];
  if (!bodyful || !s.properties) return { parameters, body: schema };
  const rest = Object.fromEntries(Object.entries(props).filter(([name]) => !inPath.includes(name)));
  const stillRequired = required.filter((name) => !inPath.includes(name));
  const body: JsonObjectSchema = { ...s, properties: rest };
  if (s.required) body.required = stillRequired;
  return { parameters, body };
}

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** /api/docs: the catalogue as a readable page, each call with its permission and input schema. */
export function renderApiDocs(calls: ApiCall[]): string {
  const doc = buildOpenApi(calls);
  const rows = Object.entries(doc.paths)
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => {
        const o = op as {
          summary: string;
          'x-permission': string;
          requestBody?: { content: { 'application/json': { schema: unknown } } };
        };
        const schema = o.requestBody
          ? `<pre>${escape(JSON.stringify(o.requestBody.content['application/json'].schema, null, 2))}</pre>`
          : '';
        return `<tr><td><code>${method.toUpperCase()}</code></td><td><code>/api${escape(path)}</code></td><td>${escape(o['x-permission'])}</td><td>${escape(o.summary)}${schema}</td></tr>`;
      }),
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Ordo API</title>
<style>body{font:14px/1.5 system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.5rem;text-align:left;vertical-align:top}pre{background:#f6f6f6;padding:.5rem;overflow:auto}</style></head>
<body><h1>Ordo API</h1><p>Every call is served on the tenant's host under <code>/api</code> and takes the session token as <code>Authorization: Bearer</code>. Only HTTP 200 is success; errors answer <code>{"code"}</code> with a spec message key (400 adds <code>fields</code>). Machine-readable: <a href="/api/openapi.json">openapi.json</a>.</p>
<table><thead><tr><th>method</th><th>path</th><th>permission</th><th>what it does</th></tr></thead><tbody>${rows}</tbody></table></body></html>`;
}
