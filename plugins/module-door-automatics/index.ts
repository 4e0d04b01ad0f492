import { z } from 'zod';
import { defineAppModule } from '~/core/extension-points/app-module';
import { MODULE_ID, PLUGIN_ID } from './constants';
import { doorAutomaticCalls } from './door-automatic.calls';
import doorAutomaticsTable from './migrations/0001-door-automatics';
import workOrderDoorAutomaticsTable from './migrations/0002-work-order-door-automatics';
import routes from './routes';
import { seedDemoDoorAutomatics } from './demo';

/**
 * Door automatics (spec sections 3 and 6), the first app module built as a plugin: its table, its
 * API calls, its pages under /inventory and its tab, all switched by the `doorautomatics` app
 * module. Its words are in core/i18n/locales/<lang>/doorautomatics.json.
 */
export default defineAppModule({
  id: PLUGIN_ID,
  options: z.object({}).strict(),
  create: () => ({
    moduleId: MODULE_ID,
    permissions: [
      'doorautomatics:read',
      'doorautomatics:edit',
      'doorautomatics:delete',
      'workorders:edit_doorautomatics',
    ],
    migrations: [doorAutomaticsTable, workOrderDoorAutomaticsTable],
    fileOwners: [
      {
        kind: 'doorautomatic',
        table: 'door_automatics',
        read: 'doorautomatics:files:read',
        edit: 'doorautomatics:files',
      },
    ],
    apiCalls: doorAutomaticCalls,
    routes,
    seedDemo: seedDemoDoorAutomatics,
    inventoryLinks: [
      {
        to: '/inventory/doorautomatics',
        labelKey: 'doorautomatics:nav',
        access: { permission: 'doorautomatics:read' },
      },
    ],
  }),
});
