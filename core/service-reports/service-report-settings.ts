import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { isModuleEnabled } from '~/core/modules/app-module.service';
import { requireAccess } from '~/core/permissions/access';
import { SERVICE_REPORT_ACCESS } from './service-report.service';

/*
 * The tenant's say on service reports (Settings → Service reports; one row, migration 0049):
 * whether a generated report's PDF is published to the order's customer in the customer zone.
 * Read with settings:read, changed with instance:edit, like the templates beside it.
 */

export interface ServiceReportSettings {
  /** Generate publishes the PDF to the order's customer (off by default). */
  publishToCustomerZone: boolean;
  /** Whether the customer zone module is on: without it nothing is published. */
  customerZoneOn: boolean;
}

const zFlag = z.preprocess(
  (v) => (typeof v === 'string' ? ['true', '1', 'on', 'yes'].includes(v.toLowerCase()) : v),
  z.boolean({ error: 'ERROR_INVALID_VALUE' }),
);

/** PUT /instance/servicereport/settings {publishToCustomerZone}. */
export const ZServiceReportSettings = z.object({ publishToCustomerZone: zFlag });

/** Whether generate publishes (no access check: the caller already has its own). */
export async function publishesToCustomerZone(ctx: Ctx): Promise<boolean> {
  const row = (await ctx.trx('service_report_settings').first('publish_to_customer_zone')) as
    { publish_to_customer_zone: boolean } | undefined;
  return row?.publish_to_customer_zone === true;
}

/** GET /instance/servicereport/settings (settings:read). */
export async function getServiceReportSettings(ctx: Ctx): Promise<ServiceReportSettings> {
  requireAccess(ctx.auth, SERVICE_REPORT_ACCESS.settingsRead);
  return {
    publishToCustomerZone: await publishesToCustomerZone(ctx),
    customerZoneOn: await isModuleEnabled(ctx.trx, 'customerzone'),
  };
}

/** PUT /instance/servicereport/settings {publishToCustomerZone} (instance:edit); history on the instance. */
export async function updateServiceReportSettings(ctx: Ctx, raw: unknown): Promise<ServiceReportSettings> {
  requireAccess(ctx.auth, SERVICE_REPORT_ACCESS.settingsEdit);
  const input = parseInput(ZServiceReportSettings, raw);
  const before = await publishesToCustomerZone(ctx);
  await ctx
    .trx('service_report_settings')
    .insert({ id: true, publish_to_customer_zone: input.publishToCustomerZone, updated_at: ctx.now })
    .onConflict('id')
    .merge();
  if (before !== input.publishToCustomerZone)
    await recordHistory(ctx, {
      entity: 'service_report_settings',
      entityId: ctx.tenant.id,
      action: 'edit',
      data: { changes: [{ field: 'publishToCustomerZone', old: before, new: input.publishToCustomerZone }] },
    });
  return getServiceReportSettings(ctx);
}
