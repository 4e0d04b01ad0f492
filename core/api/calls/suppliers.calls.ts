import { z } from 'zod';
import {
  createSupplier,
  deleteSupplier,
  getSupplier,
  listSuppliers,
  proposeSupplierNumber,
  searchSuppliers,
  setSupplierContacts,
  updateSupplier,
  ZSupplierSearch,
} from '~/core/suppliers/supplier.service';
import { ZCreateSupplier, ZSupplierContacts, ZSupplierFilter, ZUpdateSupplier } from '~/core/suppliers/supplier.schema';
import { ZProposeQuery } from '~/core/registers/propose-id';
import { asSent, defineCall, unwrapped, type ApiCall } from '../define-call';

const READ = { permission: 'suppliers:read' } as const;
const EDIT = { permission: 'suppliers:edit' } as const;

/**
 * The catalogue's supplier calls (api-calls.md "Suppliers"). The inputs are the services'
 * schemas, checked here and parsed again by the services, so field errors carry message keys. Fixed paths (/q, /id/propose) come before /:id.
 */
export const supplierCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/suppliers',
    access: READ,
    input: asSent(ZSupplierFilter),
    summary:
      'Suppliers: ?q (number, title, name), status (active|inactive|all), tag, sort (number|title), desc, offset, limit → {suppliers, totalCount}',
    handler: (ctx, input) => listSuppliers(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/suppliers/q',
    access: READ,
    input: asSent(ZSupplierSearch),
    summary: 'Suppliers matching ?q for a picker, at most 200 → {suppliers, total}',
    handler: (ctx, input) => searchSuppliers(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/suppliers/id/propose',
    access: EDIT,
    input: asSent(ZProposeQuery),
    summary: 'The next free supplier number of ?length digits → {id}',
    handler: (ctx, input) => proposeSupplierNumber(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/suppliers/:id',
    access: READ,
    input: z.object({ id: z.string() }),
    summary: 'One supplier with its contacts',
    handler: (ctx, input) => getSupplier(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/suppliers',
    access: EDIT,
    input: asSent(z.object({ supplier: ZCreateSupplier }), unwrapped('supplier', ZCreateSupplier)),
    summary:
      'Creates a supplier {supplier} or {title, name}; the number is proposed when left out; 409 DUPLICATE_SUPPLIER_NUMBER',
    handler: (ctx, input) => createSupplier(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/suppliers',
    access: EDIT,
    input: asSent(z.object({ supplier: ZUpdateSupplier }), unwrapped('supplier', ZUpdateSupplier)),
    summary: 'Changes a supplier {supplier: {id, …fields to change}}; 409 DUPLICATE_SUPPLIER_NUMBER',
    handler: (ctx, input) => updateSupplier(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/suppliers/:id/contacts',
    access: EDIT,
    input: asSent(ZSupplierContacts),
    summary: "Replaces the supplier's contacts {contacts: [{name, role, phone, email}]}",
    handler: (ctx, input) => setSupplierContacts(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/suppliers/:id',
    access: { permission: 'suppliers:delete' },
    input: z.object({ id: z.string() }),
    summary: 'Deletes a supplier; 409 IN_USE {usedBy: {articles}} while articles name it',
    async handler(ctx, input) {
      await deleteSupplier(ctx, input.id);
      return {};
    },
  }),
];
