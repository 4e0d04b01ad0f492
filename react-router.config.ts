import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  ssr: true,
  // Pre-bundle the browser's dependencies at dev-server start: discovering them on the first page
  // view would make Vite reload that page mid-use.
  future: { unstable_optimizeDeps: true },
} satisfies Config;
