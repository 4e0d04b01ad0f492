import type { Ctx } from '~/core/context';
import { listCompensationTags, type CompensationTag } from './compensation-tags.service';
import { weekCompensationReports, type CompensationReport } from './compensation.service';
import { weekDistanceReports, type DistanceReport, type LastReading } from './distance.service';
import { canReadExpenses, canWriteExpenses } from './expense-access';

export interface WeekExpenses {
  /** The distance_reports module is on and the asker may read this person's trips. */
  distanceEnabled: boolean;
  /** The asker may read this person's compensations. */
  compensationEnabled: boolean;
  distance: { rows: DistanceReport[]; lastReading: LastReading | null; totalKm: number; canEdit: boolean };
  compensation: { rows: CompensationReport[]; tags: CompensationTag[]; totalAmount: number; canEdit: boolean };
}

/**
 * The week page's trips and compensations of one person (issue 17), for its loader: each part
 * only when the asker may read it (empty otherwise, never a refusal, so the rest of the page
 * still shows), with whether the asker may change it. `tags` are all compensation tags in their
 * order, the inactive ones too (a report keeps its tag; new ones offer only active tags).
 */
export async function weekExpenses(
  ctx: Ctx,
  input: { year: number; week: number; userId: string },
): Promise<WeekExpenses> {
  const { year, week, userId } = input;
  const distanceEnabled = canReadExpenses(ctx.auth, 'distance', userId);
  const compensationEnabled = canReadExpenses(ctx.auth, 'compensation', userId);
  const distance = distanceEnabled ? await weekDistanceReports(ctx, { year, week, userId }) : null;
  const compensation = compensationEnabled ? await weekCompensationReports(ctx, { year, week, userId }) : null;
  const { tags } = await listCompensationTags(ctx);
  return {
    distanceEnabled,
    compensationEnabled,
    distance: {
      rows: distance?.distanceReports ?? [],
      lastReading: distance?.lastReading ?? null,
      totalKm: distance?.totalKm ?? 0,
      canEdit: distanceEnabled && canWriteExpenses(ctx.auth, 'distance', userId),
    },
    compensation: {
      rows: compensation?.compensationReports ?? [],
      tags,
      totalAmount: compensation?.totalAmount ?? 0,
      canEdit: compensationEnabled && canWriteExpenses(ctx.auth, 'compensation', userId),
    },
  };
}
