import { z } from 'zod';
import {
  createAccessLevel,
  deleteAccessLevel,
  getAccessLevel,
  listAccessLevels,
  updateAccessLevel,
  ZCreateAccessLevel,
  ZUpdateAccessLevel,
} from '~/core/access-levels/access-level.service';
import { listPermissions } from '~/core/access-levels/permission-catalogue';
import { asSent, defineCall, type ApiCall } from '../define-call';

const READ = { permission: 'accesslevels:read' } as const;
const EDIT = { permission: 'accesslevels:edit' } as const;

export const listAccessLevelsCall = defineCall({
  method: 'GET',
  path: '/acls',
  access: READ,
  // Takes nothing; other query parameters are let through.
  input: z.object({}).passthrough(),
  summary: 'Every access level of the instance, by name',
  handler: (ctx) => listAccessLevels(ctx),
});

// The service's schemas (ZCreateAccessLevel / ZUpdateAccessLevel), checked here and again in the service.
export const createAccessLevelCall = defineCall({
  method: 'POST',
  path: '/acls',
  access: EDIT,
  input: asSent(ZCreateAccessLevel),
  summary: 'Creates an access level {displayName, description, permissions, limit, configuration}; 409 on a taken name',
  handler: (ctx, input) => createAccessLevel(ctx, input),
});

export const updateAccessLevelCall = defineCall({
  method: 'PUT',
  path: '/acls',
  access: EDIT,
  input: asSent(ZUpdateAccessLevel),
  summary: 'Changes an access level {id, …fields to change}; 409 on a taken name',
  handler: (ctx, input) => updateAccessLevel(ctx, input),
});

export const listPermissionsCall = defineCall({
  method: 'GET',
  path: '/acls/permissions',
  access: READ,
  // Takes nothing; other query parameters are let through.
  input: z.object({}).passthrough(),
  summary: 'The permission catalogue: id, name, description and group, in the user’s language',
  handler: async (ctx) => listPermissions(ctx),
});

export const getAccessLevelCall = defineCall({
  method: 'GET',
  path: '/acls/:id',
  access: READ,
  input: z.object({ id: z.string() }),
  summary: 'One access level with its permissions',
  handler: (ctx, input) => getAccessLevel(ctx, input.id),
});

export const deleteAccessLevelCall = defineCall({
  method: 'DELETE',
  path: '/acls/:id',
  access: EDIT,
  input: z.object({ id: z.string() }),
  summary: 'Deletes an access level no user holds; 409 ACCESS_LEVEL_IN_USE otherwise',
  async handler(ctx, input) {
    await deleteAccessLevel(ctx, input.id);
    return {};
  },
});

/**
 * The access-level calls of the catalogue: /acls, /acls/{id}, /acls/permissions. The fixed path
 * /acls/permissions comes before /acls/:id so the router does not read "permissions" as an id.
 */
export const accessLevelCalls: ApiCall[] = [
  listAccessLevelsCall,
  createAccessLevelCall,
  updateAccessLevelCall,
  listPermissionsCall,
  getAccessLevelCall,
  deleteAccessLevelCall,
];
