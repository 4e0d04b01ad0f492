import express, { type NextFunction, type Request, type Response } from 'express';
import { API_CALLS } from '~/core/api/catalogue';
import { Reply, type ApiCall } from '~/core/api/define-call';
import { validateSession } from '~/core/auth/session.service';
import { isAppError } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { langFromKey } from '~/core/i18n/languages';
import { logContext, logger } from '~/core/log/logger';
import { requireAccess } from '~/core/permissions/access';
import { readToken } from '~/core/http/session-token';
import { inTenant, sessionPolicy } from '~/core/unit-of-work';
import type { Tenant } from '~/core/tenancy/tenant';
import { buildOpenApi, renderApiDocs } from './openapi';

/** Largest JSON body the API accepts; uploads have their own route. */
export const MAX_JSON_BODY = '1mb';

function sendError(res: Response, status: number, body: Record<string, unknown>) {
  res.status(status).json(body);
}

/** One catalogue call: session → access → parse → service, all in one tenant transaction. */
function handle(call: ApiCall) {
  return async (req: Request, res: Response) => {
    const tenant = res.locals.tenant as Tenant;
    const token = readToken({ cookie: req.headers.cookie, authorization: req.headers.authorization });
    try {
      const result = await inTenant(
        { tenant, auth: null, lang: langFromKey(tenant.config.languageKey) },
        async (ctx) => {
          const auth = token ? await validateSession(ctx.trx, token, ctx.now, sessionPolicy()) : null;
          // A bad token on any call other than a public one is INVALID_SESSION (spec section 8).
          const store = logContext.getStore();
          if (store && auth) store.userId = auth.user.id;
          requireAccess(auth, call.access);
          const scoped = { ...ctx, auth, lang: langFromKey(auth?.user.language ?? tenant.config.languageKey) };
          const raw =
            call.method === 'GET' || call.method === 'DELETE'
              ? { ...req.query, ...req.params }
              : { ...(req.body ?? {}), ...req.params };
          const input = parseInput(call.input, raw);
          return call.handler(scoped, input, { ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null, token });
        },
      );
      if (result instanceof Reply) res.status(result.status).json(result.body);
      else res.status(200).json(result ?? {});
    } catch (e) {
      if (isAppError(e)) {
        const body: Record<string, unknown> = { code: e.code };
        if (e.details?.fields) body.fields = e.details.fields;
        if (e.status === 409 && e.details?.message) body.message = e.details.message;
        return sendError(res, e.status, body);
      }
      logger.error({ err: e, call: `${call.method} ${call.path}` }, 'API call failed');
      sendError(res, 500, { code: 'SERVER_ERROR' });
    }
  };
}

export function createApiRouter(): express.Router {
  const router = express.Router();
  router.use(express.json({ limit: MAX_JSON_BODY, type: ['application/json', 'application/*+json'] }));
  router.get('/openapi.json', (_req, res) => res.json(buildOpenApi(API_CALLS)));
  router.get('/docs', (_req, res) => res.type('html').send(renderApiDocs(API_CALLS)));
  for (const call of API_CALLS) {
    const method = call.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[method](call.path, handle(call));
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
