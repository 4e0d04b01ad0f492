import { z } from 'zod';
import type { ApiCall } from '~/core/api/define-call';

type JsonSchema = { type?: unknown; properties?: Record<string, unknown>; required?: string[] } & Record<
  string,
  unknown
>;

/** A call's input as JSON schema (input side: what a client sends); `{}` for one zod cannot describe. */
function inputSchema(call: ApiCall): JsonSchema {
  try {
    return z.toJSONSchema(call.input, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
  } catch {
    return {};
  }
}

/**
 * The input split where it travels: `:name` path parameters (always required), for GET and DELETE
 * the schema's other properties as query parameters, else the rest as the JSON body. Path
 * parameters are merged into the input by the router, so the schema names them too; they are
 * documented once, in the path.
 */
function describeInput(call: ApiCall) {
  const schema = inputSchema(call);
  const pathNames = [...call.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const props = schema.properties ?? {};
  const parameters: Record<string, unknown>[] = pathNames.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: props[name] ?? { type: 'string' },
  }));
  const { $schema: _s, ...rest } = schema;
  const withoutPath: JsonSchema = schema.properties
    ? {
        ...rest,
        properties: Object.fromEntries(Object.entries(props).filter(([k]) => !pathNames.includes(k))),
        ...(schema.required ? { required: schema.required.filter((k) => !pathNames.includes(k)) } : {}),
      }
    : rest;
  if (call.method === 'GET' || call.method === 'DELETE') {
    const required = new Set(withoutPath.required ?? []);
    // One with a default (zod lists a `.catch()` field as required) may be left out.
    for (const [name, propSchema] of Object.entries(withoutPath.properties ?? {}))
      parameters.push({
        name,
        in: 'query',
        required: required.has(name) && !Object.hasOwn(propSchema as object, 'default'),
        schema: propSchema,
      });
    return { parameters };
  }
  return { parameters, requestBody: { content: { 'application/json': { schema: withoutPath } } } };
}

/** OpenAPI 3.1 from the catalogue's zod schemas: the same schemas that validate requests. */
export function buildOpenApi(calls: ApiCall[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const call of calls) {
    const path = call.path.replace(/:(\w+)/g, '{$1}');
    const { parameters, requestBody } = describeInput(call);
    (paths[path] ??= {})[call.method.toLowerCase()] = {
      summary: call.summary,
      'x-permission': call.access.permission,
      ...(call.access.module ? { 'x-app-module': call.access.module } : {}),
      security: call.access.permission === 'public' ? [] : [{ bearer: [] }],
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
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
          parameters?: { name: string; in: string; required: boolean; schema: unknown }[];
          requestBody?: { content: { 'application/json': { schema: unknown } } };
        };
        const params = (o.parameters ?? [])
          .map(
            (p) =>
              `<code>${escape(p.name)}</code> (${p.in}${p.required ? ', required' : ''}): ${escape(JSON.stringify(p.schema))}`,
          )
          .join('<br>');
        const schema =
          (params ? `<p>${params}</p>` : '') +
          (o.requestBody
            ? `<pre>${escape(JSON.stringify(o.requestBody.content['application/json'].schema, null, 2))}</pre>`
            : '');
        return `<tr><td><code>${method.toUpperCase()}</code></td><td><code>/api${escape(path)}</code></td><td>${escape(o['x-permission'])}</td><td>${escape(o.summary)}${schema}</td></tr>`;
      }),
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Ordo API</title>
<style>body{font:14px/1.5 system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.5rem;text-align:left;vertical-align:top}pre{background:#f6f6f6;padding:.5rem;overflow:auto}</style></head>
<body><h1>Ordo API</h1><p>Every call is served on the tenant's host under <code>/api</code> and takes the session token as <code>Authorization: Bearer</code>. Only HTTP 200 is success; errors answer <code>{"code"}</code> with a spec message key (400 adds <code>fields</code>). Machine-readable: <a href="/api/openapi.json">openapi.json</a>.</p>
<table><thead><tr><th>method</th><th>path</th><th>permission</th><th>what it does</th></tr></thead><tbody>${rows}</tbody></table></body></html>`;
}
