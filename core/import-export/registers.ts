import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';
import { createArticle, listArticles } from '~/core/articles/article.service';
import { createBusinessObject, listBusinessObjects } from '~/core/business-objects/business-object.service';
import { createCustomer, listCustomers } from '~/core/customers/customer.service';
import type { Register, RegisterIo } from './register-io';

/** A yes/no cell: ja/yes/true/1/x or nej/no/false/0; empty leaves the default. */
function flag(v: string | undefined, field: string): boolean | undefined {
  const s = (v ?? '').trim().toLowerCase();
  if (s === '') return undefined;
  if (['1', 'true', 'yes', 'ja', 'jah', 'jā', 'да', 'x'].includes(s)) return true;
  if (['0', 'false', 'no', 'nej', 'ei', 'nē', 'нет'].includes(s)) return false;
  throw new AppError('VALIDATION_FAILED', 400, { fields: { [field]: ['ERROR_INVALID_VALUE'] } });
}

/** Cells as an input object: empty cells are left out, so the register's defaults apply. */
function pick(cells: Record<string, string>, columns: readonly string[]): Record<string, string> {
  return Object.fromEntries(columns.filter((c) => (cells[c] ?? '') !== '').map((c) => [c, cells[c]!]));
}

/** A reference typed as the other register's number (model code, customer number), as its id. */
async function lookup(ctx: Ctx, table: string, column: string, value: string | undefined, field: string) {
  if (!value) return undefined;
  const row = (await ctx.trx(table).whereRaw('lower(??) = lower(?)', [column, value]).first('id')) as
    { id: string } | undefined;
  if (!row) throw new AppError('VALIDATION_FAILED', 400, { fields: { [field]: ['ERROR_UNKNOWN_REFERENCE'] } });
  return row.id;
}

const CUSTOMER_TEXT = [
  'customerId',
  'name',
  'type',
  'status',
  'organizationalNumber',
  'vatNumber',
  'personId',
  'phone',
  'email',
  'paymentTermDays',
  'bgAccount',
  'iban',
  'bic',
  'defaultDiscount',
  'invoiceLanguage',
  'invoiceEmail',
  'broadcastEmail',
  'notes',
] as const;

const customers: RegisterIo = {
  register: 'customers',
  createPermission: 'customers:create',
  readPermission: 'customers:read',
  columns: [...CUSTOMER_TEXT, 'potential', 'reverseVat', 'sendToErp', 'street', 'postIndex', 'city'],
  exportColumns: [
    'customerId',
    'name',
    'type',
    'status',
    'potential',
    'organizationalNumber',
    'phone',
    'email',
    'address',
    'city',
  ],
  required: ['name'],
  async create(ctx, cells) {
    const address = pick(cells, ['street', 'postIndex', 'city']);
    try {
      await createCustomer(ctx, {
        ...pick(cells, CUSTOMER_TEXT),
        potential: flag(cells.potential, 'potential'),
        reverseVat: flag(cells.reverseVat, 'reverseVat'),
        sendToErp: flag(cells.sendToErp, 'sendToErp'),
        addresses: Object.keys(address).length ? [{ ...address, isPrimary: true }] : [],
      });
    } catch (e) {
      // The file's street, postIndex and city are the customer's first address: name them as the file does.
      if (e instanceof AppError && e.details?.fields)
        e.details.fields = Object.fromEntries(
          Object.entries(e.details.fields).map(([k, v]) => [k.replace(/^addresses\.0\./, ''), v]),
        );
      throw e;
    }
  },
  async exportPage(ctx, filters, offset, limit) {
    const { customers: rows, totalCount } = await listCustomers(ctx, { ...filters, offset, limit });
    return { rows: rows.map((r) => ({ ...r })), totalCount };
  },
};

const objects: RegisterIo = {
  register: 'objects',
  createPermission: 'bo:edit',
  readPermission: 'bo:read',
  columns: [
    'serialCode',
    'status',
    'model',
    'customerNumber',
    'location',
    'location2',
    'location3',
    'description',
    'invoiceMarking',
  ],
  exportColumns: [
    'serialCode',
    'status',
    'model',
    'modelName',
    'customerNumber',
    'customerName',
    'location',
    'location2',
    'location3',
    'description',
    'invoiceMarking',
    'qrRef',
  ],
  required: ['serialCode'],
  async create(ctx, cells) {
    await createBusinessObject(ctx, {
      bo: {
        ...pick(cells, ['serialCode', 'status', 'location', 'location2', 'location3', 'description', 'invoiceMarking']),
        modelId: await lookup(ctx, 'models', 'code', cells.model, 'model'),
        customerId: await lookup(ctx, 'customers', 'customer_id', cells.customerNumber, 'customerNumber'),
      },
    });
  },
  async exportPage(ctx, filters, offset, limit) {
    const { bos, totalCount } = await listBusinessObjects(ctx, { ...filters, offset, limit });
    return { rows: bos.map((b) => ({ ...b, model: b.model?.code ?? null })), totalCount };
  },
};

const ARTICLE_TEXT = [
  'articleId',
  'title',
  'description',
  'unit',
  'eNumber',
  'price',
  'purchasePrice',
  'recommendedPrice',
  'productType',
  'lineType',
  'stockLocation',
] as const;

const articles: RegisterIo = {
  register: 'articles',
  createPermission: 'articles:create',
  readPermission: 'articles:read',
  columns: [...ARTICLE_TEXT, 'group', 'houseWork', 'security'],
  exportColumns: [...ARTICLE_TEXT, 'group', 'houseWork', 'security', 'status', 'stockAmount'],
  required: ['articleId', 'title'],
  async create(ctx, cells) {
    await createArticle(ctx, {
      ...pick(cells, ARTICLE_TEXT),
      articleGroupId: await lookup(ctx, 'article_groups', 'title', cells.group, 'group'),
      houseWork: flag(cells.houseWork, 'houseWork'),
      security: flag(cells.security, 'security'),
    });
  },
  async exportPage(ctx, filters, offset, limit) {
    const { articles: rows, totalCount } = await listArticles(ctx, { ...filters, offset, limit });
    return { rows: rows.map((a) => ({ ...a, group: a.group?.title ?? null })), totalCount };
  },
};

/** The registers that can be imported and exported, each with its adapter. */
export const REGISTER_IO: Record<Register, RegisterIo> = { customers, objects, articles };
