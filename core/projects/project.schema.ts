import { z } from 'zod';
import { zOptionalPlainDate, zPlainDate } from '~/core/agreements/agreement-schema';
import { evenWithOtherErrors, zRequiredString, UUID_PATTERN } from '~/core/errors/validation';
import { zMoney, zOptionalMoney } from '~/core/pricing/schemas';
import { blankToNull, zOptionalText, zOptionalUuid } from '~/core/registers/fields';
import { zQueryFlag } from '~/core/registers/list-query';

/**
 * The project's shapes (spec section 3 "Project: id, title, name, status, start and end date,
 * responsible user, sales user, region, estimated hours and cost, fixed contract sum, external
 * URL, customers, suppliers, business objects"; the list state "activeType, sort, activeRegion,
 * responsibleUserId, searchValue, period, date"), one schema for the form and the REST API.
 * Messages are spec message keys.
 */

export const PROJECT_LIST_TYPES = ['ongoing', 'closed'] as const;
export const PROJECT_SORTS = ['alphanumeric', 'time', 'responsibleuser'] as const;
/** The list's period (spec section 9: quarter by default); `all` shows every project. */
export const PROJECT_PERIODS = ['month', 'quarter', 'half_year', 'year', 'all'] as const;
export type ProjectPeriod = (typeof PROJECT_PERIODS)[number];

const zUuid = () =>
  z.preprocess(blankToNull, z.string({ error: 'ERROR_REQUIRED_FIELD' }).regex(UUID_PATTERN, 'ERROR_INVALID_VALUE'));

const zUrl = () => zOptionalText(500).refine((v) => v === null || /^https?:\/\/[^\s]+$/i.test(v), 'ERROR_INVALID_URL');

const zHours = () =>
  z
    .preprocess(
      (v) =>
        v === '' || v == null
          ? null
          : typeof v === 'string'
            ? Number(v.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.'))
            : v,
      z
        .number({ error: 'ERROR_INVALID_VALUE' })
        .min(0, 'ERROR_INVALID_VALUE')
        .max(99_999_999, 'ERROR_INVALID_VALUE')
        .nullable(),
    )
    .transform((v) => (v === null ? null : Math.round(v * 100) / 100));

const projectFields = {
  title: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  name: zOptionalText(100),
  description: zOptionalText(4000),
  startDate: zOptionalPlainDate(),
  endDate: zOptionalPlainDate(),
  responsibleUserId: zOptionalUuid(),
  salesUserId: zOptionalUuid(),
  region: zOptionalText(100),
  estimatedHours: zHours(),
  estimatedCost: zOptionalMoney(),
  contractSum: z.preprocess((v) => (v === '' || v == null ? '0' : v), zMoney()),
  externalUrl: zUrl(),
};

/** The end date is not before the start date; checked even when other fields are wrong. */
function withDates<T extends z.ZodType<{ startDate: unknown; endDate: unknown }>>(schema: T) {
  return schema.refine(
    (v) => !(typeof v.startDate === 'string' && typeof v.endDate === 'string' && v.endDate < v.startDate),
    { message: 'ERROR_STOP_DATE_BEFORE_START_DATE', path: ['endDate'], when: evenWithOtherErrors },
  );
}

const zIdList = () => z.array(zUuid(), { error: 'ERROR_INVALID_VALUE' }).max(50, 'ERROR_MAX_LENGTH');

/** POST /projects {project}: the number is the next free one; customers, suppliers and objects may come along. */
export const ZCreateProject = z.object({
  project: withDates(
    z.object({
      ...projectFields,
      customerIds: zIdList().default([]),
      supplierIds: zIdList().default([]),
      businessObjectIds: zIdList().default([]),
    }),
  ),
});
export type TCreateProject = z.infer<typeof ZCreateProject>['project'];

/** PUT /projects {project}: every general field, naming the version it edited. */
export const ZUpdateProject = z.object({
  project: withDates(
    z.object({
      id: zUuid(),
      version: z.coerce.number({ error: 'ERROR_INVALID_VALUE' }).int(),
      ...projectFields,
    }),
  ),
});
export type TUpdateProject = z.infer<typeof ZUpdateProject>['project'];

/** PUT /projects/{id}/conf: the project's settings — its hourly price and cost, and whom it invoices. */
export const ZProjectConf = z.object({
  hourlyPrice: zOptionalMoney(),
  hourlyCost: zOptionalMoney(),
  invoiceCustomerId: zOptionalUuid(),
});

/** The tenant's project settings (spec section 9: the month day costs reset on). */
export const ZProjectSettings = z.object({
  costResetDay: z.coerce
    .number({ error: 'ERROR_INVALID_VALUE' })
    .int('ERROR_INVALID_VALUE')
    .min(1, 'ERROR_INVALID_VALUE')
    .max(31, 'ERROR_INVALID_VALUE'),
  hourlyPrice: z.preprocess((v) => (v === '' || v == null ? '0' : v), zMoney()),
  hourlyCost: z.preprocess((v) => (v === '' || v == null ? '0' : v), zMoney()),
  extraWorkLinkDays: z.coerce
    .number({ error: 'ERROR_INVALID_VALUE' })
    .int('ERROR_INVALID_VALUE')
    .min(1, 'ERROR_INVALID_VALUE')
    .max(90, 'ERROR_INVALID_VALUE'),
});

export const ZProjectList = z.object({
  activeType: z.enum(PROJECT_LIST_TYPES).catch('ongoing'),
  sort: z.enum(PROJECT_SORTS).catch('alphanumeric'),
  desc: zQueryFlag(false),
  activeRegion: zOptionalText(100).catch(null),
  responsibleUserId: zOptionalUuid().catch(null),
  searchValue: zOptionalText(200).catch(null),
  period: z.enum(PROJECT_PERIODS).catch('quarter'),
  date: zPlainDate().nullish().catch(null),
  offset: z.coerce.number().int().min(0).catch(0),
  limit: z.coerce.number().int().min(1).max(200).catch(50),
});
export type TProjectList = z.infer<typeof ZProjectList>;

/** GET /projects/q?q: the text a project's number, title, name or region contains (none: any). */
export const ZProjectSearch = z.object({ q: z.string().trim().max(200, 'ERROR_MAX_LENGTH').optional() });

/** A customer, supplier or object added to or taken off a project. */
export const ZProjectLink = z.object({
  customerId: zUuid().optional(),
  supplierId: zUuid().optional(),
  businessObjectId: zUuid().optional(),
  boId: zUuid().optional(),
});
