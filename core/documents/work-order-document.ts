import type { DateFormat } from '~/core/i18n/number-format';
import type { Lang } from '~/core/i18n/languages';

/** The company a document comes from (instance configuration; the name defaults to the tenant's). */
export interface DocumentCompany {
  name: string;
  companyNr: string | null;
  address: string | null;
  postIndex: string | null;
  city: string | null;
  email: string | null;
  phone: string | null;
  vatRegistrationNr: string | null;
  bgAccount: string | null;
  /** The logo's address (settings), inlined as `logo` when the document is printed. */
  logoUrl: string | null;
  /**
   * The logo as a data: URL, or null (none set, or not reachable in time). Fetched only when the
   * document is printed, after the unit of work (`inlineLogo`): never while a transaction is open.
   */
  logo: string | null;
}

export interface DocumentArticleRow {
  title: string;
  description: string | null;
  /** Decimal text ("1.500"), formatted by the renderer. */
  amount: string;
  unit: string | null;
  /** Sales price per unit, decimal text. Purchase prices are never printed. */
  price: string;
  /** The discount as printed ("10 %", "50,00"), empty for none. */
  discount: string;
  total: string;
}

export interface DocumentTimeRow {
  person: string;
  /** YYYY-MM-DD */
  date: string;
  workMinutes: number;
  travelMinutes: number;
  /** Decimal text, km. */
  distanceKm: string;
}

/** One item of a filled checklist: a tick (✓/✗), a text or a number (decimal text). */
export interface DocumentChecklistItem {
  label: string;
  type: 'check' | 'text' | 'number';
  /** The type as flags, for the template's `{{#if}}`. */
  isCheck: boolean;
  isNumber: boolean;
  /** For a check item: ticked or not (not filled in counts as not ticked). */
  checked: boolean;
  /** For text and number items: the value, or null when not filled in. */
  value: string | null;
}

/** A checklist filled in on the order, its items in the template's order. */
export interface DocumentChecklist {
  title: string;
  items: DocumentChecklistItem[];
}

/**
 * Everything a work-order document prints, in raw values (ISO dates, decimal text) that the HTML
 * template and the Word builder format the same way. Internal info is never part of it.
 */
export interface WorkOrderDocumentModel {
  lang: Lang;
  /** BCP 47 locale of the document language. */
  locale: string;
  dateFormat: DateFormat;
  country: string;
  currency: string;
  printedAt: string;
  company: DocumentCompany;
  workOrder: {
    number: string;
    title: string;
    status: string;
    workType: string;
    /** i18n key of the priority, e.g. "priority.high". */
    priorityKey: string;
    intakeTs: string;
    plannedStart: string | null;
    plannedEnd: string | null;
    closedAt: string | null;
    description: string | null;
    summary: string | null;
    customerOrderNumber: string | null;
    invoiceMarking: string | null;
    contactName: string | null;
    contactEmail: string | null;
    contactPhone: string | null;
    onSiteContactName: string | null;
    onSiteContactPhone: string | null;
    street: string | null;
    postIndex: string | null;
    city: string | null;
    assignees: string[];
  };
  customer: {
    name: string;
    number: string | null;
    street: string | null;
    postIndex: string | null;
    city: string | null;
  } | null;
  object: { serial: string; model: string | null } | null;
  articles: DocumentArticleRow[];
  articlesTotal: string;
  time: DocumentTimeRow[];
  timeTotals: { workMinutes: number; travelMinutes: number; distanceKm: string };
  /** The checklists filled in on the order (templates nobody filled are left out). */
  checklists: DocumentChecklist[];
  /** The customer's signature of the order (module `workorder_signature`), or null. */
  signature: {
    name: string;
    /** The drawing, a PNG data URL; null when the signer gave the name only. */
    image: string | null;
    signedAt: string;
    technicianName: string | null;
  } | null;
}

/** "722 14 Västerås" from its parts; empty parts left out. */
export function postalLine(postIndex: string | null, city: string | null): string {
  return [postIndex, city].filter(Boolean).join(' ');
}
