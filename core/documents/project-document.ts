import type { DateFormat } from '~/core/i18n/number-format';
import type { Lang } from '~/core/i18n/languages';
import type { DocumentCompany } from './work-order-document';

/**
 * Everything the project report prints (POST /projects/{id}/pdf), in raw values (ISO dates,
 * decimal text, minutes) that templates/project.hbs formats. It is an internal report: costs are
 * purchase values, so it goes to staff with projects:read, not to customers.
 */
export interface ProjectDocumentModel {
  lang: Lang;
  /** BCP 47 locale of the document language. */
  locale: string;
  dateFormat: DateFormat;
  country: string;
  currency: string;
  printedAt: string;
  company: DocumentCompany;
  project: {
    number: string;
    title: string;
    name: string | null;
    /** i18n key of the status: project.status.ongoing / project.status.closed. */
    statusKey: string;
    startDate: string | null;
    endDate: string | null;
    responsible: string | null;
    salesUser: string | null;
    region: string | null;
    contractSum: string;
    description: string | null;
  };
  customers: { name: string; number: string | null }[];
  costs: {
    hourlyCost: string;
    workMinutes: number;
    travelMinutes: number;
    minutes: number;
    timeCost: string;
    articleCount: number;
    articleCost: string;
    total: string;
    ongoingSince: string;
    ongoingCost: string;
    /** Decimal text (hours), or null without an estimate. */
    estimatedHours: string | null;
    estimatedCost: string | null;
    differenceHours: string | null;
    differenceCost: string | null;
  };
  workOrders: { number: string; title: string; status: string; closed: boolean; minutes: number }[];
  /** More orders than printed (the list stops at PROJECT_DOCUMENT_ROW_LIMIT). */
  workOrdersTruncated: boolean;
  /** Whether the time rows and article rows are printed. */
  details: boolean;
  time: {
    date: string;
    person: string;
    workOrder: string;
    workMinutes: number;
    travelMinutes: number;
    comment: string | null;
  }[];
  timeTruncated: boolean;
  articles: {
    date: string;
    workOrder: string;
    title: string;
    /** Decimal text. */
    amount: string;
    unit: string | null;
    /** Purchase value of the row (amount × purchase price). */
    cost: string;
    /** Sales value of the row. */
    total: string;
  }[];
  articlesTruncated: boolean;
  /** Sums over every article row of the project (also those not printed). */
  articleTotals: { cost: string; total: string };
  /** How many rows a list prints at most, for the "first N rows" note. */
  rowLimit: number;
}
