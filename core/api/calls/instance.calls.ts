import { z } from 'zod';
import { patchInstanceConf, readInstance, ZPatchInstanceConf } from '~/core/instance/instance.service';
import { recordLoadTime, ZLoadMetric } from '~/core/instance/load-metrics';
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

/** The instance calls of the catalogue: GET /instance, PATCH /instance/conf, POST /instance/m. */
export const instanceCalls: ApiCall[] = [getInstanceCall, patchInstanceConfCall, loadMetricCall];
