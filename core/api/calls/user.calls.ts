import { z } from 'zod';
import {
  deleteDepartment,
  getDepartment,
  listUsers,
  saveDepartment,
  ZDepartment,
  ZUserFilter,
} from '~/core/users/user.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

export const userCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/users',
    access: { permission: 'users:read' },
    input: asSent(ZUserFilter),
    summary: 'Users, filtered by status (active on, inactive and registered off by default) and text',
    handler: (ctx, input) => listUsers(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/instance/departments/:id',
    access: { permission: 'signed-in' },
    input: z.object({ id: z.string() }),
    summary: 'One department',
    handler: (ctx, input) => getDepartment(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/instance/departments',
    access: { permission: 'instance:edit' },
    input: asSent(ZDepartment.omit({ id: true })),
    summary: 'Creates a department {name}',
    handler: (ctx, input) => saveDepartment(ctx, { ...(input as object), id: undefined }),
  }),
  defineCall({
    method: 'PUT',
    path: '/instance/departments',
    access: { permission: 'instance:edit' },
    input: asSent(ZDepartment),
    summary: 'Renames a department {id, name}',
    handler: (ctx, input) => saveDepartment(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/instance/departments',
    access: { permission: 'instance:edit' },
    input: z.object({ id: z.string({ error: 'ERROR_REQUIRED_FIELD' }) }),
    summary: 'Deletes a department ?id= without users (409 DEPARTMENT_HAS_USERS otherwise)',
    async handler(ctx, input) {
      await deleteDepartment(ctx, input.id);
      return {};
    },
  }),
  defineCall({
    method: 'DELETE',
    path: '/instance/departments/:id',
    access: { permission: 'instance:edit' },
    input: z.object({ id: z.string() }),
    summary: 'Deletes a department without users (409 DEPARTMENT_HAS_USERS otherwise)',
    async handler(ctx, input) {
      await deleteDepartment(ctx, input.id);
      return {};
    },
  }),
];
