import type { ErpCredentials, ErpSession } from './erp-provider';

/*
 * The HTTP every ERP plugin talks through (issue 14): the vendor's rate limit kept on our side
 * (shared by every process when Redis is configured, issue 31 item 7), a 429 answered by waiting
 * its Retry-After, timeouts, and every failure turned into one ErpError with the vendor's text
 * attached, so the core can decide whether to retry and which spec message to show.
 */

/** The spec's messages (section 8) an ERP failure is shown as. */
export type ErpErrorCode =
  /** The vendor refused the invoice (its text attached): spec INVOICE_WAS_NOT_CREATED_IN_ERP. */
  | 'INVOICE_WAS_NOT_CREATED_IN_ERP'
  /** The tenant has not connected, or the credentials no longer work. */
  | 'ERP_NOT_CONNECTED'
  | 'ERP_AUTH_FAILED'
  /** Network, timeout or 5xx: tried again later. */
  | 'ERP_UNREACHABLE'
  /** 429 for longer than we wait in one call: tried again later. */
  | 'ERP_RATE_LIMITED'
  /** Spec: price not found in ERP. */
  | 'ERP_PRICE_NOT_FOUND'
  /** Spec: missing supplier account. */
  | 'ERP_SUPPLIER_ACCOUNT_MISSING';

export class ErpError extends Error {
  readonly code: ErpErrorCode;
  /** Trying again later may succeed (network, 5xx, 429); a refusal of the content will not. */
  readonly retryable: boolean;
  readonly status: number | null;
  /** What the vendor said, verbatim, for the person who must fix it. */
  readonly vendorMessage: string | null;
  readonly retryAfterMs: number | null;
  constructor(
    code: ErpErrorCode,
    options: {
      retryable?: boolean;
      status?: number | null;
      vendorMessage?: string | null;
      retryAfterMs?: number | null;
      cause?: unknown;
    } = {},
  ) {
    super(options.vendorMessage ? `${code}: ${options.vendorMessage}` : code, { cause: options.cause });
    this.name = 'ErpError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.status = options.status ?? null;
    this.vendorMessage = options.vendorMessage ?? null;
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}

/**
 * Whether a value is an ErpError, also one made by a plugin's own copy of this module: in
 * production plugins are imported at boot outside the server bundle (decision 001), so
 * `instanceof ErpError` in the core cannot see theirs. The core tests with this, never instanceof.
 */
export function isErpError(e: unknown): e is ErpError {
  if (e instanceof ErpError) return true;
  if (!(e instanceof Error) || e.name !== 'ErpError') return false;
  const x = e as Partial<ErpError>;
  return typeof x.code === 'string' && typeof x.retryable === 'boolean';
}

export interface ErpRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded (OAuth token calls). */
  form?: Record<string, string>;
  /** Answers that are not errors for this call (404 on a lookup). */
  accept?: number[];
}

export interface ErpResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export interface ErpHttp {
  request(req: ErpRequest): Promise<ErpResponse>;
}

export interface ErpHttpOptions {
  /**
   * The vendor's limit, kept per key (tenant): at most `requests` in any `perMs`, counted in this
   * process or, with Redis configured, across every process (setErpRateLimitStore).
   */
  rateLimit?: ErpRateLimit;
  /** Limiter key; the tenant id. */
  key: string;
  /** Longest Retry-After waited inside one call; a longer one fails with ERP_RATE_LIMITED (retried later). */
  maxRetryAfterMs?: number;
  /** 429s answered by waiting, per call. */
  max429Retries?: number;
  timeoutMs?: number;
  /** Pulls the vendor's message out of an error body. */
  vendorMessage?(body: unknown, text: string): string | null;
  /** Decides the code of a 4xx refusal (default INVOICE_WAS_NOT_CREATED_IN_ERP; 401/403 ERP_AUTH_FAILED). */
  refusalCode?(status: number, body: unknown, message: string | null): ErpErrorCode;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A vendor's limit: at most `requests` in any `perMs` milliseconds. */
export interface ErpRateLimit {
  requests: number;
  perMs: number;
}

/**
 * Where the vendor's limit is counted. Without one, in this process's memory (embedded mode, one
 * process). With REDIS_URL the core sets one on Redis at boot (core/invoicing/erp-rate-limit.ts),
 * so every web process and worker shares the limit (issue 31 item 7; decision 052).
 */
export interface ErpRateLimitStore {
  /** Waits until one more request under `key` fits `limit` everywhere, then books it. */
  take(key: string, limit: ErpRateLimit): Promise<void>;
}

// On globalThis, as the database is (core/db/with-tenant.ts): in production a plugin is imported
// outside the server bundle with its own copy of this module (decision 001), and its requests must
// be counted where the core's boot said.
const RATE_LIMIT_STORE = Symbol.for('ordo.erpRateLimitStore');
const storeHolder = globalThis as { [RATE_LIMIT_STORE]?: ErpRateLimitStore };

/** Sets (or, with undefined, removes) the store every ERP request of this process is counted in. */
export function setErpRateLimitStore(store: ErpRateLimitStore | undefined): void {
  storeHolder[RATE_LIMIT_STORE] = store;
}

/** Sliding-window start times per key, shared by every call in this process. */
const windows = new Map<string, number[]>();

/** Waits until one more request fits the window in this process, then books it. */
export async function takeInProcessSlot(key: string, limit: ErpRateLimit): Promise<void> {
  for (;;) {
    const now = Date.now();
    const starts = (windows.get(key) ?? []).filter((t) => now - t < limit.perMs);
    if (starts.length < limit.requests) {
      starts.push(now);
      windows.set(key, starts);
      return;
    }
    windows.set(key, starts);
    await sleep(limit.perMs - (now - starts[0]!) + 1);
  }
}

/** Waits for a slot where the limit is counted (a caller waits; it never fails for the limit). */
function takeSlot(key: string, limit: ErpRateLimit): Promise<void> {
  const store = storeHolder[RATE_LIMIT_STORE];
  return store ? store.take(key, limit) : takeInProcessSlot(key, limit);
}

/** Retry-After in seconds or as an HTTP date; default one second. */
export function retryAfterMs(value: string | null, now = Date.now()): number {
  if (!value) return 1000;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? 1000 : Math.max(0, at - now);
}

function defaultMessage(body: unknown, text: string): string | null {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    for (const k of ['message', 'Message', 'error_description', 'error', 'ErrorMessage'])
      if (typeof b[k] === 'string' && b[k]) return b[k] as string;
  }
  return text ? text.slice(0, 500) : null;
}

export function createErpHttp(options: ErpHttpOptions): ErpHttp {
  const maxWait = options.maxRetryAfterMs ?? 30_000;
  const max429 = options.max429Retries ?? 3;
  const messageOf = options.vendorMessage ?? defaultMessage;
  return {
    async request(req) {
      for (let tries429 = 0; ; tries429++) {
        if (options.rateLimit) await takeSlot(options.key, options.rateLimit);
        const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
        let body: string | undefined;
        if (req.json !== undefined) {
          headers['content-type'] = 'application/json';
          body = JSON.stringify(req.json);
        } else if (req.form) {
          headers['content-type'] = 'application/x-www-form-urlencoded';
          body = new URLSearchParams(req.form).toString();
        }
        let res: Response;
        try {
          res = await fetch(req.url, {
            method: req.method ?? (body === undefined ? 'GET' : 'POST'),
            headers,
            body,
            signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
          });
        } catch (cause) {
          throw new ErpError('ERP_UNREACHABLE', { retryable: true, vendorMessage: (cause as Error).message, cause });
        }
        const text = await res.text().catch(() => '');
        let parsed: unknown = null;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          parsed = null;
        }
        if (res.ok || req.accept?.includes(res.status))
          return { status: res.status, headers: res.headers, body: parsed, text };
        const message = messageOf(parsed, text);
        if (res.status === 429) {
          const wait = retryAfterMs(res.headers.get('retry-after'));
          if (tries429 < max429 && wait <= maxWait) {
            await sleep(wait);
            continue;
          }
          throw new ErpError('ERP_RATE_LIMITED', {
            retryable: true,
            status: 429,
            vendorMessage: message,
            retryAfterMs: wait,
          });
        }
        if (res.status >= 500 || res.status === 408)
          throw new ErpError('ERP_UNREACHABLE', { retryable: true, status: res.status, vendorMessage: message });
        const code =
          options.refusalCode?.(res.status, parsed, message) ??
          (res.status === 401 || res.status === 403 ? 'ERP_AUTH_FAILED' : 'INVOICE_WAS_NOT_CREATED_IN_ERP');
        throw new ErpError(code, { status: res.status, vendorMessage: message });
      }
    },
  };
}

/** An access token within this long of its end is refreshed before use. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * Runs `call` with a valid OAuth2 access token: refreshes it first when it expires within a minute,
 * and once more when the vendor answers 401 anyway (revoked early, clock skew). New tokens are saved
 * through the session before they are used, so a crash right after never loses a rotated refresh token.
 *
 * A refresh runs under the session's refresh lock (issue 31 item 6): several processes may find the
 * token expiring at once, and a vendor that replaces the refresh token at each use (Fortnox: "can
 * only be used once") would refuse all of them but the first. Holding the lock, the credentials are
 * read again: when another process refreshed meanwhile (the stored access token is another one, and
 * not about to expire), those are used and the vendor is not asked again.
 */
export async function withAccessToken<T>(
  session: ErpSession,
  refresh: (refreshToken: string) => Promise<ErpCredentials>,
  call: (accessToken: string) => Promise<T>,
  now: () => number = Date.now,
): Promise<T> {
  let credentials = session.credentials;
  if (!credentials?.accessToken) throw new ErpError('ERP_NOT_CONNECTED');
  const expiring = (c: ErpCredentials) => Boolean(c.expiresAt && Date.parse(c.expiresAt) - now() < EXPIRY_MARGIN_MS);
  const adopt = (next: ErpCredentials) => {
    session.credentials = next;
    credentials = next;
    return next.accessToken!;
  };
  /** A token in place of `stale` (the one expiring, or the one the vendor refused). */
  const renew = (stale: string) => {
    const underLock = async () => {
      const stored = session.reloadCredentials ? await session.reloadCredentials() : credentials;
      if (!stored?.accessToken) throw new ErpError('ERP_NOT_CONNECTED');
      if (stored.accessToken !== stale && !expiring(stored)) return adopt(stored);
      if (!stored.refreshToken) throw new ErpError('ERP_NOT_CONNECTED');
      const next = { ...stored, ...(await refresh(stored.refreshToken)) };
      await session.saveCredentials(next);
      return adopt(next);
    };
    return session.withRefreshLock ? session.withRefreshLock(underLock) : underLock();
  };
  let token = credentials.accessToken;
  if (expiring(credentials)) token = await renew(token);
  try {
    return await call(token);
  } catch (err) {
    if (isErpError(err) && err.status === 401) return call(await renew(token));
    throw err;
  }
}

/** Token lifetime from an OAuth answer's expires_in (seconds), as an ISO time. */
export const expiresAtFrom = (expiresIn: unknown, now = Date.now()) =>
  new Date(now + (typeof expiresIn === 'number' ? expiresIn : Number(expiresIn) || 3600) * 1000).toISOString();

/**
 * One OAuth2 token request (RFC 6749 §4.1.3 for a code, §6 for a refresh) to the vendor's token
 * endpoint through `http`: a refused code or refresh token (a 4xx) becomes ERP_AUTH_FAILED — the
 * tenant must connect again — while a network failure or a 5xx stays retryable. A refresh answer
 * without a new refresh token keeps `previousRefreshToken` (vendors that do not rotate them).
 */
export async function requestOAuthTokens(
  http: ErpHttp,
  request: { url: string; headers?: Record<string, string>; form: Record<string, string> },
  options: { vendor: string; previousRefreshToken?: string },
): Promise<ErpCredentials> {
  let res: ErpResponse;
  try {
    res = await http.request({ method: 'POST', ...request });
  } catch (err) {
    if (isErpError(err) && !err.retryable)
      throw new ErpError('ERP_AUTH_FAILED', { status: err.status, vendorMessage: err.vendorMessage, cause: err });
    throw err;
  }
  const body = (res.body ?? {}) as Record<string, unknown>;
  if (typeof body.access_token !== 'string' || !body.access_token)
    throw new ErpError('ERP_AUTH_FAILED', {
      status: res.status,
      vendorMessage: `${options.vendor} answered without an access token`,
    });
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : options.previousRefreshToken,
    expiresAt: expiresAtFrom(body.expires_in),
  };
}
