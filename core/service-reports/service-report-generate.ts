import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { thenAfterCommit, withTenant, type AfterCommitWork } from '~/core/db/with-tenant';
import { documentCompany, inlineLogo } from '~/core/documents/company';
import { DOCX_TYPE, PDF_TYPE, safeFilename, type DocumentFile } from '~/core/documents/file';
import { formatQuantity } from '~/core/documents/format';
import { documentTranslator, type DocumentT } from '~/core/documents/i18n';
import { printDocument, promiseDocumentMail } from '~/core/documents/mail';
import { renderDocument } from '~/core/documents/render';
import { AppError, notFound } from '~/core/errors/app-error';
import { EMAIL_PATTERN, isUuid, parseInput } from '~/core/errors/validation';
import { publishByTenantSetting } from '~/core/files/files.service';
import { getFileStore, deleteStored } from '~/core/files/store';
import { recordHistory } from '~/core/history/history';
import { formatDate } from '~/core/i18n/number-format';
import { formattingLocale, langFromKey, type Lang } from '~/core/i18n/languages';
import { requireAccess } from '~/core/permissions/access';
import { loadWorkOrder, WO_ENTITY } from '~/core/work-orders/work-order-read';
import { serviceReportToDocx } from './service-report-docx';
import type { DocumentPhoto, DocumentReportRow, ServiceReportDocumentModel } from './service-report-document';
import { publishesToCustomerZone } from './service-report-settings';
import { SERVICE_REPORT_ACCESS } from './service-report.service';
import {
  isFlagged,
  type FieldValue,
  type ReportData,
  type ReportField,
  type ReportPage,
  type SignatureValue,
} from './service-report.types';

/*
 * A service report's document (issue 32 item 4): POST /wo/{id}/servicereport/{reportId}/generate
 * prints the signed report as a PDF in the tenant's look and stores it as a file on the order;
 * with `email=true` it also mails the PDF to the report's e-mail targets (or, when it has none, the
 * order's contact and the customer's e-mail). Decision 049: the unit of work reads the report and
 * builds the model; after it commits, the photos' thumbnails are read from the file store, the PDF
 * is printed on the warm browser and stored; then a second unit of work records the file on the
 * order and the report, publishes it to the order's customer when Settings → Service reports says
 * so (publishByTenantSetting), and, when asked, writes the mail's outbox row (decision 041), so the
 * mail leaves only for a file that was recorded. Printing twice leaves two files: each is a
 * version of the document the office may keep.
 */

export const ZGenerateReport = z.object({
  id: z.string(),
  reportId: z.string(),
  email: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])], { error: 'ERROR_INVALID_VALUE' })
    .optional()
    .transform((v) => v === true || v === 'true' || v === '1'),
  emailTargets: z
    .array(z.string().trim().regex(EMAIL_PATTERN, 'ERROR_INVALID_EMAIL'), { error: 'ERROR_INVALID_VALUE' })
    .max(10, 'ERROR_MAX_LENGTH')
    .optional(),
});

type Row = Record<string, unknown>;
const str = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));
const json = <T>(v: unknown, fallback: T): T =>
  v === null || v === undefined ? fallback : ((typeof v === 'string' ? JSON.parse(v) : v) as T);

/** A limit as printed: "12–13,9 V", "≤ 150 N", "≥ 1 s". */
function limitText(f: ReportField): string {
  const unit = f.unit ? ` ${f.unit}` : '';
  const n = (v: number) => formatQuantity(String(v));
  if (f.min !== null && f.max !== null) return `${n(f.min)}–${n(f.max)}${unit}`;
  if (f.max !== null) return `≤ ${n(f.max)}${unit}`;
  return `≥ ${n(f.min!)}${unit}`;
}

function valueText(
  f: ReportField,
  v: FieldValue | undefined,
  t: DocumentT,
  model: { dateFormat: ServiceReportDocumentModel['dateFormat'] },
) {
  if (v === undefined) return '';
  switch (f.kind) {
    case 'yesno':
      return t(`sr.answer.${String(v)}`);
    case 'number':
    case 'measure':
      return `${formatQuantity(String(v))}${f.unit ? ` ${f.unit}` : ''}`;
    case 'date':
      return formatDate(String(v), model.dateFormat);
    case 'signature':
      return (v as SignatureValue).name;
    case 'photo':
      return '';
    default:
      return String(v);
  }
}

interface Built {
  model: ServiceReportDocumentModel;
  workOrderId: string;
  reportId: string;
  version: number;
  defaultTargets: string[];
}

/** Reads the signed report and everything its document prints; the photos' bytes come later. */
async function buildModel(ctx: Ctx, workOrderId: unknown, reportId: unknown): Promise<Built> {
  const wo = await loadWorkOrder(ctx, workOrderId);
  if (wo.deletedAt || !isUuid(reportId)) throw notFound();
  const r = (await ctx
    .trx('service_reports as r')
    .join('service_report_templates as t', 't.id', 'r.template_id')
    .leftJoin('business_objects as b', 'b.id', 'r.business_object_id')
    .leftJoin('customers as c', 'c.id', 'r.customer_id')
    .leftJoin('door_automatics as d', 'd.id', 'r.door_automatic_id')
    .where({ 'r.id': reportId, 'r.work_order_id': wo.id })
    .first(
      'r.id',
      'r.data',
      'r.version',
      'r.signed_at',
      'r.signed_name',
      'r.signature',
      'r.technician_name',
      'r.email_targets',
      't.title',
      't.pages',
      'b.serial_code',
      'b.location as object_location',
      'c.name as customer_name',
      'c.email as customer_email',
      'c.invoice_language',
      'd.number as door_number',
      'd.title as door_title',
      'd.location as door_location',
    )) as Row | undefined;
  if (!r) throw notFound();
  if (!r.signed_at) throw new AppError('SERVICE_REPORT_NOT_SIGNED', 409);

  const config = ctx.tenant.config;
  const lang: Lang = langFromKey(str(r.invoice_language), langFromKey(config.languageKey));
  const t = documentTranslator(lang);
  const pages = json<ReportPage[]>(r.pages, []);
  const data = json<ReportData>(r.data, {});
  const photoIds = [
    ...new Set(
      pages.flatMap((p) =>
        p.fields.filter((f) => f.kind === 'photo').flatMap((f) => (data[p.id]?.[f.id] as string[] | undefined) ?? []),
      ),
    ),
  ];
  const files = photoIds.length
    ? ((await ctx
        .trx('files')
        .where({ owner_type: 'wo', owner_id: wo.id, kind: 'file' })
        .whereIn('id', photoIds)
        .select('id', 'name', 'storage_key', 'thumb_key', 'content_type')) as Row[])
    : [];
  const photoOf = new Map(
    files.map((f): [string, DocumentPhoto] => [
      f.id as string,
      {
        fileId: f.id as string,
        name: f.name as string,
        storageKey: (f.thumb_key ?? f.storage_key) as string,
        contentType: f.thumb_key ? 'image/webp' : String(f.content_type ?? 'image/jpeg'),
        src: null,
      },
    ]),
  );
  const dateFormat = config.dateFormat;
  let flaggedCount = 0;
  const printedPages = pages.map((p) => ({
    title: p.title,
    rows: p.fields.map((f): DocumentReportRow => {
      const v = data[p.id]?.[f.id];
      const flagged = isFlagged(f, v);
      if (flagged) flaggedCount++;
      return {
        label: f.label,
        isHeading: f.kind === 'heading',
        value: valueText(f, v, t, { dateFormat }),
        flagged,
        flagText: flagged ? (f.kind === 'yesno' ? t('sr.flagNo') : t('sr.flagRange', { limits: limitText(f) })) : null,
        photos: f.kind === 'photo' ? ((v as string[] | undefined) ?? []).flatMap((id) => photoOf.get(id) ?? []) : [],
      };
    }),
  }));
  const facts = [
    { label: t('field.customer'), value: str(r.customer_name) ?? '' },
    { label: t('field.object'), value: [str(r.serial_code), str(r.object_location)].filter(Boolean).join(', ') },
    {
      label: t('sr.door'),
      value: [str(r.door_number), str(r.door_title), str(r.door_location)].filter(Boolean).join(' · '),
    },
  ].filter((f) => f.value !== '');
  const targets = (r.email_targets as string[] | null) ?? [];
  const defaults = [wo.contactEmail, str(r.customer_email)]
    .filter((e): e is string => Boolean(e && EMAIL_PATTERN.test(e.trim())))
    .map((e) => e.trim().toLowerCase());
  return {
    workOrderId: wo.id,
    reportId: r.id as string,
    version: Number(r.version),
    defaultTargets: targets.length ? targets : [...new Set(defaults)],
    model: {
      lang,
      locale: formattingLocale(lang),
      dateFormat,
      country: config.country,
      printedAt: ctx.now.toISOString(),
      company: await documentCompany(ctx),
      title: r.title as string,
      version: Number(r.version),
      workOrder: { number: wo.number, title: wo.title },
      facts,
      pages: printedPages,
      flaggedCount,
      signature: {
        name: r.signed_name as string,
        image: str(r.signature),
        signedAt: r.signed_at instanceof Date ? r.signed_at.toISOString() : String(r.signed_at),
        technicianName: str(r.technician_name),
      },
    },
  };
}

/** The photos' thumbnails as data URLs: file-store reads, so only outside a transaction. */
async function inlinePhotos(model: ServiceReportDocumentModel): Promise<ServiceReportDocumentModel> {
  const store = getFileStore();
  const cache = new Map<string, Promise<string | null>>();
  const read = (p: DocumentPhoto) => {
    let got = cache.get(p.storageKey);
    if (!got) {
      got = (async () => {
        try {
          const { body } = await store.get(p.storageKey);
          const chunks: Buffer[] = [];
          for await (const c of body) chunks.push(Buffer.from(c as Buffer));
          return `data:${p.contentType};base64,${Buffer.concat(chunks).toString('base64')}`;
        } catch {
          return null;
        }
      })();
      cache.set(p.storageKey, got);
    }
    return got;
  };
  const pages = await Promise.all(
    model.pages.map(async (page) => ({
      ...page,
      rows: await Promise.all(
        page.rows.map(async (row) => ({
          ...row,
          photos: await Promise.all(row.photos.map(async (p) => ({ ...p, src: await read(p) }))),
        })),
      ),
    })),
  );
  return inlineLogo({ ...model, pages });
}

/** The document's HTML (what the PDF prints); exported for tests. */
export function serviceReportHtml(model: ServiceReportDocumentModel): string {
  return renderDocument('service-report', model);
}

const filenameOf = (model: ServiceReportDocumentModel, ext: string) =>
  safeFilename('service-report', `${model.workOrder.number}-${model.title}-v${model.version}`, ext);

export interface GeneratedReport {
  fileId: string;
  fileName: string;
  /** Where the mail goes; empty when none was asked for. */
  emailedTo: string[];
  /** Published to the order's customer in the customer zone (Settings → Service reports). */
  published: boolean;
}

/**
 * POST /wo/{id}/servicereport/{reportId}/generate[?email=true]: prints the signed report and keeps
 * the PDF as a file on the order (workorders:report). 409 SERVICE_REPORT_NOT_SIGNED for a report
 * not signed; with email, 409 SERVICE_REPORT_EMAIL_MISSING when there is nobody to send to.
 */
export async function generateReport(ctx: Ctx, raw: unknown): Promise<AfterCommitWork<GeneratedReport>> {
  requireAccess(ctx.auth, SERVICE_REPORT_ACCESS.fill);
  const input = parseInput(ZGenerateReport, raw);
  const built = await buildModel(ctx, input.id, input.reportId);
  const to = input.email ? (input.emailTargets?.map((e) => e.toLowerCase()) ?? built.defaultTargets) : [];
  if (input.email && !to.length) throw new AppError('SERVICE_REPORT_EMAIL_MISSING', 409);
  const { tenant, auth, lang } = ctx;
  return thenAfterCommit(async () => {
    const model = await inlinePhotos(built.model);
    const pdf = await printDocument('service-report', model);
    const key = `${tenant.schemaName}/${randomUUID()}`;
    const store = getFileStore();
    await store.put(key, Readable.from(pdf), { contentType: PDF_TYPE });
    const fileName = filenameOf(model, 'pdf');
    try {
      const recorded = await withTenant(tenant, async (trx) => {
        const now = new Date();
        const unit: Ctx = { trx, tenant, auth, lang, now };
        const [{ m }] = (await trx('files')
          .where({ owner_type: 'wo', owner_id: built.workOrderId, folder_id: null })
          .max({ m: 'sort_order' })) as { m: number | null }[];
        const [row] = (await trx('files')
          .insert({
            owner_type: 'wo',
            owner_id: built.workOrderId,
            kind: 'file',
            name: fileName,
            storage_key: key,
            content_type: PDF_TYPE,
            size: pdf.length,
            sort_order: m === null ? 0 : Number(m) + 1,
            created_by: auth?.user.id ?? null,
            created_at: now,
            updated_at: now,
          })
          .returning('id')) as { id: string }[];
        // Settings → Service reports may publish it to the order's customer, by the rules of publishing by hand
        const publishedTo = (await publishesToCustomerZone(unit)) ? await publishByTenantSetting(unit, row!.id) : null;
        // the report's current file, unless it was reopened meanwhile (then the file stays on the order only)
        await trx('service_reports')
          .where({ id: built.reportId, version: built.version })
          .whereNotNull('signed_at')
          .update({ file_id: row!.id });
        await recordHistory(unit, {
          entity: WO_ENTITY,
          entityId: built.workOrderId,
          action: 'servicereport.generate',
          data: {
            serviceReportId: built.reportId,
            fileId: row!.id,
            version: built.version,
            emailedTo: to,
            publishedTo,
          },
        });
        if (to.length) {
          const t = documentTranslator(model.lang);
          const vars = { title: model.title, number: model.workOrder.number, company: model.company.name };
          await promiseDocumentMail(unit, {
            to,
            subject: t('sr.mailSubject', vars),
            text: t('sr.mailBody', vars),
            template: 'service-report',
            filename: fileName,
            model,
            about: { workOrderId: built.workOrderId, serviceReportId: built.reportId },
          });
        }
        return { fileId: row!.id, published: publishedTo !== null };
      });
      return { ...recorded, fileName, emailedTo: to };
    } catch (e) {
      await deleteStored([key]);
      throw e;
    }
  });
}

/** GET /wo/{id}/servicereport/{reportId}/word: the signed report as a Word document. */
export async function reportWord(ctx: Ctx, raw: unknown): Promise<AfterCommitWork<DocumentFile>> {
  requireAccess(ctx.auth, SERVICE_REPORT_ACCESS.read);
  const input = parseInput(ZGenerateReport.pick({ id: true, reportId: true }), raw);
  const built = await buildModel(ctx, input.id, input.reportId);
  return thenAfterCommit(async () => {
    const model = await inlinePhotos(built.model);
    return { filename: filenameOf(model, 'docx'), contentType: DOCX_TYPE, body: await serviceReportToDocx(model) };
  });
}

/** The PDF of a signed report without storing it (the page's preview and tests). */
export async function reportPdf(ctx: Ctx, raw: unknown): Promise<AfterCommitWork<DocumentFile>> {
  requireAccess(ctx.auth, SERVICE_REPORT_ACCESS.read);
  const input = parseInput(ZGenerateReport.pick({ id: true, reportId: true }), raw);
  const built = await buildModel(ctx, input.id, input.reportId);
  return thenAfterCommit(async () => {
    const model = await inlinePhotos(built.model);
    return {
      filename: filenameOf(model, 'pdf'),
      contentType: PDF_TYPE,
      body: await printDocument('service-report', model),
    };
  });
}
