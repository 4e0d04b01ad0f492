import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  ssr: true,
  // Pre-bundle the browser's dependencies at dev-server start: discovering them on the first page
  // view would make Vite reload that page mid-use.
  future: { unstable_optimizeDeps: true },
  // The whole route manifest up front (~70 routes): lazy discovery patched the route tree on a
  // picker's first fetch to a not-yet-discovered path (e.g. /inventory/customers/options from a
  // work order) and reset the picker mid-typing.
  routeDiscovery: { mode: 'initial' },
} satisfies Config;
