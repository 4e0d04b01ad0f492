/**
 * `npm start` (production) and `npm run dev` (development, `--dev`).
 *
 * Production serves the built bundle, building it first when it is missing or older than the
 * sources (scripts/build.mjs). Development: Vite serves the app and compiles on demand. Either way
 * one module graph holds the server, so the database pool, queue and plugin registry exist once.
 *
 * This file imports nothing of the app's: in development everything loads through Vite. `npm start`
 * runs it on Node's own type stripping, without tsx: only the plugins, which are TypeScript read at
 * boot, go through tsx (scoped, see below). `npm run dev` keeps tsx for the whole process.
 */
import http from 'node:http';
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ViteDevServer } from 'vite';

type Started = { shutdown(signal?: string): Promise<void> };
type AppModule = {
  startServer(options: {
    devMiddleware?: unknown;
    clientDir?: string;
    httpServer?: http.Server;
    importModule?: (file: string) => Promise<unknown>;
  }): Promise<Started>;
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const production = !process.argv.includes('--dev');
// React and React Router read NODE_ENV when they load: it follows the command, not the shell.
if (production) process.env.NODE_ENV = 'production';
else if (process.env.NODE_ENV !== 'test') process.env.NODE_ENV = 'development';
const EXPECTED = new Set(['ConfigError', 'PluginError', 'DataDirLockedError', 'BuildError']);

async function main() {
  let vite: ViteDevServer | undefined;
  let started: Started;
  try {
    if (production) {
      // V8's compiled code of the bundle, kept between starts (in the system's temporary directory)
      module.enableCompileCache?.();
      const { ensureBuild } = (await import(pathToFileURL(path.join(root, 'scripts/build.mjs')).href)) as {
        ensureBuild(): Promise<unknown>;
      };
      await ensureBuild();
      const mod = (await import(pathToFileURL(path.join(root, 'build/server/index.js')).href)) as AppModule;
      // Only the plugins are TypeScript here: tsx imports them in a namespace of their own, so the
      // built bundle loads as plain JavaScript (Node's compile cache, no transform of the bundle:
      // with tsx for the whole process that was a third of the start-up time).
      const { register } = await import('tsx/esm/api');
      const plugins = register({ namespace: 'ordo-plugins' });
      started = await mod.startServer({
        clientDir: path.join(root, 'build/client'),
        importModule: (file) => plugins.import(pathToFileURL(file).href, import.meta.url),
      });
    } else {
      const { createServer } = await import('vite');
      // Vite's hot-reload socket shares our HTTP server, so several dev servers can run side by side.
      const httpServer = http.createServer();
      const sigterm = new Set(process.listeners('SIGTERM'));
      vite = await createServer({
        root,
        server: { middlewareMode: true, ws: { server: httpServer } },
        appType: 'custom',
        logLevel: 'warn',
      });
      // Vite exits the process on SIGTERM (and when stdin ends); our shutdown must run instead.
      for (const l of process.listeners('SIGTERM')) if (!sigterm.has(l)) process.off('SIGTERM', l);
      process.stdin.removeAllListeners('end');
      const mod = (await vite.ssrLoadModule(path.join(root, 'server/app.ts'))) as AppModule;
      started = await mod.startServer({ devMiddleware: vite.middlewares, httpServer });
    }
  } catch (e) {
    const err = e as Error;
    if (err && (EXPECTED.has(err.name) || /not reachable/.test(err.message))) console.error(`\n${err.message}\n`);
    else console.error(err);
    await vite?.close();
    process.exit(1);
  }
  let exiting = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (exiting) return;
      exiting = true;
      // Vite's hot-reload socket lives on our HTTP server: close it with the server, not after.
      void Promise.all([started.shutdown(signal), vite?.close()]).then(
        () => process.exit(0),
        (e) => {
          console.error(e);
          process.exit(1);
        },
      );
    });
  }
}

await main();
