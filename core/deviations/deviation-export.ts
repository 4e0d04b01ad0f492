import { z } from 'zod';
import { tenantDate } from '~/core/calendar/dates';
import type { Ctx } from '~/core/context';
import { documentTranslator } from '~/core/documents/i18n';
import type { DocumentFile } from '~/core/documents/file';
import { parseInput } from '~/core/errors/validation';
import { EXPORT_FORMATS } from '~/core/reports/report-constants';
import { tableFile } from '~/core/reports/report-export';
import { exportableDeviations } from './deviation.service';

const ZFormat = z.object({ format: z.enum(EXPORT_FORMATS, { error: 'ERROR_INVALID_VALUE' }) });

/**
 * GET /deviations/export?format=csv|xlsx&… with the list's filters: every deviation they find (up
 * to 10,000), written by the reports' CSV and XLSX writers, headed in the user's language.
 */
export async function exportDeviations(ctx: Ctx, raw: Record<string, unknown>): Promise<DocumentFile> {
  const { format } = parseInput(ZFormat, raw);
  const rows = await exportableDeviations(ctx, raw);
  const t = documentTranslator(ctx.lang, 'deviations');
  const day = (instant: string | null) => (instant ? tenantDate(instant, ctx.tenant.config?.country) : null);
  const cols = ['number', 'title', 'status', 'category', 'responsible', 'dueDate', 'occurredOn', 'created', 'closedAt', 'changeState', 'relations'];
  return tableFile(
    {
      name: 'deviations',
      title: t('title'),
      header: cols.map((c) => t(`field.${c}`)),
      rows: rows.map((d) => [
        String(d.number),
        d.title,
        t(`status.${d.status}`),
        d.categoryName,
        d.responsibleName,
        d.dueDate,
        d.occurredOn,
        day(d.createdAt),
        day(d.closedAt),
        d.changeState ? t(`change.${d.changeState}`) : null,
        d.relationKinds.map((k) => t(`relation.${k}`)).join(', '),
      ]),
    },
    format,
    tenantDate(ctx.now, ctx.tenant.config?.country),
  );
}
