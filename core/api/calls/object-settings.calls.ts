import { z } from 'zod';
import {
  getObjectSettings,
  updateObjectSettings,
  ZObjectSettingsPatch,
} from '~/core/business-objects/object-settings.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

export const getObjectSettingsCall = defineCall({
  method: 'GET',
  path: '/instance/bo',
  access: { permission: 'settings:read' },
  input: z.object({}),
  summary:
    "The object settings {kind (object, machine, elevator, security, gate: the objects' wording), minIdLength} " +
    '(not in the catalogue, which reads them with the instance)',
  handler: (ctx) => getObjectSettings(ctx),
});

export const updateObjectSettingsCall = defineCall({
  method: 'PATCH',
  path: '/instance/bo',
  access: { permission: 'instance:edit' },
  input: asSent(ZObjectSettingsPatch),
  summary:
    'Saves object settings {kind?, minIdLength? (1–12: the length GET /bo/id/propose uses without ?length)} → ' +
    'the full settings',
  handler: (ctx, input) => updateObjectSettings(ctx, input),
});

/** The object settings calls: PATCH /instance/bo of the catalogue, and GET to read them back. */
export const objectSettingsCalls: ApiCall[] = [getObjectSettingsCall, updateObjectSettingsCall];
