import { z } from 'zod';
import { zRequiredString } from '~/core/errors/validation';
import { zOptionalMoney, zMoney } from '~/core/pricing';
import { zFormBool, zOptionalText } from '~/core/registers/fields';
import { ZListQuery, zIdentifier } from '~/core/registers/list-query';

/** Spec section 9: product types and article line types. */
export const PRODUCT_TYPES = ['service', 'stock', 'non_stock'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];
export const LINE_TYPES = ['regular', 'freetext'] as const;
export type LineType = (typeof LINE_TYPES)[number];
export const ARTICLE_STATUSES = ['active', 'inactive'] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];
/** Spec section 4: a new article gets this status. */
export const DEFAULT_ARTICLE_STATUS: ArticleStatus = 'active';

/** An article as the API and the UI see it (spec section 3). Money is decimal text ("1250.00"). */
export interface TArticle {
  id: string;
  /** The article number people type and print (spec: article ID); unique, no spaces. */
  articleId: string;
  title: string;
  description: string | null;
  status: ArticleStatus;
  unit: string | null;
  eNumber: string | null;
  articleGroupId: string | null;
  group: { id: string; title: string; displayName: string } | null;
  /** Sales price. */
  price: string;
  /** Only for people with articles:price; left out otherwise. */
  purchasePrice?: string;
  recommendedPrice: string | null;
  productType: ProductType;
  lineType: LineType;
  houseWork: boolean;
  security: boolean;
  stockAmount: string;
  stockLocation: string | null;
  ref: string | null;
  createdAt: string;
  updatedAt: string;
}

const zGroupId = () =>
  z
    .string({ error: 'ERROR_INVALID_VALUE' })
    .nullish()
    .transform((v) => (v ? v : null));

const fields = {
  articleId: zIdentifier(50),
  title: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  description: zOptionalText(4000),
  unit: zOptionalText(20),
  eNumber: z
    .string({ error: 'ERROR_INVALID_VALUE' })
    .trim()
    .max(30, 'ERROR_MAX_LENGTH')
    .regex(/^\S*$/, 'ERROR_NO_SPACES')
    .nullish()
    .transform((v) => (v ? v : null)),
  articleGroupId: zGroupId(),
  price: zMoney(),
  purchasePrice: zMoney(),
  recommendedPrice: zOptionalMoney(),
  productType: z.enum(PRODUCT_TYPES, { error: 'ERROR_INVALID_VALUE' }),
  lineType: z.enum(LINE_TYPES, { error: 'ERROR_INVALID_VALUE' }),
  houseWork: zFormBool(),
  security: zFormBool(),
  stockLocation: zOptionalText(100),
  ref: zOptionalText(100),
};

/** POST /articles {article}: the status is always the default (spec section 4). */
export const ZCreateArticle = z.object({
  ...fields,
  price: fields.price.default('0.00'),
  purchasePrice: fields.purchasePrice.optional(),
  recommendedPrice: fields.recommendedPrice.optional(),
  productType: fields.productType.default('non_stock'),
  lineType: fields.lineType.default('regular'),
  houseWork: fields.houseWork.default(false),
  security: fields.security.default(false),
});
export type TCreateArticle = z.infer<typeof ZCreateArticle>;

/** PUT /articles {article}: `id` and the fields to change; a field left out keeps its value. */
export const ZUpdateArticle = z.object({
  id: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  articleId: fields.articleId.optional(),
  title: fields.title.optional(),
  description: fields.description.optional(),
  unit: fields.unit.optional(),
  eNumber: fields.eNumber.optional(),
  articleGroupId: fields.articleGroupId.optional(),
  price: fields.price.optional(),
  purchasePrice: fields.purchasePrice.optional(),
  recommendedPrice: fields.recommendedPrice.optional(),
  productType: fields.productType.optional(),
  lineType: fields.lineType.optional(),
  houseWork: fields.houseWork.optional(),
  security: fields.security.optional(),
  stockLocation: fields.stockLocation.optional(),
  ref: fields.ref.optional(),
  status: z.enum(ARTICLE_STATUSES, { error: 'ERROR_INVALID_VALUE' }).optional(),
});
export type TUpdateArticle = z.infer<typeof ZUpdateArticle>;

/** Sort orders the list offers; each is served by an index. */
export const ARTICLE_SORTS = ['title', 'articleId'] as const;

/** GET /articles: text, group and status filters, a page, a sort. */
export const ZArticleQuery = ZListQuery.extend({
  groupId: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  status: z.enum([...ARTICLE_STATUSES, 'all'], { error: 'ERROR_INVALID_VALUE' }).default('active'),
  sort: z.enum(ARTICLE_SORTS, { error: 'ERROR_INVALID_VALUE' }).default('title'),
  dir: z.enum(['asc', 'desc'], { error: 'ERROR_INVALID_VALUE' }).default('asc'),
});
export type TArticleQuery = z.infer<typeof ZArticleQuery>;

/** POST /articles/{id}/stock. */
export const STOCK_MOVEMENT_TYPES = ['add', 'remove'] as const;
