import type { PluginRoute } from '../../core/extension-points/app-module';

/**
 * The plugin's pages. Plain data: app/routes.ts reads this file at build time (before the app is
 * loaded), so it imports nothing but types.
 */
export default [
  { parent: 'inventory', path: 'doorautomatics', file: 'routes/door-automatics.tsx' },
  { parent: 'inventory', path: 'doorautomatics/new', file: 'routes/door-automatic-new.tsx' },
  { parent: 'inventory', path: 'doorautomatics/propose', file: 'routes/propose.tsx' },
  { parent: 'inventory', path: 'doorautomatics/:id', file: 'routes/door-automatic.tsx' },
  { parent: 'app', path: 'work-orders/:id/doorautomatics', file: 'routes/work-order-door-automatics.tsx' },
] satisfies PluginRoute[];
