import type { SecurityFormType } from '~/core/business-objects/security-forms';
import type { DateFormat } from '~/core/i18n/number-format';
import type { Lang } from '~/core/i18n/languages';
import type { DocumentCompany } from './work-order-document';

/** One label and its value as printed (the value already in words: "Yes", "Grade 2", a date). */
export interface DocumentFact {
  label: string;
  value: string;
}

/** One security system's form, one page of the document, with only the fields filled in. */
export interface SecurityFormPage {
  key: SecurityFormType;
  title: string;
  /** When and by whom the form was last saved (ISO instant; name). */
  updatedAt: string | null;
  updatedBy: string | null;
  sections: { title: string; facts: DocumentFact[] }[];
}

/**
 * Everything the security-form export prints (POST /bo/{id}/sec/form/export): the object, its
 * customer and contacts (the `object` page), each security system's filled form (one page each)
 * and the signature. Labels and choices are resolved to the document language when the model is
 * built, so the HTML template and the Word builder print the same words. Access codes are never
 * part of it.
 */
export interface SecurityFormDocumentModel {
  lang: Lang;
  /** BCP 47 locale of the document language. */
  locale: string;
  dateFormat: DateFormat;
  country: string;
  printedAt: string;
  company: DocumentCompany;
  /** The object the document is about (named in the title whatever pages are left out). */
  object: { serial: string; model: string | null };
  /** The object page: null when it was left out. */
  objectPage: {
    facts: DocumentFact[];
    contacts: { name: string; details: string }[];
  } | null;
  pages: SecurityFormPage[];
  signature: {
    /** A PNG data: URL drawn by the signer, or null. */
    image: string | null;
    /** A typed signature (the signer's name), or null. */
    text: string | null;
  };
}
