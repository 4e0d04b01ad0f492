import { z } from 'zod';
import { tenantToday } from '~/core/calendar/tenant-today';
import type { Ctx } from '~/core/context';
import { parseInput } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import { REPORTS } from './closed-work-orders.service';
import { TIME_GROUPINGS, type TimeGrouping, type TimeRowKind } from './report-constants';
import { monthOf, reportPeriod, zReportDay, type Period } from './report-period';

/*
 * Reports → time (spec section 2 "time reports"): the time reported in a period (this month by
 * default, at most 366 days), grouped in SQL by person, project or work type. Two sources: the time
 * on work orders (work_order_time: work and travel minutes; its order gives the work type and the
 * project) and one's own time (time_reports, by tag: work and attendance tags count as own time,
 * absence tags as absence). Orders in the recycle bin are left out.
 *
 * By person, each row holds all four. Own time belongs to no order, so by project or work type it
 * is shown by its tag, in rows of its own after the orders' groups. A project group is its id
 * (`key`) named "1001 · Title", and the orders without a project are one group, `noProject`.
 */

export const ZTimeReport = z.object({
  startTime: zReportDay(),
  endTime: zReportDay(),
  groupBy: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.enum(TIME_GROUPINGS, { error: 'ERROR_INVALID_VALUE' }).default('person'),
  ),
});

export interface TimeMinutes {
  /** Work on work orders. */
  workMinutes: number;
  /** Travel on work orders. */
  travelMinutes: number;
  /** Own time under a work or attendance tag. */
  ownMinutes: number;
  /** Own time under an absence tag. */
  absenceMinutes: number;
  /** All four together. */
  totalMinutes: number;
}

export interface TimeReportRow extends TimeMinutes {
  /** `kind:key`, unique in the report. */
  id: string;
  kind: TimeRowKind;
  /** The user, project, work type or tag id; null for the orders without a project. */
  key: string | null;
  /** The person's, project's ("1001 · Title") or work type's name, the tag's name (null when it has none). */
  label: string | null;
  /** A tag row's type: work, attend or absence. */
  tagType: string | null;
  /** A tag row's code (ARB, SEM, …), which names a tag without a name. */
  tagCode: string | null;
}

export interface TimeReport {
  startTime: string;
  endTime: string;
  groupBy: TimeGrouping;
  rows: TimeReportRow[];
  totals: TimeMinutes;
}

type Row = Record<string, unknown>;

const KIND_ORDER: Record<TimeRowKind, number> = { person: 0, workType: 0, project: 0, noProject: 1, tag: 2 };

/** The orders' side of a grouping: kind, key and label of each work_order_time row (`tm`, order `w`). */
const ORDER_GROUP: Record<TimeGrouping, { columns: string; join: string }> = {
  person: {
    columns: `'person' as kind, u.id::text as key, u.name as label`,
    join: 'join users u on u.id = tm.user_id',
  },
  project: {
    columns: `case when w.project_id is null then 'noProject' else 'project' end as kind, w.project_id::text as key,
              case when pj.id is null then null else pj.number::text || ' · ' || pj.title end as label`,
    join: 'left join projects pj on pj.id = w.project_id',
  },
  workType: {
    columns: `'workType' as kind, wt.id::text as key, wt.name as label`,
    join: 'join work_types wt on wt.id = w.work_type_id',
  },
};

/** Own time's side: by person, or by tag when grouping what belongs to orders. */
const OWN_GROUP: Record<TimeGrouping, { columns: string; join: string }> = {
  person: {
    columns: `'person' as kind, u.id::text as key, u.name as label, null::text as tag_type, null::text as tag_code`,
    join: 'join users u on u.id = tr.user_id',
  },
  project: {
    columns: `'tag' as kind, g.id::text as key, g.name as label, g.type as tag_type, g.code as tag_code`,
    join: '',
  },
  workType: {
    columns: `'tag' as kind, g.id::text as key, g.name as label, g.type as tag_type, g.code as tag_code`,
    join: '',
  },
};

export function timeReportPeriod(ctx: Ctx, raw: unknown): Period {
  return reportPeriod(raw, monthOf(tenantToday(ctx)));
}

const minutes = (r: Row, key: string) => Number(r[key] ?? 0);

function totalsOf(rows: readonly TimeMinutes[]): TimeMinutes {
  const add = (key: keyof TimeMinutes) => rows.reduce((n, r) => n + r[key], 0);
  return {
    workMinutes: add('workMinutes'),
    travelMinutes: add('travelMinutes'),
    ownMinutes: add('ownMinutes'),
    absenceMinutes: add('absenceMinutes'),
    totalMinutes: add('totalMinutes'),
  };
}

/**
 * GET /reports/time?groupBy=person|project|workType&startTime&endTime: the period's minutes per
 * group, largest first (reports:read; 400 with the reason on endTime for a period reversed or longer
 * than 366 days). One statement: both sources summed in SQL under one GROUP BY.
 */
export async function timeReport(ctx: Ctx, raw: unknown = {}): Promise<TimeReport> {
  requireAccess(ctx.auth, REPORTS);
  const f = parseInput(ZTimeReport, raw);
  const period = timeReportPeriod(ctx, f);
  const order = ORDER_GROUP[f.groupBy];
  const own = OWN_GROUP[f.groupBy];
  const { rows } = (await ctx.trx.raw(
    `select kind, key, label, tag_type, tag_code,
            sum(work)::int as work, sum(travel)::int as travel, sum(own)::int as own, sum(absence)::int as absence
       from (
         select ${order.columns}, null::text as tag_type, null::text as tag_code,
                tm.work_minutes as work, tm.travel_minutes as travel, 0 as own, 0 as absence
           from work_order_time tm
           join work_orders w on w.id = tm.work_order_id ${order.join}
          where tm.date between ? and ? and w.deleted_at is null
         union all
         select ${own.columns}, 0, 0,
                case when g.type = 'absence' then 0 else tr.minutes end,
                case when g.type = 'absence' then tr.minutes else 0 end
           from time_reports tr
           join time_report_tags g on g.id = tr.tag_id ${own.join}
          where tr.date between ? and ?
       ) x
      group by kind, key, label, tag_type, tag_code`,
    [period.from, period.to, period.from, period.to],
  )) as { rows: Row[] };
  const list: TimeReportRow[] = rows.map((r) => {
    const m = {
      workMinutes: minutes(r, 'work'),
      travelMinutes: minutes(r, 'travel'),
      ownMinutes: minutes(r, 'own'),
      absenceMinutes: minutes(r, 'absence'),
    };
    const kind = r.kind as TimeRowKind;
    const key = (r.key as string | null) ?? null;
    return {
      id: `${kind}:${key ?? ''}`,
      kind,
      key,
      label: (r.label as string | null) ?? null,
      tagType: (r.tag_type as string | null) ?? null,
      tagCode: (r.tag_code as string | null) ?? null,
      ...m,
      totalMinutes: m.workMinutes + m.travelMinutes + m.ownMinutes + m.absenceMinutes,
    };
  });
  list.sort(
    (a, b) =>
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      b.totalMinutes - a.totalMinutes ||
      (a.label ?? a.tagCode ?? a.key ?? '').localeCompare(b.label ?? b.tagCode ?? b.key ?? ''),
  );
  return { startTime: period.from, endTime: period.to, groupBy: f.groupBy, rows: list, totals: totalsOf(list) };
}
