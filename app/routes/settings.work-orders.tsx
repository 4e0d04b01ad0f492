import { useTranslation } from 'react-i18next';
import { data, Link } from 'react-router';
import type { Route } from './+types/settings.work-orders';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { MapTileSettingsForm, MAP_TILES_INTENT } from '~/app/components/work-orders/map/tile-settings-form';
import { OptionsForm } from '~/app/components/work-orders/settings/options-form';
import type { SaveResult } from '~/app/components/work-orders/settings/shared';
import { StatusListForm } from '~/app/components/work-orders/settings/status-list-form';
import { TagListForm } from '~/app/components/work-orders/settings/tag-list-form';
import { WorkTypeListForm } from '~/app/components/work-orders/settings/work-type-list-form';
import { AppError } from '~/core/errors/app-error';
import { hasAccess } from '~/core/permissions/access';
import { getWorkOrderSettings, updateWorkOrderSettings } from '~/core/work-orders/settings/settings.service';
import { getMapTileSettings, updateMapTileSettings } from '~/core/work-orders/work-order-map.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → work orders (spec sections 3, 5 and 9): statuses, work types, tags, and the options
 * (required fields, mode, numbering), each saved by its own form. Read-only without instance:edit.
 */
export const middleware = guard({ permission: 'settings:read' });

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const [settings, mapTiles] = await run(
    context,
    async (ctx) => [await getWorkOrderSettings(ctx), await getMapTileSettings(ctx)] as const,
  );
  return { settings, mapTiles, canEdit: hasAccess(auth, { permission: 'instance:edit' }) };
}

const LIST_INTENTS = ['statuses', 'workTypes', 'tags'] as const;

/** The PATCH body one section's form stands for. */
function patchOf(intent: string, form: FormData): Record<string, unknown> {
  if ((LIST_INTENTS as readonly string[]).includes(intent)) {
    let rows: unknown;
    try {
      rows = JSON.parse(String(form.get('payload') ?? '[]'));
    } catch {
      throw new AppError('VALIDATION_FAILED', 400, { fields: { [intent]: ['ERROR_INVALID_VALUE'] } });
    }
    return { [intent]: rows };
  }
  return {
    requiredFields: form.getAll('requiredFields').map(String),
    mode: form.get('mode') ?? undefined,
    numberPrefix: form.get('numberPrefix') ?? '',
    nextNumber: form.get('nextNumber') ?? undefined,
    timeLockDay: form.get('timeLockDay') ?? undefined,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  try {
    // the map's tile server has its own service (the map tab's); every other form is a settings PATCH
    if (intent === MAP_TILES_INTENT)
      await run(context, (ctx) =>
        updateMapTileSettings(ctx, { url: form.get('url') ?? '', attribution: form.get('attribution') ?? '' }),
      );
    else await run(context, (ctx) => updateWorkOrderSettings(ctx, patchOf(intent, form)));
    return data<SaveResult>({ ok: true, intent });
  } catch (e) {
    return actionError<SaveResult>(e, { intent });
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.workOrders', null, { within: 'settings.title' });

export default function WorkOrderSettingsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('workorders');
  const { settings, mapTiles, canEdit } = loaderData;
  return (
    <div className="grid max-w-4xl gap-6">
      <div>
        <Link to="/settings" className="text-sm text-brand-700 underline">
          ← {t('settings.back')}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">{t('settings.title')}</h1>
        {canEdit ? null : <p className="mt-1 text-sm text-slate-600">{t('settings.readOnly')}</p>}
      </div>
      <StatusListForm statuses={settings.statuses} canEdit={canEdit} />
      <WorkTypeListForm workTypes={settings.workTypes} canEdit={canEdit} />
      <TagListForm tags={settings.tags} canEdit={canEdit} />
      <OptionsForm options={settings} canEdit={canEdit} />
      <MapTileSettingsForm custom={mapTiles.custom} instanceDefault={mapTiles.instanceDefault} canEdit={canEdit} />
    </div>
  );
}
