import { z } from 'zod';
import { getAccessLevel } from '~/core/access-levels/access-level.service';
import { defineCall, type ApiCall } from '../define-call';

export const getAccessLevelCall = defineCall({
  method: 'GET',
  path: '/acls/:id',
  access: { permission: 'accesslevels:read' },
  input: z.object({ id: z.string() }),
  summary: 'One access level with its permissions',
  handler: (ctx, input) => getAccessLevel(ctx, input.id),
});

/** The access-level calls of the catalogue: /acls, /acls/{id}, /acls/permissions. */
export const accessLevelCalls: ApiCall[] = [getAccessLevelCall];
