import type { Ctx } from '~/core/context';
import { thenAfterCommit, type AfterCommitWork } from '~/core/db/with-tenant';
import { documentCompany, inlineLogo } from '~/core/documents/company';
import { PDF_TYPE, safeFilename, type DocumentFile } from '~/core/documents/file';
import { documentTranslator, type DocumentT } from '~/core/documents/i18n';
import { htmlToPdf } from '~/core/documents/pdf';
import { renderHtml } from '~/core/documents/render';
import { formattingLocale, type Lang } from '~/core/i18n/languages';
import { deviationHistory, getDeviation } from './deviation.service';

/**
 * The deviation words come from the `deviations` namespace; the company header's and the printed
 * line's (`company.…`, `doc.…`) from the documents', as every printed document has them.
 */
function deviationTranslator(lang: Lang): DocumentT {
  const own = documentTranslator(lang, 'deviations');
  const documents = documentTranslator(lang);
  return (key, vars) => (key.startsWith('company.') || key.startsWith('doc.') ? documents(key, vars) : own(key, vars));
}

/** What templates/deviation.hbs prints: the deviation, what it is about and its history. */
export async function deviationDocumentModel(ctx: Ctx, id: unknown) {
  const { deviation, relations } = await getDeviation(ctx, id);
  const history = await deviationHistory(ctx, id);
  const config = ctx.tenant.config;
  return {
    lang: ctx.lang,
    locale: formattingLocale(ctx.lang),
    dateFormat: config.dateFormat,
    country: config.country,
    printedAt: ctx.now.toISOString(),
    company: await documentCompany(ctx),
    deviation: {
      ...deviation,
      statusKey: `status.${deviation.status}`,
      changeStateKey: deviation.changeState ? `change.${deviation.changeState}` : null,
    },
    relations: relations.map((r) => ({ kindKey: `relation.${r.kind}`, label: r.label, field: r.fieldLabel ?? r.field })),
    history: history.map((h) => ({ actionKey: `history.${h.action}`, at: h.at, userName: h.userName })),
  };
}

/** GET /deviations/{id}/pdf: the deviation report, printed once the unit of work committed (decision 049). */
export async function deviationPdf(ctx: Ctx, id: unknown): Promise<AfterCommitWork<DocumentFile>> {
  const model = await deviationDocumentModel(ctx, id);
  return thenAfterCommit(async () => {
    const html = renderHtml('deviation', await inlineLogo(model), {
      t: deviationTranslator(model.lang),
      locale: model.locale,
      dateFormat: model.dateFormat,
      country: model.country,
    });
    return {
      filename: safeFilename('deviation', String(model.deviation.number), 'pdf'),
      contentType: PDF_TYPE,
      body: await htmlToPdf(html),
    };
  });
}
