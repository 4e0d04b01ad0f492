import { useRouteLoaderData } from 'react-router';
import { useCan } from '~/app/lib/can';
import type { loader as appLayoutLoader } from '~/app/routes/app-layout';
import type { AppModuleId } from '~/core/modules/app-modules';
import type { Permission } from '~/core/permissions/permissions';
import { WidgetBoundary } from '~/app/components/ui';
import { FileBrowser } from './file-browser';

/** Who sees a kind's files (core/files/owners.ts has the rule; this only hides what would be refused). */
const READ: Record<string, { perms: Permission[]; module: AppModuleId }> = {
  customer: { perms: ['customers:files', 'customers:files:read'], module: 'files' },
  bo: { perms: ['bo:files', 'bo:files:read'], module: 'files' },
  model: { perms: ['models:files', 'models:files:read'], module: 'files' },
  article: { perms: ['articles:files', 'articles:files:read'], module: 'files' },
  wo: { perms: ['workorders:files', 'workorders:read'], module: 'files' },
  proposal: { perms: ['proposal:files', 'proposal:read'], module: 'crm' },
  project: { perms: ['projects:files', 'projects:read'], module: 'files' },
  // a plugin's record: its own page is already gated by the plugin's module
  doorautomatic: { perms: ['doorautomatics:files', 'doorautomatics:files:read'], module: 'files' },
};

/** Whether the signed-in person may see this kind's files. */
export function useCanSeeFiles(kind: string): boolean {
  const can = useCan();
  const rule = READ[kind];
  return Boolean(rule?.perms.some((p) => can(p, rule.module)));
}

/** A record's file browser, shown to those who may see its files. */
export function RecordFiles({ kind, ownerId }: { kind: string; ownerId: string }) {
  const visible = useCanSeeFiles(kind);
  const layout = useRouteLoaderData<typeof appLayoutLoader>('routes/app-layout');
  if (!visible) return null;
  return (
    <WidgetBoundary>
      <FileBrowser key={`${kind}:${ownerId}`} kind={kind} ownerId={ownerId} maxUploadMb={layout?.maxUploadMb ?? 50} />
    </WidgetBoundary>
  );
}
