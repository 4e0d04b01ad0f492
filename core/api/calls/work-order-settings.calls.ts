import { z } from 'zod';
import { getWorkOrderSettings, updateWorkOrderSettings } from '~/core/work-orders/settings/settings.service';
import { defineCall, type ApiCall } from '../define-call';

export const getWorkOrderSettingsCall = defineCall({
  method: 'GET',
  path: '/instance/wo',
  access: { permission: 'settings:read' },
  input: z.object({}).passthrough(),
  summary:
    'The work-order settings: statuses, workTypes, tags, requiredFields, mode, numberPrefix, nextNumber (the ' +
    "instance's workOrderConfiguration and more)",
  handler: (ctx) => getWorkOrderSettings(ctx),
});

export const updateWorkOrderSettingsCall = defineCall({
  method: 'PATCH',
  path: '/instance/wo',
  access: { permission: 'instance:edit' },
  // Validated by the service (settings.rules.ts) so each row's errors carry keys like statuses.2.name.
  input: z.unknown(),
  summary:
    'Saves work-order settings {statuses?, workTypes?, tags?, requiredFields?, mode?, numberPrefix?, nextNumber?}; ' +
    'a list replaces the whole set, rows with an id keep it; 409 IN_USE when a removed row is in use',
  handler: (ctx, input) => updateWorkOrderSettings(ctx, input),
});

/** The work-order settings calls of the catalogue: GET and PATCH /instance/wo. */
export const workOrderSettingsCalls: ApiCall[] = [getWorkOrderSettingsCall, updateWorkOrderSettingsCall];
