import { useRouteLoaderData } from 'react-router';
import { canWith, type Access } from '~/core/permissions/access';
import type { Permission } from '~/core/permissions/permissions';
import type { AppModuleId } from '~/core/modules/app-modules';
import type { loader as appLayoutLoader } from '~/app/routes/app-layout';

/**
 * The UI's mirror of the server's access rule: hide what the user may not use. The server still
 * decides; this only keeps buttons and links honest.
 */
export function useCan(): (permission: Permission | 'signed-in', module?: AppModuleId) => boolean {
  const data = useRouteLoaderData<typeof appLayoutLoader>('routes/app-layout');
  return (permission, module) => canWith(data?.access, { permission, module } as Access);
}
