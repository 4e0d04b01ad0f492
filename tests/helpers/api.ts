import { PASSWORD, type TestTenant } from './app';
import { jsonBody, request, type HttpResponse } from './http';

/** Where the calls go: the test server's URL and the default tenant's host (read when a call is made). */
export interface ApiTarget {
  url: string;
  host: string;
}

export interface TestApi {
  /** Signs in with the test password on the tenant's host; the session token. */
  signIn(t: TestTenant, email: string): Promise<string>;
  /** A JSON API call with a bearer token (none when left out) on `host` (the default tenant's by default). */
  call(method: string, path: string, token?: string, body?: unknown, host?: string): Promise<HttpResponse>;
}

/**
 * The API helpers the integration tests share. `target` is read on every call, so the helpers can
 * be made at module level before `beforeAll` starts the server:
 * `const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));`
 */
export function testApi(target: () => ApiTarget): TestApi {
  return {
    async signIn(t, email) {
      const j = jsonBody({ email, password: PASSWORD });
      const res = await request(target().url, { method: 'POST', path: '/api/authenticate', host: t.host, ...j });
      return res.json<{ token: string }>().token;
    },
    call(method, path, token, body, host) {
      const { url, host: defaultHost } = target();
      const j = body === undefined ? { body: undefined, headers: {} } : jsonBody(body);
      return request(url, {
        method,
        path,
        host: host ?? defaultHost,
        body: j.body,
        headers: { ...j.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
    },
  };
}
