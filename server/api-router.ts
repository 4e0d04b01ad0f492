import express, { type NextFunction, type Request, type Response } from 'express';
import { API_CALLS } from '~/core/api/catalogue';
import { callInput, Reply, StreamReply, type ApiCall } from '~/core/api/define-call';
import { pipeline } from 'node:stream/promises';
import { checkSession } from '~/core/auth/session.service';
import { AppError, invalidSession, isAppError, permissionDenied } from '~/core/errors/app-error';
import { getRegistry, pluginApiCalls } from '~/core/extension-points/registry';
import { langFromKey } from '~/core/i18n/languages';
import { logContext, logger } from '~/core/log/logger';
import type { AppModuleId } from '~/core/modules/app-modules';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import { readToken, SESSION_COOKIE, ZONE_SESSION_COOKIE } from '~/core/http/session-token';
import { checkZoneSession } from '~/core/zone/zone-session.service';
import { isZoneCall } from '~/core/api/define-call';
import { refuseNul } from '~/core/http/edge';
import { inTenant, sessionPolicy, withoutUnitOfWork } from '~/core/unit-of-work';
import type { Tenant } from '~/core/tenancy/tenant';
import { buildOpenApi, renderApiDocs } from './openapi';

/** Largest JSON body the API accepts; uploads have their own route. */
export const MAX_JSON_BODY = '1mb';
/** Largest CSV import (core/import-export MAX_IMPORT_BYTES). */
export const MAX_CSV_BODY = '20mb';

function sendError(res: Response, status: number, body: Record<string, unknown>) {
  res.status(status).json(body);
}

/**
 * An AppError, including one thrown by a plugin's own copy of core: in production plugins are
 * imported at boot outside the server bundle (decision 001), so `instanceof` cannot see theirs.
 */
function asAppError(e: unknown): AppError | null {
  if (isAppError(e)) return e;
  if (!(e instanceof Error) || e.name !== 'AppError') return null;
  const x = e as Partial<AppError>;
  return typeof x.code === 'string' && typeof x.status === 'number' ? (x as AppError) : null;
}

/**
 * One catalogue call: session → access → parse → service, the service in one tenant transaction. A call
 * of an app-module plugin (`moduleId`) answers 404 UNKNOWN_API_CALL while the tenant has that
 * module off, as if it did not exist (user type super bypasses module gating, spec section 6).
 */
function handle(call: ApiCall, moduleId?: AppModuleId) {
  return async (req: Request, res: Response) => {
    const tenant = res.locals.tenant as Tenant;
    // A zone call (/api/zone/…) reads the zone's cookie, any other call the staff cookie; a bearer
    // token is either, and is looked up only in its call's kind of sessions (decision 061).
    const zoneCall = isZoneCall(call);
    const token = readToken(
      { cookie: req.headers.cookie, authorization: req.headers.authorization },
      zoneCall ? ZONE_SESSION_COOKIE : SESSION_COOKIE,
    );
    try {
      // Who is asking, before the unit of work: one statement (checkSession); a refused request
      // never opens a transaction.
      const now = new Date();
      const auth = token && !zoneCall ? await checkSession(tenant, token, now, sessionPolicy()) : null;
      const zone = token && zoneCall ? await checkZoneSession(tenant, token, now, sessionPolicy()) : null;
      // A bad token on any call other than a public one is INVALID_SESSION (spec section 8).
      const store = logContext.getStore();
      if (store && auth) store.userId = auth.user.id;
      if (moduleId && auth && !hasAccess(auth, { permission: 'signed-in', module: moduleId }))
        throw new AppError('UNKNOWN_API_CALL', 404);
      if (call.access.permission === 'zone') {
        if (!zone) throw invalidSession();
        // a zone call of an app module beyond the zone's own (customer work orders): that module on
        if (call.access.module && !zone.modules.has(call.access.module)) throw permissionDenied();
      } else requireAccess(auth, call.access);
      const raw =
        call.method === 'GET' || call.method === 'DELETE'
          ? { ...req.query, ...req.params }
          : typeof req.body === 'string'
            ? // A CSV upload (text/csv): the file is `body`, options come in the query.
              { ...req.query, body: req.body, ...req.params }
            : // The catalogue puts some options in a POST's query (`?resend=1`); the body wins.
              { ...req.query, ...(req.body ?? {}), ...req.params };
      // PostgreSQL refuses a NUL character in text: refused here as bad input, the field named.
      refuseNul(raw);
      const input = callInput(call.input, raw);
      const lang = langFromKey(
        auth?.user.language ?? zone?.user.language ?? zone?.customerLanguage ?? tenant.config.languageKey,
      );
      const run = call.unitOfWork === false ? withoutUnitOfWork : inTenant;
      // An upload streams to the file store first, outside the unit of work; undone if that fails.
      const received = call.receive
        ? await call.receive.read(req, req.headers, { tenant, auth, input: input as Record<string, unknown> })
        : undefined;
      const meta = {
        ip: req.ip ?? null,
        userAgent: req.get('user-agent') ?? null,
        token,
        range: req.get('range') ?? null,
      };
      let result: unknown;
      try {
        result = await run({ tenant, auth, zone, lang, now }, (ctx) =>
          call.handler(ctx, call.receive ? { ...(input as Record<string, unknown>), received } : input, meta),
        );
      } catch (e) {
        if (call.receive) await call.receive.discard(received);
        throw e;
      }
      if (result instanceof StreamReply) {
        res.status(result.status).set(result.headers);
        await pipeline(result.body, res).catch((err: unknown) => {
          if (!res.writableFinished) logger.warn({ err }, 'download interrupted');
        });
        return;
      }
      if (result instanceof Reply && result.headers) res.status(result.status).set(result.headers).send(result.body);
      else if (result instanceof Reply) res.status(result.status).json(result.body);
      else res.status(200).json(result ?? {});
    } catch (caught) {
      const e = asAppError(caught);
      if (e) {
        const body: Record<string, unknown> = { code: e.code };
        if (e.details?.fields) body.fields = e.details.fields;
        // {field: n}: the most characters a too-long text may have (ERROR_MAX_LENGTH).
        if (e.details?.limits) body.limits = e.details.limits;
        if (e.status === 409 && e.details?.message) body.message = e.details.message;
        // 409 IN_USE says what still uses the thing (list-query's inUse), so a client can say so.
        if (e.status === 409 && e.details?.usedBy) body.usedBy = e.details.usedBy;
        // 409 PROPOSAL_AGREEMENT_OBJECT_HAS_AGREEMENT names the object whose agreement to go to.
        if (e.status === 409 && e.details?.businessObjectId) body.businessObjectId = e.details.businessObjectId;
        // 409 PAYROLL_EMPLOYEE_NUMBER_MISSING names the people ([{userId, name}]) who need an employee number.
        if (e.status === 409 && e.details?.people) body.people = e.details.people;
        // 409 SUPPLIER_INVOICE_DUPLICATE names the invoice that arrived first.
        if (e.status === 409 && e.details?.duplicateOf) body.duplicateOf = e.details.duplicateOf;
        // 400 SUPPLIER_INVOICE_INVALID / SUPPLIER_ORDER_INVALID say which rule (or CSV line) the document breaks.
        if (e.status === 400 && /^SUPPLIER_(INVOICE|ORDER)_INVALID$/.test(e.code) && e.details?.message)
          body.message = e.details.message;
        return sendError(res, e.status, body);
      }
      logger.error({ err: caught, call: `${call.method} ${call.path}` }, 'API call failed');
      sendError(res, 500, { code: 'SERVER_ERROR' });
    }
  };
}

/**
 * The catalogue's calls, then those of app-module plugins (with the module that gates each). A
 * plugin call that would shadow a catalogue call stops the server at boot.
 */
export function allApiCalls(): { call: ApiCall; moduleId?: AppModuleId }[] {
  const core = new Set(API_CALLS.map((c) => `${c.method} ${c.path}`));
  const plugins = pluginApiCalls(getRegistry());
  for (const p of plugins)
    if (core.has(`${p.call.method} ${p.call.path}`))
      throw new Error(`plugin "${p.pluginId}": API call ${p.call.method} ${p.call.path} is already in the catalogue`);
  return [...API_CALLS.map((call) => ({ call })), ...plugins];
}

export function createApiRouter(): express.Router {
  const router = express.Router();
  const calls = allApiCalls();
  const documented = calls.map((c) => c.call);
  // Answers are per person and may hold secrets (an access code's value): never stored by a cache.
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  // Bodies are parsed only where there is one: most calls are GETs.
  const json = express.json({ limit: MAX_JSON_BODY, type: ['application/json', 'application/*+json'] });
  const csv = express.text({ limit: MAX_CSV_BODY, type: ['text/csv'] });
  router.use((req, res, next) =>
    req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined
      ? next()
      : json(req, res, (err?: unknown) => (err ? next(err) : csv(req, res, next))),
  );
  router.get('/openapi.json', (_req, res) => res.json(buildOpenApi(documented)));
  router.get('/docs', (_req, res) => res.type('html').send(renderApiDocs(documented)));
  for (const { call, moduleId } of calls) {
    const method = call.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[method](call.path, handle(call, moduleId));
  }
  router.use((_req, res) => sendError(res, 404, { code: 'UNKNOWN_API_CALL' }));
  // Body-parser failures: malformed JSON is a 400, an oversized body a 413; nothing ran.
  router.use((err: { type?: string; status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    if (err.type === 'entity.parse.failed') return sendError(res, 400, { code: 'INVALID_JSON' });
    if (err.type === 'entity.too.large') return sendError(res, 413, { code: 'PAYLOAD_TOO_LARGE' });
    if (err.status && err.status < 500) return sendError(res, err.status, { code: 'BAD_REQUEST' });
    logger.error({ err }, 'API request failed');
    sendError(res, 500, { code: 'SERVER_ERROR' });
  });
  return router;
}
