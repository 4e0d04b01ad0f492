/*
 * The reports' words and choices shared by the services and the page (pure: the browser imports it).
 */

/** What the time report groups by. */
export const TIME_GROUPINGS = ['person', 'project', 'workType'] as const;
export type TimeGrouping = (typeof TIME_GROUPINGS)[number];

/** A time report row: the grouping's kinds, the orders without a project, and own time by tag. */
export type TimeRowKind = 'person' | 'project' | 'noProject' | 'workType' | 'tag';

/** The reports that download as files (GET /reports/{report}/export). */
export const REPORT_KINDS = ['closed-work-orders', 'agreement-invoices', 'time'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Translates a `reports` key: the page's `t` or a document translator. */
export type ReportsT = (key: string, vars?: Record<string, unknown>) => string;

/** A time-report tag's name on screen: the name typed in the settings, else its code's meaning. */
export type TagLabel = (tag: { code: string; name: string | null }) => string;

/**
 * A time row's name as the page and the exports write it: the person's, project's or work type's
 * name, "No project", or the tag as "Own time: Work" / "Absence: Vacation".
 */
export function timeRowLabel(
  r: { kind: TimeRowKind; key: string | null; label: string | null; tagType: string | null; tagCode: string | null },
  t: ReportsT,
  tagLabel: TagLabel,
): string {
  if (r.kind === 'noProject') return t('time.noProject');
  if (r.kind === 'project') return r.label ?? t('time.project', { id: (r.key ?? '').slice(0, 8) });
  if (r.kind === 'tag') {
    const name = tagLabel({ code: r.tagCode ?? '', name: r.label });
    return t(r.tagType === 'absence' ? 'time.absenceTag' : 'time.ownTag', { name });
  }
  return r.label ?? r.key ?? '';
}
