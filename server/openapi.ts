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
    (paths[path] ??= {})[call.method.toLowerCase()] = {
      summary: call.summary,
      'x-permission': call.access.permission,
      ...(call.access.module ? { 'x-app-module': call.access.module } : {}),
      security: call.access.permission === 'public' ? [] : [{ bearer: [] }],
      ...(bodyful ? { requestBody: { content: { 'application/json': { schema } } } } : {}),
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
