import { z } from 'zod';
import {
  changeCustomerNumber,
  createCustomer,
  deleteCustomer,
  getCustomer,
  getCustomerConfiguration,
  getCustomerContacts,
  getCustomerHistory,
  getCustomerNumber,
  listCustomers,
  proposeCustomerNumber,
  setCustomerConfiguration,
  setCustomerContacts,
  updateCustomer,
  ZConfiguration,
  ZCustomerContacts,
  ZCustomerNumber,
  ZHistoryQuery,
} from '~/core/customers/customer.service';
import {
  deleteCustomerArticlePrice,
  deleteGroupDiscount,
  listCustomerArticles,
  listGroupDiscounts,
  setCustomerArticlePrice,
  setGroupDiscount,
  ZCustomerArticlePrice,
  ZCustomerArticleRemove,
  ZGroupDiscount,
  ZGroupDiscountDelete,
  ZGroupDiscountList,
} from '~/core/customers/customer-prices.service';
import { ZCreateCustomer, ZCustomerListQuery, ZUpdateCustomer } from '~/core/customers/customer.schema';
import { ZProposeQuery } from '~/core/registers/propose-id';
import {
  createZoneUser,
  deleteZoneUser,
  listZoneUsers,
  resendZoneInvitation,
  updateZoneUser,
  ZCreateZoneUser,
  ZONE_USERS_ACCESS,
  ZResendZoneUser,
  ZUpdateZoneUser,
  getZoneSelfService,
  setZoneSelfService,
  ZZoneSelfService,
} from '~/core/customers/zone-user.service';
import { asSent, defineCall, wrappedIn, type ApiCall } from '../define-call';

const READ = { permission: 'customers:read' } as const;
const EDIT = { permission: 'customers:edit' } as const;
/** The path's id; the service answers 404 for one that names nothing. */
const id = z.object({ id: z.string() });
/** A call on one customer: its id from the path and the body or query its service parses. */
const onCustomer = <S extends z.ZodObject>(schema: S) => asSent(schema.extend({ id: z.string() }));

/** A query-string or body flag: 1, true. */
const isOn = (v: unknown) => v === 1 || v === '1' || v === true || v === 'true';

/**
 * POST …/zone/auth creates a zone user, or with `resend` sends the invitation again to `userId`
 * or `email`: checked with the schema of whichever the handler calls.
 */
const ZZoneAuthPost = ZCreateZoneUser.extend({
  id: z.string(),
  resend: z.union([z.literal(1), z.literal('1'), z.boolean(), z.literal('true')]).optional(),
  userId: z.string().optional(),
});
const ZZoneAuthPostChecked = z.record(z.string(), z.unknown()).superRefine((v, zctx) => {
  const checked = isOn(v.resend)
    ? ZResendZoneUser.safeParse({ ...v, id: v.userId ?? undefined })
    : ZCreateZoneUser.safeParse(v);
  for (const issue of checked.error?.issues ?? [])
    zctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
});

/**
 * The customer calls of the catalogue (api-calls.md "Customers"). Fixed paths
 * (/customers/id/propose, /customers/articles, /customers/articlegroupdiscounts) come before
 * /customers/:id so the router never reads them as an id.
 */
export const customerCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/customers',
    access: READ,
    input: asSent(ZCustomerListQuery),
    summary:
      'Customers, one page: ?q= searches number, name and organisation number; status (active, inactive, all), type (private, company, all), potential (true, false), sort (name, customerId), dir, offset, limit ≤ 200. Answers {customers, totalCount}',
    handler: (ctx, input) => listCustomers(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/customers',
    // customers:create, or customers:create_potential for a potential customer: the service decides.
    access: { permission: 'signed-in' },
    input: wrappedIn('customer', ZCreateCustomer),
    summary:
      'Creates a customer {customer} with its addresses (one primary) and contacts; 409 DUPLICATE_CUSTOMER_ID on a taken number. Needs customers:create (customers:create_potential: potential customers only). Answers {id, customer}',
    async handler(ctx, input) {
      const customer = await createCustomer(ctx, input.customer);
      return { id: customer.id, customer };
    },
  }),
  defineCall({
    method: 'PUT',
    path: '/customers',
    access: EDIT,
    input: wrappedIn('customer', ZUpdateCustomer),
    summary:
      'Changes a customer {customer: {id, …fields}}: absent fields stay; `addresses` and `contacts`, when given, replace the lists (an address keeps its id when it sends it; exactly one primary, else 400 ERROR_ONE_PRIMARY_ADDRESS). Answers {customer}',
    async handler(ctx, input) {
      return { customer: await updateCustomer(ctx, input.customer) };
    },
  }),
  defineCall({
    method: 'GET',
    path: '/customers/id/propose',
    access: READ,
    input: asSent(ZProposeQuery),
    summary: 'Proposes the next free customer number of ?length digits (default 5). Answers {id}',
    handler: (ctx, input) => proposeCustomerNumber(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/customers/articlegroupdiscounts',
    access: READ,
    input: asSent(ZGroupDiscountList),
    summary: 'The discounts per article group of ?customerId (the customer’s uuid). Answers {discounts}',
    handler: (ctx, input) => listGroupDiscounts(ctx, input),
  }),
  ...(['POST', 'PUT'] as const).map((method) =>
    defineCall({
      method,
      path: '/customers/articlegroupdiscounts',
      access: EDIT,
      input: asSent(ZGroupDiscount),
      summary:
        'Sets a customer’s discount on an article group {customerId, articleGroupId, discountValue, discountType}: PERCENTAGE 0–100 or REGULAR (an amount ≥ 0); without discountType, discountValue is read as typed ("10%", "150"); NONE or an empty value removes it. Answers {discounts}',
      handler: (ctx, input) => setGroupDiscount(ctx, input),
    }),
  ),
  defineCall({
    method: 'DELETE',
    path: '/customers/articlegroupdiscounts',
    access: EDIT,
    input: asSent(ZGroupDiscountDelete),
    summary: 'Removes the discount of ?customerId on ?articleGroupId',
    async handler(ctx, input) {
      await deleteGroupDiscount(ctx, input);
      return {};
    },
  }),
  ...(['POST', 'PUT'] as const).map((method) =>
    defineCall({
      method,
      path: '/customers/articles',
      access: EDIT,
      input: asSent(ZCustomerArticlePrice),
      summary:
        'Sets the customer’s own price of an article {customerId (uuid), articleId (uuid), price}; the price lookup prefers it. Answers {articles}',
      handler: (ctx, input) => setCustomerArticlePrice(ctx, input),
    }),
  ),
  defineCall({
    method: 'GET',
    path: '/customers/:id',
    access: READ,
    input: id,
    summary:
      'One customer with its addresses (primary first in importance, flagged isPrimary) and contacts. Answers {customer}',
    async handler(ctx, input) {
      return { customer: await getCustomer(ctx, input.id) };
    },
  }),
  defineCall({
    method: 'DELETE',
    path: '/customers/:id',
    access: { permission: 'customers:delete' },
    input: id,
    summary:
      'Deletes a customer; 409 IN_USE when objects belong to it, 409 DELETE_NOT_POSSIBLE_SET_INACTIVE when something else still refers to it',
    async handler(ctx, input) {
      await deleteCustomer(ctx, input.id);
      return {};
    },
  }),
  defineCall({
    method: 'GET',
    path: '/customers/:id/id',
    access: READ,
    input: id,
    summary: 'The customer number. Answers {customerId}',
    handler: (ctx, input) => getCustomerNumber(ctx, input.id),
  }),
  defineCall({
    method: 'PUT',
    path: '/customers/:id/id',
    access: EDIT,
    input: onCustomer(ZCustomerNumber),
    summary: 'Changes the customer number {customerId}; 409 DUPLICATE_CUSTOMER_ID when taken',
    handler: (ctx, input) => changeCustomerNumber(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/customers/:id/conf',
    access: READ,
    input: id,
    summary:
      'The customer’s configuration JSON, carrying invoice.reverseVat and ignoreErpInvoices. Answers {configuration}',
    handler: (ctx, input) => getCustomerConfiguration(ctx, input.id),
  }),
  defineCall({
    method: 'PUT',
    path: '/customers/:id/conf',
    access: EDIT,
    input: onCustomer(ZConfiguration),
    summary:
      'Replaces the configuration {configuration}; invoice.reverseVat and ignoreErpInvoices in it set the customer’s reverse-VAT and ERP flags',
    handler: (ctx, input) => setCustomerConfiguration(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/customers/:id/contacts',
    access: READ,
    input: id,
    summary: 'The customer’s contacts {name, role, phone, email, customerName}. Answers {contacts}',
    handler: (ctx, input) => getCustomerContacts(ctx, input.id),
  }),
  defineCall({
    method: 'PUT',
    path: '/customers/:id/contacts',
    access: EDIT,
    input: onCustomer(ZCustomerContacts),
    summary: 'Replaces every contact of the customer {contacts: [{name, role, phone, email}]} in one transaction',
    handler: (ctx, input) => setCustomerContacts(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/customers/:id/history',
    access: READ,
    input: onCustomer(ZHistoryQuery),
    summary:
      'What happened to the customer, newest first, ?from (offset) &size (≤ 200). Answers {rows: [{userName, action, timestamp, data}], totalCount}',
    handler: (ctx, input) => getCustomerHistory(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/customers/:id/articles',
    access: READ,
    input: id,
    summary:
      'The articles with the customer’s own price {articleId, articleNumber, title, unit, price, listPrice}. Answers {articles}',
    handler: (ctx, input) => listCustomerArticles(ctx, input.id),
  }),
  defineCall({
    method: 'DELETE',
    path: '/customers/:id/articles',
    access: EDIT,
    input: onCustomer(ZCustomerArticleRemove),
    summary: 'Removes the customer’s own price of ?articleId',
    async handler(ctx, input) {
      await deleteCustomerArticlePrice(ctx, input.id, input);
      return {};
    },
  }),
  defineCall({
    method: 'GET',
    path: '/customers/:id/zone/auth',
    access: ZONE_USERS_ACCESS,
    input: id,
    summary:
      'The customer’s customer-zone users {id, email, name, status, invitedAt, inviteExpiresAt}. Answers {users}',
    handler: (ctx, input) => listZoneUsers(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/customers/:id/zone/auth',
    access: ZONE_USERS_ACCESS,
    input: asSent(ZZoneAuthPost, ZZoneAuthPostChecked),
    summary:
      'Creates a customer-zone user {customerId, email, name, status} with status STATUS_REGISTERED and e-mails a single-use invitation (7 days); 409 ZONE_USER_EMAIL_TAKEN. With resend=1 in the body ({resend: 1, userId or email}; the path’s id is the customer) sends a new invitation instead and sets STATUS_REGISTERED again. Answers {id, user}',
    handler: (ctx, input) =>
      isOn((input as { resend?: unknown }).resend)
        ? resendZoneInvitation(ctx, input.id, { ...input, id: (input as { userId?: unknown }).userId ?? undefined })
        : createZoneUser(ctx, input.id, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/customers/:id/zone/auth/:userId',
    access: ZONE_USERS_ACCESS,
    input: asSent(ZUpdateZoneUser.extend({ id: z.string(), userId: z.string() })),
    summary:
      'Changes a zone user’s name or e-mail {name, email}; a new address voids a pending invitation. Answers {user}',
    handler: (ctx, input) => updateZoneUser(ctx, input.id, input.userId, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/customers/:id/zone/auth/:userId',
    access: ZONE_USERS_ACCESS,
    input: z.object({ id: z.string(), userId: z.string() }),
    summary: 'Removes a customer-zone user',
    async handler(ctx, input) {
      await deleteZoneUser(ctx, input.id, input.userId);
      return {};
    },
  }),
  defineCall({
    method: 'GET',
    path: '/customers/:id/zone/config',
    access: ZONE_USERS_ACCESS,
    input: id,
    summary:
      'Whether the customer’s zone users may edit its contact details and its zone users themselves (decision 064) {selfService}',
    handler: (ctx, input) => getZoneSelfService(ctx, input.id),
  }),
  defineCall({
    method: 'PUT',
    path: '/customers/:id/zone/config',
    access: ZONE_USERS_ACCESS,
    input: onCustomer(ZZoneSelfService),
    summary: 'Lets the customer’s zone users edit its contact details and its zone users, or stops it {selfService}',
    handler: (ctx, input) => setZoneSelfService(ctx, input.id, input),
  }),
];
