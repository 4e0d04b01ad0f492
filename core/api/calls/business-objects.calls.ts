import { z } from 'zod';
import {
  createCode,
  createCodeGroup,
  deleteCode,
  deleteCodeGroup,
  getCodeGroup,
  getCodeValue,
  listCodeGroups,
  listSecurityLog,
  setCodeValue,
  updateCode,
  updateCodeGroup,
} from '~/core/business-objects/access-codes.service';
import {
  createBusinessObject,
  deleteBusinessObject,
  getBusinessObject,
  getBusinessObjectCustomer,
  listBusinessObjectHistory,
  listBusinessObjects,
  proposeSerialCode,
  resolveQrRef,
  setBusinessObjectContacts,
  updateBusinessObject,
} from '~/core/business-objects/business-object.service';
import {
  deleteObjectArticlePrice,
  listObjectArticlePrices,
  saveObjectArticlePrice,
} from '~/core/business-objects/object-articles.service';
import { addServiceLogEntry, listServiceLog, updateServiceLogEntry } from '~/core/business-objects/service-log.service';
import {
  getCustomSpecification,
  getSecurityForm,
  getSecurityForms,
  saveCustomSpecification,
  saveSecurityForm,
  getSpecification,
  saveSpecification,
} from '~/core/business-objects/spec.service';
import type { SecurityFormType } from '~/core/business-objects/security-forms';
import { exportSecurityForm } from '~/core/business-objects/security-form-export.service';
import { fileReply } from './work-order-documents.calls';
import { defineCall, type ApiCall } from '../define-call';

/*
 * The business-object calls of the catalogue (api-calls.md "Business objects"), without the
 * agreement-on-object calls. Sub-resources name the object `:boId` so a body's own `id` (a code
 * group's, a code's) is not overwritten by the path. Services check access and validate; the
 * `access` here is the outer gate. Fixed paths come before parameterised ones.
 */

const pass = z.object({}).passthrough();
const ok = async (p: Promise<unknown>) => {
  await p;
  return {};
};
type Input = Record<string, unknown>;

const READ = { permission: 'bo:read' } as const;
const EDIT = { permission: 'bo:edit' } as const;
const CODES = { permission: 'signed-in' } as const; // view or edit; the service decides
const CODES_VIEW = { permission: 'bo:codes:view' } as const;
const CODES_EDIT = { permission: 'bo:codes:edit' } as const;
const SEC_READ = { permission: 'security:bo_document:read', module: 'security' } as const;
const SEC_EDIT = { permission: 'security:bo_document:edit', module: 'security' } as const;

/** /sec/form is the burglary form; the other systems have their own paths. */
const SECURITY_PATHS: [string, SecurityFormType][] = [
  ['form', 'burglary'],
  ['passage', 'passage'],
  ['camera', 'camera'],
  ['firealarm', 'firealarm'],
  ['assault', 'assault'],
];

export const businessObjectCalls: ApiCall[] = [
  // ---- fixed paths ----
  defineCall({
    method: 'GET',
    path: '/bo',
    access: READ,
    input: pass,
    summary:
      'Objects by serial code {bos, totalCount}; ?q (serial, location, description, model, customer), ?customerId, ?modelId, ?status, ?includeSpecificationData, ?offset, ?limit',
    handler: (ctx, input) => listBusinessObjects(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/bo',
    access: EDIT,
    input: pass,
    summary:
      'Creates an object {bo: {serialCode, modelId, customerId, priceListId, location, location2, location3, description, invoiceMarking, qrRef}}; returns {id}; 409 DUPLICATE_SERIAL_CODE, QR_REFERENCE_TAKEN',
    handler: (ctx, input) => createBusinessObject(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo',
    access: EDIT,
    input: pass,
    summary: 'Changes the fields given of an object {bo: {id, …}}; 409 DUPLICATE_SERIAL_CODE, QR_REFERENCE_TAKEN',
    handler: (ctx, input) => ok(updateBusinessObject(ctx, input)),
  }),
  defineCall({
    method: 'POST',
    path: '/bo/qr',
    access: READ,
    input: pass,
    summary: 'The object a QR reference points at {qrRefId} → {bo}; 404 QR_REFERENCE_NOT_FOUND',
    handler: (ctx, input) => resolveQrRef(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/id/propose',
    access: EDIT,
    input: pass,
    summary: 'Proposes the next free all-digit serial code ?length (default 5) → {id}',
    handler: (ctx, input) => proposeSerialCode(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/bo/articles',
    access: EDIT,
    input: pass,
    summary: "Sets an object's price for an article {businessObjectId, price, articleId}",
    handler: (ctx, input) => ok(saveObjectArticlePrice(ctx, input, 'create')),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/articles',
    access: EDIT,
    input: pass,
    summary: "Changes an object's price for an article {businessObjectId, price, articleId}; 404 when none is set",
    handler: (ctx, input) => ok(saveObjectArticlePrice(ctx, input, 'update')),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/codes/logs',
    access: { permission: 'bo:codes:view_log' },
    input: pass,
    summary:
      'The security log, newest first {logs, totalCount}; ?businessObjectId, ?userId, ?type, ?startTime, ?endTime, ?from, ?size',
    handler: (ctx, input) => listSecurityLog(ctx, input),
  }),
  // ---- one object ----
  defineCall({
    method: 'GET',
    path: '/bo/:id',
    access: READ,
    input: pass,
    summary: 'One object {bo} with model, customer, price list, contacts and specification',
    handler: (ctx, input) => getBusinessObject(ctx, (input as Input).id),
  }),
  defineCall({
    method: 'DELETE',
    path: '/bo/:id',
    access: { permission: 'bo:delete' },
    input: pass,
    summary: 'Deletes an object (access codes go too, each logged); 409 DELETE_NOT_POSSIBLE_SET_INACTIVE when in use',
    handler: (ctx, input) => ok(deleteBusinessObject(ctx, (input as Input).id)),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/customer',
    access: READ,
    input: pass,
    summary: "The object's customer {customer} (null when none)",
    handler: (ctx, input) => getBusinessObjectCustomer(ctx, (input as Input).boId),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/:boId/contacts',
    access: EDIT,
    input: pass,
    summary: "Replaces the object's contacts {contacts: [{name, role, phone, email}]}",
    handler: (ctx, input) => ok(setBusinessObjectContacts(ctx, (input as Input).boId, input)),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/history',
    access: READ,
    input: pass,
    summary: "The object's history, newest first {history, totalCount}; ?from (offset), ?size (default 20)",
    handler: (ctx, input) => listBusinessObjectHistory(ctx, (input as Input).boId, input),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/articles',
    access: READ,
    input: pass,
    summary: "The object's own article prices {articles}",
    handler: (ctx, input) => listObjectArticlePrices(ctx, (input as Input).boId),
  }),
  defineCall({
    method: 'DELETE',
    path: '/bo/:boId/articles',
    access: EDIT,
    input: pass,
    summary: "Removes the object's price for ?articleId",
    handler: (ctx, input) => ok(deleteObjectArticlePrice(ctx, (input as Input).boId, input)),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/spec',
    access: READ,
    input: pass,
    summary: "The object's specification data {data}",
    handler: (ctx, input) => getSpecification(ctx, (input as Input).boId),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/:boId/spec',
    access: EDIT,
    input: pass,
    summary: "Replaces the object's specification data {data: {name: value}}",
    handler: (ctx, input) => ok(saveSpecification(ctx, (input as Input).boId, input)),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/spec/custom/:type',
    access: READ,
    input: pass,
    summary: 'A custom specification form {data, updatedAt, updatedBy}',
    handler: (ctx, input) => getCustomSpecification(ctx, (input as Input).boId, (input as Input).type),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/:boId/spec/custom/:type',
    access: EDIT,
    input: pass,
    summary: 'Saves a custom specification form {data}',
    handler: (ctx, input) => ok(saveCustomSpecification(ctx, (input as Input).boId, (input as Input).type, input)),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/sec',
    access: SEC_READ,
    input: pass,
    summary: 'Every security-system form of the object, by type (burglary, passage, camera, firealarm, assault)',
    handler: (ctx, input) => getSecurityForms(ctx, (input as Input).boId),
  }),
  ...SECURITY_PATHS.flatMap(([segment, type]) => [
    defineCall({
      method: 'GET',
      path: `/bo/:boId/sec/${segment}`,
      access: SEC_READ,
      input: pass,
      summary: `The ${type} form {data, updatedAt, updatedBy}`,
      handler: (ctx, input) => getSecurityForm(ctx, (input as Input).boId, type),
    }),
    defineCall({
      method: 'PUT',
      path: `/bo/:boId/sec/${segment}`,
      access: SEC_EDIT,
      input: pass,
      summary: `Saves the ${type} form {data}`,
      handler: (ctx, input) => ok(saveSecurityForm(ctx, (input as Input).boId, type, input)),
    }),
  ]),
  defineCall({
    method: 'POST',
    path: '/bo/:boId/sec/form/export',
    access: SEC_READ,
    input: pass,
    summary:
      "The object's security documentation as a file {type: docx | pdf, signature? (a PNG data URL or a typed name), " +
      'excludedPages? [object, burglary, passage, camera, firealarm, assault]} → the .docx or PDF attachment; one page ' +
      'per filled security form, the signature at the end',
    handler: async (ctx, input) => fileReply(await exportSecurityForm(ctx, (input as Input).boId, input)),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/servicelog',
    access: READ,
    input: pass,
    summary: 'The service log, newest first, 20 a page {logs, totalCount}; ?from (offset)',
    handler: (ctx, input) => listServiceLog(ctx, (input as Input).boId, input),
  }),
  defineCall({
    method: 'POST',
    path: '/bo/:boId/servicelog',
    access: { permission: 'bo:service_log' },
    input: pass,
    summary: 'Adds a service log entry {entry}; returns {id}',
    handler: (ctx, input) => addServiceLogEntry(ctx, (input as Input).boId, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/:boId/servicelog/:logId',
    access: { permission: 'bo:service_log' },
    input: pass,
    summary: 'Corrects a service log entry {entry}',
    handler: (ctx, input) => ok(updateServiceLogEntry(ctx, (input as Input).boId, (input as Input).logId, input)),
  }),
  // ---- access codes ----
  defineCall({
    method: 'GET',
    path: '/bo/:boId/codes/groups',
    access: CODES,
    input: pass,
    summary: 'Code groups with their codes, names only {groups} (bo:codes:view or bo:codes:edit)',
    handler: (ctx, input) => listCodeGroups(ctx, (input as Input).boId),
  }),
  defineCall({
    method: 'POST',
    path: '/bo/:boId/codes/groups',
    access: CODES_EDIT,
    input: pass,
    summary: 'Adds a code group {displayName, sortOrder?} → {id}; logged add.group',
    handler: (ctx, input) => createCodeGroup(ctx, (input as Input).boId, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/:boId/codes/groups',
    access: CODES_EDIT,
    input: pass,
    summary: 'Renames or reorders a code group {id, displayName?, sortOrder?}; logged edit.group',
    handler: (ctx, input) => ok(updateCodeGroup(ctx, (input as Input).boId, input)),
  }),
  defineCall({
    method: 'POST',
    path: '/bo/:boId/codes/groups/code',
    access: CODES_EDIT,
    input: pass,
    summary: 'Adds a code {groupId, displayName, value?, sortOrder?} → {id}; logged add.code',
    handler: (ctx, input) => createCode(ctx, (input as Input).boId, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/:boId/codes/groups/code',
    access: CODES_EDIT,
    input: pass,
    summary: 'Renames, moves or reorders a code {id, displayName?, groupId?, sortOrder?, value?}; logged edit.code',
    handler: (ctx, input) => ok(updateCode(ctx, (input as Input).boId, input)),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/codes/groups/code/:codeId',
    access: CODES_VIEW,
    input: pass,
    summary: "A code's value {value}; ?copy=1 logs copy.code, otherwise view.code. Never cached",
    handler: (ctx, input) => getCodeValue(ctx, (input as Input).boId, (input as Input).codeId, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/:boId/codes/groups/code/:codeId',
    access: CODES_EDIT,
    input: pass,
    summary: "Sets a code's value {id, value} ('' clears it); logged edit.code.value",
    handler: (ctx, input) => ok(setCodeValue(ctx, (input as Input).boId, (input as Input).codeId, input)),
  }),
  defineCall({
    method: 'DELETE',
    path: '/bo/:boId/codes/groups/code/:codeId',
    access: CODES_EDIT,
    input: pass,
    summary: 'Deletes a code; logged delete.code',
    handler: (ctx, input) => ok(deleteCode(ctx, (input as Input).boId, (input as Input).codeId)),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/codes/groups/:groupId',
    access: CODES,
    input: pass,
    summary: 'One code group with its codes, names only {group}',
    handler: (ctx, input) => getCodeGroup(ctx, (input as Input).boId, (input as Input).groupId),
  }),
  defineCall({
    method: 'DELETE',
    path: '/bo/:boId/codes/groups/:groupId',
    access: CODES_EDIT,
    input: pass,
    summary: 'Deletes a code group and its codes; logged delete.code for each code and delete.group',
    handler: (ctx, input) => ok(deleteCodeGroup(ctx, (input as Input).boId, (input as Input).groupId)),
  }),
];
