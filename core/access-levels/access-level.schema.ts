import { z } from 'zod';
import { zRequiredString } from '~/core/errors/validation';
import { isPermission, WORK_ORDER_LIMITS, type Permission, type WorkOrderLimit } from '~/core/permissions/permissions';

/** An access level as the API and the UI see it (spec section 3, plus its work-order limit). */
export interface TAccessLevel {
  id: string;
  displayName: string;
  description: string | null;
  configuration: Record<string, unknown>;
  permissions: Permission[];
  /** Work-order limit of spec section 6: none (all), user (assigned), user.created. */
  limit: WorkOrderLimit;
  /** How many users hold the level; a level in use cannot be deleted. */
  userCount: number;
}

const zDisplayName = () => zRequiredString().max(100, 'ERROR_MAX_LENGTH');

const zDescription = () =>
  z
    .string({ error: 'ERROR_INVALID_VALUE' })
    .trim()
    .max(500, 'ERROR_MAX_LENGTH')
    .nullish()
    .transform((v) => (v ? v : null));

/** Only the permission strings of core/permissions; each listed once, in catalogue order. */
const zPermissions = () =>
  z
    .array(z.string({ error: 'ERROR_INVALID_VALUE' }).refine(isPermission, 'ERROR_INVALID_VALUE'), {
      error: 'ERROR_INVALID_VALUE',
    })
    .transform((list) => [...new Set(list)] as Permission[]);

const zLimit = () => z.enum(WORK_ORDER_LIMITS, { error: 'ERROR_INVALID_VALUE' });

const zConfiguration = () => z.record(z.string(), z.unknown(), { error: 'ERROR_INVALID_VALUE' });

export const ZCreateAccessLevel = z.object({
  displayName: zDisplayName(),
  description: zDescription(),
  permissions: zPermissions().default([]),
  limit: zLimit().default('none'),
  configuration: zConfiguration().default({}),
});
export type TCreateAccessLevel = z.infer<typeof ZCreateAccessLevel>;

/** PUT /acls: `id` plus the fields to change; a field left out keeps its value. */
export const ZUpdateAccessLevel = z.object({
  id: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  displayName: zDisplayName().optional(),
  description: zDescription().optional(),
  permissions: zPermissions().optional(),
  limit: zLimit().optional(),
  configuration: zConfiguration().optional(),
});
export type TUpdateAccessLevel = z.infer<typeof ZUpdateAccessLevel>;
