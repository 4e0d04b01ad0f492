import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { data, useFetcher } from 'react-router';
import type { Route } from './+types/settings.modules';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useToast } from '~/app/components/ui';
import { AccessNav } from '~/app/components/access/access-nav';
import { ModuleSwitch } from '~/app/components/access/module-switch';
import { appModuleKey } from '~/core/access-levels/permission-keys';

import { listAppModules, setAppModule, type TAppModule } from '~/core/modules/app-module.service';
import { hasAccess } from '~/core/permissions/access';
import { BUILT_APP_MODULES } from '~/core/modules/app-modules';
import { getRegistry } from '~/core/extension-points/registry';
import { pageTitle } from '~/app/lib/page-title';
import { actionError } from '~/app/lib/action-error.server';

/** Settings → app modules (spec section 6): which features this company has switched on. */
export const middleware = guard({ permission: 'settings:read' });

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const all = await run(context, (ctx) => listAppModules(ctx));
  // Only modules this build has screens or calls for: core's, and the installed plugins'.
  const plugins = [...getRegistry().appModules.values()].map((m) => m.instance.moduleId);
  const built = new Set<string>([...BUILT_APP_MODULES, ...plugins.filter((id) => id !== undefined)]);
  const modules = all.filter((m) => built.has(m.id));
  return {
    modules,
    // a super user sees every module's screens whatever the switches (spec section 6)
    isSuper: auth.user.userType === 'super',
    canEdit: hasAccess(auth, { permission: 'instance:edit' }),
    canSeeLevels: hasAccess(auth, { permission: 'accesslevels:read' }),
  };
}

type ActionResult = { ok?: boolean; code?: string; module?: TAppModule };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    const module = await run(context, (ctx) =>
      setAppModule(ctx, { appModuleId: form.get('appModuleId'), enabled: form.get('enabled') === 'true' }),
    );
    return data<ActionResult>({ ok: true, module });
  } catch (e) {
    return actionError<ActionResult>(e);
  }
}

/** One module's switch with its own fetcher, so several can be switched in quick succession. */
function ModuleRow({ module, name, canEdit }: { module: TAppModule; name: string; canEdit: boolean }) {
  const { t } = useTranslation('access');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<ActionResult>();
  // Shows the wanted state while the change is saved; the loader's answer once it is.
  const pending = fetcher.formData?.get('enabled');
  const isOn = pending === undefined || pending === null ? module.enabled : pending === 'true';

  useEffect(() => {
    const r = fetcher.data;
    if (!r || fetcher.state !== 'idle') return;
    if (r.ok && r.module)
      toast.show({
        kind: 'success',
        message: t(r.module.enabled ? 'modules.switchedOn' : 'modules.switchedOff', { name }),
      });
    else if (r.code) toast.show({ kind: 'error', message: tc(r.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data, fetcher.state]);

  return (
    <li className="border-b border-gray-100 last:border-b-0">
      <ModuleSwitch
        label={name}
        stateLabel={isOn ? t('modules.on') : t('modules.off')}
        isSelected={isOn}
        isDisabled={!canEdit}
        isPending={fetcher.state !== 'idle'}
        onChange={(on) => void fetcher.submit({ appModuleId: module.id, enabled: String(on) }, { method: 'post' })}
      />
    </li>
  );
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.modules', null, { within: 'settings.title' });

export default function Modules({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('access');
  const rows = useMemo(
    () =>
      loaderData.modules
        .map((m) => ({ module: m, name: t(appModuleKey(m.id)) }))
        .sort((a, b) => a.name.localeCompare(b.name, i18n.language, { sensitivity: 'base' })),
    [loaderData.modules, t, i18n.language],
  );
  return (
    <section className="flex max-w-2xl flex-col gap-4">
      {loaderData.canSeeLevels ? <AccessNav /> : null}
      <div>
        <h1 className="text-2xl font-semibold">{t('modules.title')}</h1>
        <p className="mt-1 max-w-prose text-sm text-gray-600">{t('modules.intro')}</p>
        {loaderData.canEdit ? null : <p className="mt-2 text-sm text-gray-600">{t('modules.readOnly')}</p>}
        {loaderData.isSuper ? (
          <p role="note" className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-950">
            {t('modules.superBypass')}
          </p>
        ) : null}
      </div>
      <ul aria-label={t('modules.list')} className="rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        {rows.map(({ module, name }) => (
          <ModuleRow key={module.id} module={module} name={name} canEdit={loaderData.canEdit} />
        ))}
      </ul>
    </section>
  );
}
