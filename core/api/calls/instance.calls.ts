import { z } from 'zod';
import { patchInstanceConf, readInstance, ZPatchInstanceConf } from '~/core/instance/instance.service';
import { recordLoadTime, ZLoadMetric } from '~/core/instance/load-metrics';
import {
  authorizeMailAccount,
  forgetMailAccount,
  readMailAccount,
  testMailAccount,
  ZMailAuth,
  ZMailTest,
} from '~/core/mail/mail-account.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

export const getInstanceCall = defineCall({
  method: 'GET',
  path: '/instance',
  access: { permission: 'signed-in' },
  input: z.object({}),
  summary:
    'The instance (spec section 3): {displayName, configuration {country, languageKey, dateFormat, currency ' +
    '{symbol}, logoUrl}, workOrderConfiguration {statuses, workTypes: [{id, name, default}]}, appModules: the ids on}',
  handler: (ctx) => readInstance(ctx),
});

export const patchInstanceConfCall = defineCall({
  method: 'PATCH',
  path: '/instance/conf',
  access: { permission: 'instance:edit' },
  input: asSent(ZPatchInstanceConf),
  summary:
    'Saves any of {displayName, country (SE, EE, AU), languageKey (se, en, ee, lv, ru), dateFormat (YYYY-MM-DD, ' +
    'DD.MM.YYYY, MM/DD/YYYY), currency {symbol} (1–5), logoUrl (http(s), or null)}; the rest keeps its value → the instance',
  handler: (ctx, input) => patchInstanceConf(ctx, input),
});

export const loadMetricCall = defineCall({
  method: 'POST',
  path: '/instance/m',
  access: { permission: 'signed-in' },
  input: asSent(ZLoadMetric),
  summary:
    "A page's load time as the browser measured it {name (the page, 1–100 of A–Z a–z 0–9 / _ . : $ -), timeMs " +
    '(0–600000)}: counted a day and page; operators read p50/p95 with `npm run tenant -- load-times <slug>`',
  handler: (ctx, input) => recordLoadTime(ctx, input),
});

export const getMailAccountCall = defineCall({
  method: 'GET',
  path: '/instance/mail',
  access: { permission: 'instance:read' },
  input: z.object({}),
  summary:
    "The tenant's own sending account, never its password → {configured, host, port, security (tls | starttls | none), user, from, hasPassword, verifiedAt}",
  handler: (ctx) => readMailAccount(ctx),
});

export const mailAuthCall = defineCall({
  method: 'POST',
  path: '/instance/mail/auth',
  access: { permission: 'instance:edit' },
  input: asSent(ZMailAuth),
  summary:
    "The tenant's own SMTP account {host, port, security (tls | starttls | none; default starttls), user, password (left out: the stored one), " +
    'from (address or "Name <address>"), testTo ?}: tried with a real test mail, stored (password sealed) only if the server took it; ' +
    "the tenant's mail then leaves through it → the account without its password; 409 MAIL_LOGIN_REFUSED, MAIL_SERVER_UNREACHABLE, MAIL_SEND_REFUSED",
  handler: (ctx, input) => authorizeMailAccount(ctx, input),
});

export const mailTestCall = defineCall({
  method: 'POST',
  path: '/instance/mail/test',
  access: { permission: 'instance:edit' },
  input: asSent(ZMailTest),
  summary:
    'A test mail through the stored account {testTo ?} (the signed-in admin by default) → {ok, to}; 409 as /instance/mail/auth, MAIL_ACCOUNT_MISSING',
  handler: (ctx, input) => testMailAccount(ctx, input),
});

export const forgetMailCall = defineCall({
  method: 'DELETE',
  path: '/instance/mail',
  access: { permission: 'instance:edit' },
  input: z.object({}),
  summary: "Forgets the tenant's account: its mail leaves through the platform's again → the (empty) account",
  handler: (ctx) => forgetMailAccount(ctx),
});

/**
 * The instance calls of the catalogue: GET /instance, PATCH /instance/conf, POST /instance/m, POST
 * /instance/mail/auth; with the sending account's GET, test and DELETE beside it.
 */
export const instanceCalls: ApiCall[] = [
  getInstanceCall,
  patchInstanceConfCall,
  loadMetricCall,
  getMailAccountCall,
  mailAuthCall,
  mailTestCall,
  forgetMailCall,
];
