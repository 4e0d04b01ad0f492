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
  ZCodeValue,
  ZCodeValueQuery,
  ZCreateCode,
  ZCreateGroup,
  ZSecurityLogQuery,
  ZUpdateCode,
  ZUpdateGroup,
} from '~/core/business-objects/access-codes.service';
import {
  ZBoList,
  ZContacts,
  ZCreateBo,
  ZPage,
  ZQrLookup,
  ZUpdateBo,
} from '~/core/business-objects/business-object.schema';
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
  ZObjectArticlePrice,
} from '~/core/business-objects/object-articles.service';
import {
  addServiceLogEntry,
  listServiceLog,
  updateServiceLogEntry,
  ZServiceLogEntry,
  ZServiceLogPage,
} from '~/core/business-objects/service-log.service';
import {
  getCustomSpecification,
  getSecurityForm,
  getSecurityForms,
  saveCustomSpecification,
  saveSecurityForm,
  getSpecification,
  saveSpecification,
  ZSpecData,
} from '~/core/business-objects/spec.service';
import { securityFormSchema, type SecurityFormType } from '~/core/business-objects/security-forms';
import { exportSecurityForm, ZSecurityFormExport } from '~/core/business-objects/security-form-export.service';
import { ZProposeQuery } from '~/core/registers/propose-id';
import { fileReply } from './work-order-documents.calls';
import { asSent, defineCall, shownOnly, type ApiCall } from '../define-call';

/*
 * The business-object calls of the catalogue (api-calls.md "Business objects"), without the
 * agreement-on-object calls. Sub-resources name the object `:boId` so a body's own `id` (a code
 * group's, a code's) is not overwritten by the path. Services check access and validate; the
 * `access` here is the outer gate. Fixed paths come before parameterised ones.
 */

/** Path parameters are text; the service answers 404 for one that names nothing. */
const byId = z.object({ id: z.string() });
const onBo = z.object({ boId: z.string() });
const ok = async (p: Promise<unknown>) => {
  await p;
  return {};
};

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
    input: asSent(ZBoList),
    summary:
      'Objects by serial code {bos, totalCount}; ?q (serial, location, description, model, customer), ?customerId, ?modelId, ?status, ?includeSpecificationData, ?offset, ?limit',
    handler: (ctx, input) => listBusinessObjects(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/bo',
    access: EDIT,
    input: asSent(ZCreateBo),
    summary:
      'Creates an object {bo: {serialCode, modelId, customerId, priceListId, location, location2, location3, description, invoiceMarking, qrRef}}; returns {id}; 409 DUPLICATE_SERIAL_CODE, QR_REFERENCE_TAKEN',
    handler: (ctx, input) => createBusinessObject(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo',
    access: EDIT,
    input: asSent(ZUpdateBo),
    summary: 'Changes the fields given of an object {bo: {id, …}}; 409 DUPLICATE_SERIAL_CODE, QR_REFERENCE_TAKEN',
    handler: (ctx, input) => ok(updateBusinessObject(ctx, input)),
  }),
  defineCall({
    method: 'POST',
    path: '/bo/qr',
    access: READ,
    input: asSent(ZQrLookup),
    summary: 'The object a QR reference points at {qrRefId} → {bo}; 404 QR_REFERENCE_NOT_FOUND',
    handler: (ctx, input) => resolveQrRef(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/id/propose',
    access: EDIT,
    input: asSent(z.object({ length: z.union([z.literal(''), ZProposeQuery.shape.length]) })),
    summary: 'Proposes the next free all-digit serial code ?length (default 5) → {id}',
    handler: (ctx, input) => proposeSerialCode(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/bo/articles',
    access: EDIT,
    input: asSent(ZObjectArticlePrice),
    summary: "Sets an object's price for an article {businessObjectId, price, articleId}",
    handler: (ctx, input) => ok(saveObjectArticlePrice(ctx, input, 'create')),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/articles',
    access: EDIT,
    input: asSent(ZObjectArticlePrice),
    summary: "Changes an object's price for an article {businessObjectId, price, articleId}; 404 when none is set",
    handler: (ctx, input) => ok(saveObjectArticlePrice(ctx, input, 'update')),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/codes/logs',
    access: { permission: 'bo:codes:view_log' },
    input: asSent(ZSecurityLogQuery),
    summary:
      'The security log, newest first {logs, totalCount}; ?businessObjectId, ?userId, ?type, ?startTime, ?endTime, ?from, ?size',
    handler: (ctx, input) => listSecurityLog(ctx, input),
  }),
  // ---- one object ----
  defineCall({
    method: 'GET',
    path: '/bo/:id',
    access: READ,
    input: byId,
    summary: 'One object {bo} with model, customer, price list, contacts and specification',
    handler: (ctx, input) => getBusinessObject(ctx, input.id),
  }),
  defineCall({
    method: 'DELETE',
    path: '/bo/:id',
    access: { permission: 'bo:delete' },
    input: byId,
    summary: 'Deletes an object (access codes go too, each logged); 409 DELETE_NOT_POSSIBLE_SET_INACTIVE when in use',
    handler: (ctx, input) => ok(deleteBusinessObject(ctx, input.id)),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/customer',
    access: READ,
    input: onBo,
    summary: "The object's customer {customer} (null when none)",
    handler: (ctx, input) => getBusinessObjectCustomer(ctx, input.boId),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/:boId/contacts',
    access: EDIT,
    input: asSent(ZContacts.extend(onBo.shape)),
    summary: "Replaces the object's contacts {contacts: [{name, role, phone, email}]}",
    handler: (ctx, input) => ok(setBusinessObjectContacts(ctx, input.boId, input)),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/history',
    access: READ,
    input: asSent(ZPage(20).extend(onBo.shape)),
    summary: "The object's history, newest first {history, totalCount}; ?from (offset), ?size (default 20)",
    handler: (ctx, input) => listBusinessObjectHistory(ctx, input.boId, input),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/articles',
    access: READ,
    input: onBo,
    summary: "The object's own article prices {articles}",
    handler: (ctx, input) => listObjectArticlePrices(ctx, input.boId),
  }),
  defineCall({
    method: 'DELETE',
    path: '/bo/:boId/articles',
    access: EDIT,
    input: onBo.extend({ articleId: z.string({ error: 'ERROR_REQUIRED_FIELD' }) }),
    summary: "Removes the object's price for ?articleId",
    handler: (ctx, input) => ok(deleteObjectArticlePrice(ctx, input.boId, input)),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/spec',
    access: READ,
    input: onBo,
    summary: "The object's specification data {data}",
    handler: (ctx, input) => getSpecification(ctx, input.boId),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/:boId/spec',
    access: EDIT,
    input: asSent(ZSpecData.extend(onBo.shape)),
    summary: "Replaces the object's specification data {data: {name: value}}",
    handler: (ctx, input) => ok(saveSpecification(ctx, input.boId, input)),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/spec/custom/:type',
    access: READ,
    input: onBo.extend({ type: z.string() }),
    summary: 'A custom specification form {data, updatedAt, updatedBy}',
    handler: (ctx, input) => getCustomSpecification(ctx, input.boId, input.type),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/:boId/spec/custom/:type',
    access: EDIT,
    input: asSent(ZSpecData.extend({ ...onBo.shape, type: z.string() })),
    summary: 'Saves a custom specification form {data}',
    handler: (ctx, input) => ok(saveCustomSpecification(ctx, input.boId, input.type, input)),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/sec',
    access: SEC_READ,
    input: onBo,
    summary: 'Every security-system form of the object, by type (burglary, passage, camera, firealarm, assault)',
    handler: (ctx, input) => getSecurityForms(ctx, input.boId),
  }),
  ...SECURITY_PATHS.flatMap(([segment, type]) => [
    defineCall({
      method: 'GET',
      path: `/bo/:boId/sec/${segment}`,
      access: SEC_READ,
      input: onBo,
      summary: `The ${type} form {data, updatedAt, updatedBy}`,
      handler: (ctx, input) => getSecurityForm(ctx, input.boId, type),
    }),
    defineCall({
      method: 'PUT',
      path: `/bo/:boId/sec/${segment}`,
      access: SEC_EDIT,
      input: asSent(onBo.extend({ data: securityFormSchema(type) })),
      summary: `Saves the ${type} form {data}`,
      handler: (ctx, input) => ok(saveSecurityForm(ctx, input.boId, type, input)),
    }),
  ]),
  defineCall({
    method: 'POST',
    path: '/bo/:boId/sec/form/export',
    access: SEC_READ,
    // Another tenant's object is 404 before the body is read (decision 020): the service checks it.
    input: shownOnly(ZSecurityFormExport.extend(onBo.shape)),
    summary:
      "The object's security documentation as a file {type: docx | pdf, signature? (a PNG data URL or a typed name), " +
      'excludedPages? [object, burglary, passage, camera, firealarm, assault]} → the .docx or PDF attachment; one page ' +
      'per filled security form, the signature at the end',
    handler: async (ctx, input) => (await exportSecurityForm(ctx, input.boId, input)).map(fileReply),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/servicelog',
    access: READ,
    input: asSent(ZServiceLogPage.extend(onBo.shape)),
    summary: 'The service log, newest first, 20 a page {logs, totalCount}; ?from (offset)',
    handler: (ctx, input) => listServiceLog(ctx, input.boId, input),
  }),
  defineCall({
    method: 'POST',
    path: '/bo/:boId/servicelog',
    access: { permission: 'bo:service_log' },
    input: asSent(ZServiceLogEntry.extend(onBo.shape)),
    summary: 'Adds a service log entry {entry}; returns {id}',
    handler: (ctx, input) => addServiceLogEntry(ctx, input.boId, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/:boId/servicelog/:logId',
    access: { permission: 'bo:service_log' },
    input: asSent(ZServiceLogEntry.extend({ ...onBo.shape, logId: z.string() })),
    summary: 'Corrects a service log entry {entry}',
    handler: (ctx, input) => ok(updateServiceLogEntry(ctx, input.boId, input.logId, input)),
  }),
  // ---- access codes ----
  defineCall({
    method: 'GET',
    path: '/bo/:boId/codes/groups',
    access: CODES,
    input: onBo,
    summary: 'Code groups with their codes, names only {groups} (bo:codes:view or bo:codes:edit)',
    handler: (ctx, input) => listCodeGroups(ctx, input.boId),
  }),
  defineCall({
    method: 'POST',
    path: '/bo/:boId/codes/groups',
    access: CODES_EDIT,
    input: asSent(ZCreateGroup.extend(onBo.shape)),
    summary: 'Adds a code group {displayName, sortOrder?} → {id}; logged add.group',
    handler: (ctx, input) => createCodeGroup(ctx, input.boId, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/:boId/codes/groups',
    access: CODES_EDIT,
    input: asSent(ZUpdateGroup.extend(onBo.shape)),
    summary: 'Renames or reorders a code group {id, displayName?, sortOrder?}; logged edit.group',
    handler: (ctx, input) => ok(updateCodeGroup(ctx, input.boId, input)),
  }),
  defineCall({
    method: 'POST',
    path: '/bo/:boId/codes/groups/code',
    access: CODES_EDIT,
    input: asSent(ZCreateCode.extend(onBo.shape)),
    summary: 'Adds a code {groupId, displayName, value?, sortOrder?} → {id}; logged add.code',
    handler: (ctx, input) => createCode(ctx, input.boId, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/:boId/codes/groups/code',
    access: CODES_EDIT,
    input: asSent(ZUpdateCode.extend(onBo.shape)),
    summary: 'Renames, moves or reorders a code {id, displayName?, groupId?, sortOrder?, value?}; logged edit.code',
    handler: (ctx, input) => ok(updateCode(ctx, input.boId, input)),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/codes/groups/code/:codeId',
    access: CODES_VIEW,
    input: asSent(ZCodeValueQuery.extend({ ...onBo.shape, codeId: z.string() })),
    summary: "A code's value {value}; ?copy=1 logs copy.code, otherwise view.code. Never cached",
    handler: (ctx, input) => getCodeValue(ctx, input.boId, input.codeId, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/:boId/codes/groups/code/:codeId',
    access: CODES_EDIT,
    input: asSent(ZCodeValue.extend({ ...onBo.shape, codeId: z.string() })),
    summary: "Sets a code's value {id, value} ('' clears it); logged edit.code.value",
    handler: (ctx, input) => ok(setCodeValue(ctx, input.boId, input.codeId, input)),
  }),
  defineCall({
    method: 'DELETE',
    path: '/bo/:boId/codes/groups/code/:codeId',
    access: CODES_EDIT,
    input: onBo.extend({ codeId: z.string() }),
    summary: 'Deletes a code; logged delete.code',
    handler: (ctx, input) => ok(deleteCode(ctx, input.boId, input.codeId)),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/codes/groups/:groupId',
    access: CODES,
    input: onBo.extend({ groupId: z.string() }),
    summary: 'One code group with its codes, names only {group}',
    handler: (ctx, input) => getCodeGroup(ctx, input.boId, input.groupId),
  }),
  defineCall({
    method: 'DELETE',
    path: '/bo/:boId/codes/groups/:groupId',
    access: CODES_EDIT,
    input: onBo.extend({ groupId: z.string() }),
    summary: 'Deletes a code group and its codes; logged delete.code for each code and delete.group',
    handler: (ctx, input) => ok(deleteCodeGroup(ctx, input.boId, input.groupId)),
  }),
];
