import type { AppModuleId } from '~/core/modules/app-modules';

/** The plugin's id (its folder is `plugins/module-door-automatics`). */
export const PLUGIN_ID = 'module-door-automatics';

/** The app module (spec section 6) that switches door automatics on per tenant. */
export const MODULE_ID = 'doorautomatics' satisfies AppModuleId;

/** History rows of door automatics carry this entity name. */
export const ENTITY = 'doorautomatic';
