import type { NextFunction, Request, Response } from 'express';
import en from '~/core/i18n/locales/en/common.json';
import et from '~/core/i18n/locales/et/common.json';
import lv from '~/core/i18n/locales/lv/common.json';
import ru from '~/core/i18n/locales/ru/common.json';
import sv from '~/core/i18n/locales/sv/common.json';
import { crossOrigin, nulInUrl } from '~/core/http/edge';
import { LANG_COOKIE, readCookie, SESSION_COOKIE } from '~/core/http/session-token';
import { isLang, langFromKey, type Lang } from '~/core/i18n/languages';
import type { Tenant } from '~/core/tenancy/tenant';

const COMMON: Record<Lang, Record<string, string>> = { sv, en, et, lv, ru };

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A refusal before any page ran: a bare page in the visitor's language (the switch's cookie, else the tenant's). */
function refusalPage(req: Request, tenant: Tenant, key: string, vars: Record<string, string> = {}) {
  const cookie = readCookie(req.headers.cookie ?? null, LANG_COOKIE);
  const lang: Lang = isLang(cookie) ? cookie : langFromKey(tenant.config.languageKey);
  const text = (k: string) =>
    escape((COMMON[lang][k] ?? COMMON.en[k] ?? k).replace(/\{\{(\w+)\}\}/g, (_, v: string) => vars[v] ?? ''));
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${text(`${key}.title`)}</title></head><body><main><h1>${text(`${key}.title`)}</h1><p>${text(`${key}.body`)}</p><p><a href="/">${text('errors.backHome')}</a></p></main></body></html>`;
}

/**
 * The edge checks of issue 11, after host → tenant and before the API or any page: a state-changing
 * request a cookie authenticates (any page's form post) from another origin is refused with 403;
 * a page address holding a NUL character with 400 (the API names the field itself, in its handler,
 * and the pages' form fields are checked by the root route's middleware).
 */
export function edgeChecks(config: { TRUST_PROXY: unknown }) {
  return (req: Request, res: Response, next: NextFunction) => {
    const tenant = res.locals.tenant as Tenant;
    const api = req.path.startsWith('/api/');
    const forwarded = config.TRUST_PROXY ? req.get('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
    const refused = crossOrigin({
      method: req.method,
      host: forwarded ?? req.get('host') ?? '',
      origin: req.get('origin'),
      secFetchSite: req.get('sec-fetch-site'),
      cookieAuthenticated:
        !req.headers.authorization && readCookie(req.headers.cookie ?? null, SESSION_COOKIE) !== null,
      page: !api,
    });
    if (refused) {
      if (api) res.status(403).json({ code: 'CROSS_ORIGIN_REQUEST' });
      else
        res
          .status(403)
          .type('html')
          .send(refusalPage(req, tenant, 'errors.crossOrigin'));
      return;
    }
    if (!api) {
      let field: string | null;
      try {
        field = nulInUrl(new URL(req.originalUrl, 'http://x'));
      } catch {
        field = 'path';
      }
      if (field !== null) {
        res
          .status(400)
          .type('html')
          .send(refusalPage(req, tenant, 'errors.invalidCharacter', { field }));
        return;
      }
    }
    next();
  };
}
