import type { DocumentCompany } from '~/core/documents/work-order-document';
import type { DateFormat } from '~/core/i18n/number-format';
import type { Lang } from '~/core/i18n/languages';

/** A photo as printed: a thumbnail, inlined as a data URL once the unit of work has committed. */
export interface DocumentPhoto {
  fileId: string;
  name: string;
  /** Where its thumbnail (or, without one, the image) is kept; read after the commit. */
  storageKey: string;
  contentType: string;
  /** The data URL, filled in outside the transaction (`inlinePhotos`); null until then or when unreadable. */
  src: string | null;
}

/** One field of a page as printed, its value already in words. */
export interface DocumentReportRow {
  label: string;
  isHeading: boolean;
  /** The value in words ("Yes", "162,5 N", a date); empty when not filled in. */
  value: string;
  /** Out of its limits, or answered "no": marked in the document. */
  flagged: boolean;
  /** What the mark says ("Outside 0–150 N", "Answered no"). */
  flagText: string | null;
  photos: DocumentPhoto[];
}

/**
 * Everything a service report's document prints (POST /wo/{id}/servicereport/{reportId}/generate):
 * the company header, the order, the object (and door automatic), every page of the template with
 * what was filled in, out-of-range values and "no" answers marked, photos as thumbnails, and the
 * signatures. Words are resolved to the document language when the model is built, so the PDF and
 * the Word document print the same.
 */
export interface ServiceReportDocumentModel {
  lang: Lang;
  locale: string;
  dateFormat: DateFormat;
  country: string;
  printedAt: string;
  company: DocumentCompany;
  title: string;
  version: number;
  workOrder: { number: string; title: string };
  facts: { label: string; value: string }[];
  pages: { title: string; rows: DocumentReportRow[] }[];
  flaggedCount: number;
  signature: {
    name: string;
    image: string | null;
    signedAt: string;
    technicianName: string | null;
  };
}
