import { z } from 'zod';
import { getWorkOrderSettings, updateWorkOrderSettings } from '~/core/work-orders/settings/settings.service';
import { ZWorkOrderSettingsPatch } from '~/core/work-orders/settings/settings.rules';
import { defineCall, shownOnly, type ApiCall } from '../define-call';

export const getWorkOrderSettingsCall = defineCall({
  method: 'GET',
  path: '/instance/wo',
  access: { permission: 'settings:read' },
  input: z.object({}),
  summary:
    'The work-order settings: statuses, workTypes, tags, requiredFields, mode, numberPrefix, nextNumber (the ' +
    "instance's workOrderConfiguration and more)",
  handler: (ctx) => getWorkOrderSettings(ctx),
});

export const updateWorkOrderSettingsCall = defineCall({
  method: 'PATCH',
  path: '/instance/wo',
  access: { permission: 'instance:edit' },
  // Shown, but checked by the service alone (settings.rules.ts): its 400 names a row's own errors
  // (statuses.2.name) together with the rules across rows (two defaults), so the form marks them all.
  input: shownOnly(ZWorkOrderSettingsPatch),
  summary:
    'Saves work-order settings {statuses?, workTypes?, tags?, requiredFields?, mode?, numberPrefix?, nextNumber?}; ' +
    'a list replaces the whole set, rows with an id keep it; 409 IN_USE when a removed row is in use',
  handler: (ctx, input) => updateWorkOrderSettings(ctx, input),
});

/** The work-order settings calls of the catalogue: GET and PATCH /instance/wo. */
export const workOrderSettingsCalls: ApiCall[] = [getWorkOrderSettingsCall, updateWorkOrderSettingsCall];
