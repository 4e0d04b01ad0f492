import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { documentCompany } from '~/core/documents/company';
import { pngSize } from '~/core/documents/docx';
import { DOCX_TYPE, PDF_TYPE, safeFilename, type DocumentFile } from '~/core/documents/file';
import { formatQuantity } from '~/core/documents/format';
import { documentTranslator } from '~/core/documents/i18n';
import { printDocument } from '~/core/documents/mail';
import { inlineLogo } from '~/core/documents/company';
import { thenAfterCommit, type AfterCommitWork } from '~/core/db/with-tenant';
import { renderDocument } from '~/core/documents/render';
import { securityFormToDocx } from '~/core/documents/security-form-docx';
import type {
  DocumentFact,
  SecurityFormDocumentModel,
  SecurityFormPage,
} from '~/core/documents/security-form-document';
import { parseInput } from '~/core/errors/validation';
import { formattingLocale, langFromKey, type Lang } from '~/core/i18n/languages';
import { formatDate } from '~/core/i18n/number-format';
import { requireAccess } from '~/core/permissions/access';
import { requireBo, type BoRef } from './require-bo';
import { SECURITY_FORMS, SECURITY_FORM_TYPES, type FormField, type SecurityFormType } from './security-forms';

/*
 * POST /bo/{id}/sec/form/export {type, signature, excludedPages}: the object's security
 * documentation as a PDF (templates/security-form.hbs through the warm browser) or a Word file,
 * built from one model (decision 011). Its pages are the object (with customer and contacts) and
 * each security system whose form has been filled in, in the order of the forms; `excludedPages`
 * leaves pages out by name. The signature, drawn (a PNG data URL) or typed (a name), is printed
 * at the end; without one, a line is left to sign by hand. Access codes are never printed.
 */

export const SECURITY_EXPORT_TYPES = ['docx', 'pdf'] as const;
/** The pages of the document, in order: `object`, then one per security system. */
export const SECURITY_EXPORT_PAGES = ['object', ...SECURITY_FORM_TYPES] as const;
export type SecurityExportPage = (typeof SECURITY_EXPORT_PAGES)[number];

/** A drawn signature is a PNG data URL; this many characters (~500 kB of image) at most. */
export const MAX_SIGNATURE_DATA_URL = 700_000;
const MAX_SIGNATURE_TEXT = 200;
const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/;

const required = (iss: { input: unknown }) =>
  iss.input === undefined ? 'ERROR_REQUIRED_FIELD' : 'ERROR_INVALID_VALUE';

/** The signature as sent: a PNG data URL (drawn) or a name (typed); empty or absent: none. */
const zSignature = z.preprocess(
  (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
  z
    .string({ error: 'ERROR_INVALID_VALUE' })
    .max(MAX_SIGNATURE_DATA_URL, 'ERROR_MAX_LENGTH')
    .transform((v, ctx) => {
      if (v.startsWith('data:')) {
        const match = PNG_DATA_URL.exec(v);
        const size = match ? pngSize(Buffer.from(match[1]!, 'base64')) : null;
        if (!size || !size.width || !size.height) {
          ctx.addIssue({ code: 'custom', message: 'ERROR_INVALID_VALUE' });
          return z.NEVER;
        }
        return { image: v, text: null };
      }
      const text = v.replace(/\s+/g, ' ').trim();
      if (text.length > MAX_SIGNATURE_TEXT) {
        ctx.addIssue({ code: 'custom', message: 'ERROR_MAX_LENGTH' });
        return z.NEVER;
      }
      return { image: null, text };
    })
    .optional(),
);

export const ZSecurityFormExport = z.object({
  type: z.enum(SECURITY_EXPORT_TYPES, { error: required }),
  signature: zSignature,
  excludedPages: z
    .array(z.enum(SECURITY_EXPORT_PAGES, { error: 'ERROR_INVALID_VALUE' }), { error: 'ERROR_INVALID_VALUE' })
    .max(20, 'ERROR_MAX_LENGTH')
    .optional()
    .transform((v) => v ?? []),
});
export type TSecurityFormExport = z.infer<typeof ZSecurityFormExport>;

type Row = Record<string, unknown>;
/** Exporting reads the forms: whoever may read them may take them along. */
const SEC_READ = { permission: 'security:bo_document:read', module: 'security' } as const;
const str = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));
const iso = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v));

/** A form value in words: yes/no, a choice's label, a date in the tenant's format, a number with a decimal comma. */
function printedValue(
  field: FormField,
  value: unknown,
  words: { doc: (k: string) => string; forms: (k: string) => string },
  dateFormat: SecurityFormDocumentModel['dateFormat'],
): string {
  switch (field.kind) {
    case 'boolean':
      return words.doc(value === true ? 'value.yes' : 'value.no');
    case 'select':
      return words.forms(`sec.option.${String(value)}`);
    case 'date':
      return formatDate(String(value), dateFormat);
    case 'number':
      return formatQuantity(String(value));
    default:
      return String(value);
  }
}

/**
 * Everything the export prints, read in three statements (the object with model and customer, its
 * contacts, its security forms with who saved them). Needs security:bo_document:read and the
 * security module; another tenant's object is a 404.
 */
export async function buildSecurityFormDocumentModel(
  ctx: Ctx,
  id: unknown,
  input: Pick<TSecurityFormExport, 'signature' | 'excludedPages'>,
): Promise<SecurityFormDocumentModel> {
  requireAccess(ctx.auth, SEC_READ);
  return build(ctx, await requireBo(ctx, id), input);
}

async function build(
  ctx: Ctx,
  bo: BoRef,
  input: Pick<TSecurityFormExport, 'signature' | 'excludedPages'>,
): Promise<SecurityFormDocumentModel> {
  // One after the other: the statements share the unit of work's connection anyway.
  const object = (await ctx
    .trx('business_objects as b')
    .leftJoin('models as m', 'm.id', 'b.model_id')
    .leftJoin('customers as c', 'c.id', 'b.customer_id')
    .where('b.id', bo.id)
    .first(
      'b.serial_code',
      'b.location',
      'b.location2',
      'b.location3',
      'b.description',
      'm.name as model_name',
      'c.name as customer_name',
      'c.customer_id as customer_number',
      'c.invoice_language',
    )) as Row;
  const contacts = (await ctx
    .trx('business_object_contacts')
    .where({ business_object_id: bo.id })
    .orderBy([{ column: 'sort_order' }, { column: 'id' }])
    .select('name', 'role', 'phone', 'email')) as Row[];
  const forms = (await ctx
    .trx('business_object_forms as f')
    .leftJoin('users as u', 'u.id', 'f.updated_by')
    .where('f.business_object_id', bo.id)
    .whereIn('f.type', [...SECURITY_FORM_TYPES])
    .select('f.type', 'f.data', 'f.updated_at', 'u.name as updated_by')) as Row[];

  const config = ctx.tenant.config;
  const lang: Lang = langFromKey(str(object.invoice_language), langFromKey(config.languageKey));
  const doc = documentTranslator(lang);
  const formsT = documentTranslator(lang, 'objects');
  const excluded = new Set<string>(input.excludedPages);
  const byType = new Map(forms.map((f) => [f.type as SecurityFormType, f]));

  const pages: SecurityFormPage[] = [];
  for (const type of SECURITY_FORM_TYPES) {
    const form = byType.get(type);
    const data = (form?.data ?? {}) as Record<string, unknown>;
    if (excluded.has(type) || !form || Object.keys(data).length === 0) continue;
    const sections = SECURITY_FORMS[type]
      .map((section) => ({
        title: formsT(`sec.section.${section.key}`),
        facts: section.fields
          .filter((f) => data[f.key] !== undefined && data[f.key] !== null && data[f.key] !== '')
          .map((f): DocumentFact => ({
            label: formsT(`sec.${type}.${f.key}`),
            value: printedValue(f, data[f.key], { doc, forms: formsT }, config.dateFormat),
          })),
      }))
      .filter((s) => s.facts.length > 0);
    pages.push({
      key: type,
      title: formsT(`sec.type.${type}`),
      updatedAt: iso(form.updated_at),
      updatedBy: str(form.updated_by),
      sections,
    });
  }

  const serial = String(object.serial_code);
  const model = str(object.model_name);
  const location = [object.location, object.location2, object.location3].map(str).filter(Boolean).join('\n');
  const objectFacts: DocumentFact[] = [
    { label: doc('field.serial'), value: serial },
    { label: doc('field.model'), value: model ?? '' },
    { label: doc('field.customer'), value: str(object.customer_name) ?? '' },
    { label: doc('field.customerNumber'), value: str(object.customer_number) ?? '' },
    { label: doc('field.location'), value: location },
    { label: doc('field.description'), value: str(object.description) ?? '' },
  ].filter((f) => f.value !== '');

  return {
    lang,
    locale: formattingLocale(lang),
    dateFormat: config.dateFormat,
    country: config.country,
    printedAt: ctx.now.toISOString(),
    company: await documentCompany(ctx),
    object: { serial, model },
    objectPage: excluded.has('object')
      ? null
      : {
          facts: objectFacts,
          contacts: contacts.map((c) => ({
            name: String(c.name),
            details: [c.role, c.phone, c.email].map(str).filter(Boolean).join(', '),
          })),
        },
    pages,
    signature: { image: input.signature?.image ?? null, text: input.signature?.text ?? null },
  };
}

/** The document's HTML (what the PDF prints); exported for tests and previews. */
export function securityFormHtml(model: SecurityFormDocumentModel): string {
  return renderDocument('security-form', model);
}

/** POST /bo/{id}/sec/form/export {type: 'docx' | 'pdf', signature, excludedPages}: the file. */
export async function exportSecurityForm(ctx: Ctx, id: unknown, raw: unknown): Promise<AfterCommitWork<DocumentFile>> {
  requireAccess(ctx.auth, SEC_READ);
  // The object first: another tenant's id is a 404 whatever the body says.
  const bo = await requireBo(ctx, id);
  const input = parseInput(ZSecurityFormExport, raw);
  const model = await build(ctx, bo, input);
  // printed once the unit of work committed (decision 049)
  return thenAfterCommit(async () =>
    input.type === 'pdf'
      ? {
          filename: safeFilename('security-form', model.object.serial, 'pdf'),
          contentType: PDF_TYPE,
          body: await printDocument('security-form', model),
        }
      : {
          filename: safeFilename('security-form', model.object.serial, 'docx'),
          contentType: DOCX_TYPE,
          body: await securityFormToDocx(await inlineLogo(model)),
        },
  );
}
