import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { createRequestHandler } from '@react-router/express';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import { RouterContextProvider, type ServerBuild } from 'react-router';
import { requestContext, tenantContext } from '~/app/context';
import { getConfig, type Config } from '~/core/config/env';
import { withQueryCounter } from '~/core/db/query-counter';
import { closeBoardEvents } from '~/core/events/board-events';
import { closeCacheEvents, listenForForgets } from '~/core/events/cache-events';
import { closeBrowser, documentBrowserPath, warmDocumentBrowser } from '~/core/documents/pdf';
import { getDatabase } from '~/core/db/with-tenant';
import { readToken, ZONE_SESSION_COOKIE } from '~/core/http/session-token';
import { createQueue, type JobQueue } from '~/core/jobs/queue';
import { coreJobs, registerCoreSchedules } from '~/core/jobs/purge-sessions.job';
import { setDeliveryQueue } from '~/core/invoicing/erp-delivery';
import { setSupplierInvoiceDeliveryQueue } from '~/core/supplier-invoices/supplier-invoice-delivery';
import { setOutboxQueue } from '~/core/jobs/outbox';
import { logContext, logger } from '~/core/log/logger';
import { eachLimit, openRuntime, type Runtime } from '~/core/runtime/boot';
import type { ModuleImporter } from '~/core/extension-points/registry';
import type { Tenant } from '~/core/tenancy/tenant';
import { ensureDemoTenant, isLoopback } from '~/tenants/demo';
import { migrateTenant } from '~/tenants/provision';
import { findTenantByHost, listTenants, normalizeHost } from '~/tenants/registry';
import { createApiRouter } from './api-router';
import { edgeChecks } from './edge';
import { precompressedAssets } from './precompressed';
import { LOCALE_CHUNKS_FILE, readLocaleChunks } from '~/app/locales/chunks.server';
import { newOpsToken, openOpsChannel, opsAllowed } from '~/core/runtime/ops-channel';
import { readOutbox } from '~/core/mail/mailer';
import { httpDuration, registry as metrics, sqlStatements } from './metrics';
import { FAVICON_ICO } from './favicon';

const NOT_FOUND_PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><title>404</title></head><body><h1>404 Not Found</h1></body></html>';

export interface AppDeps {
  config: Config;
  queue: JobQueue | null;
  /** Vite's dev middleware (development only): serves modules and assets. */
  devMiddleware?: express.RequestHandler;
  clientDir?: string;
  /** The operators' channel's token (embedded database only: core/runtime/ops-channel.ts). */
  opsToken?: string;
}

/** The production Express app: host → tenant, health, metrics, the API, then React Router. */
export function createApp(deps: AppDeps): express.Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  // API answers are no-store and pages are per person: an ETag (a hash of every body) buys nothing.
  app.set('etag', false);
  app.set('trust proxy', config.TRUST_PROXY);

  // Request id, timing, SQL count and log context for every request.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const requestId = (config.TRUST_PROXY && req.get('x-request-id')?.slice(0, 100)) || randomUUID();
    const started = process.hrtime.bigint();
    const counter = { statements: 0 };
    const kind = req.path.startsWith('/api/') ? 'api' : req.path.startsWith('/assets/') ? 'asset' : 'page';
    res.setHeader('X-Request-Id', requestId);
    // one child logger per request (issue 30 item 8): its line names the request and the document
    // browser the process prints with
    const log = logger.child({ requestId, executablePath: documentBrowserPath() });
    res.locals.log = log;
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (!this.headersSent) {
        this.setHeader('Server-Timing', `app;dur=${ms.toFixed(2)}`);
        this.setHeader('X-Sql-Statements', String(counter.statements));
      }
      return writeHead.apply(this, args);
    } as Response['writeHead'];
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      httpDuration.observe({ method: req.method, kind, status: String(res.statusCode) }, seconds);
      sqlStatements.observe({ kind }, counter.statements);
      if (kind !== 'asset')
        log.info(
          {
            method: req.method,
            path: req.path,
            status: res.statusCode,
            ms: Math.round(seconds * 1000),
            sql: counter.statements,
          },
          'request',
        );
    });
    logContext.run({ requestId }, () => withQueryCounter(counter, next));
  });

  // Baseline security headers on every answer (pages add their CSP in app/entry.server.tsx).
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'same-origin');
    if (config.httpsOnly) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    next();
  });

  app.get('/healthz', (_req, res) => res.type('text/plain').send('ok'));
  app.get('/favicon.ico', (_req, res) => {
    res.type('image/x-icon').set('Cache-Control', 'public, max-age=86400').send(FAVICON_ICO);
  });
  app.get('/readyz', async (_req, res) => {
    const problems: string[] = [];
    await getDatabase()
      .knex.raw('select 1')
      .catch(() => problems.push('database'));
    if (deps.queue) await deps.queue.ready().catch(() => problems.push('queue'));
    if (problems.length) res.status(503).json({ status: 'unavailable', problems });
    else res.json({ status: 'ready' });
  });
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.contentType).send(await metrics.metrics());
  });
  if (deps.opsToken) {
    const token = deps.opsToken;
    app.get('/_ops/outbox', async (req, res) => {
      if (!opsAllowed(token, req.socket.remoteAddress, req.get('authorization'))) {
        res.status(404).type('html').send(NOT_FOUND_PAGE);
        return;
      }
      const limit = Math.min(Math.max(Number(req.query.limit) || 20, 1), 500);
      res.set('Cache-Control', 'no-store').json(await readOutbox({ limit }));
    });
  }

  if (!deps.devMiddleware && deps.clientDir) {
    app.use('/assets', precompressedAssets(path.join(deps.clientDir, 'assets')));
    readLocaleChunks(path.join(deps.clientDir, '..', LOCALE_CHUNKS_FILE));
  }
  app.use(compression());
  if (deps.devMiddleware) app.use(deps.devMiddleware);
  else if (deps.clientDir) {
    app.use('/assets', express.static(path.join(deps.clientDir, 'assets'), { immutable: true, maxAge: '1y' }));
    // The few files beside assets/ (favicon, robots.txt) are known at boot: every other request
    // would otherwise cost a file-system lookup before reaching the API or a page.
    const files = new Set(
      fs
        .readdirSync(deps.clientDir, { withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => `/${e.name}`),
    );
    const rootFiles = express.static(deps.clientDir, { maxAge: '1h', index: false });
    app.use((req: Request, res: Response, next: NextFunction) =>
      files.has(req.path) ? rootFiles(req, res, next) : next(),
    );
  }

  // Host → tenant. Unknown or disabled hosts get the same bare 404: nothing about other tenants.
  app.use(async (req: Request, res: Response, next: NextFunction) => {
    try {
      const forwarded = config.TRUST_PROXY ? req.get('x-forwarded-host')?.split(',')[0] : undefined;
      const host = normalizeHost(forwarded ?? req.get('host'));
      const tenant = host ? await findTenantByHost(host, config.DEFAULT_TENANT) : null;
      if (!tenant) {
        res.status(404).type('html').send(NOT_FOUND_PAGE);
        return;
      }
      res.locals.tenant = tenant;
      const store = logContext.getStore();
      if (store) store.tenant = tenant.slug;
      next();
    } catch (e) {
      next(e);
    }
  });
  app.use(edgeChecks(config));

  app.use('/api', createApiRouter());
  return app;
}

/** Mounts React Router after the API: every other path is a page. */
export function mountReactRouter(
  app: express.Express,
  build: ServerBuild | (() => Promise<ServerBuild>),
  mode: string,
) {
  app.all(
    '/{*splat}',
    createRequestHandler({
      build,
      mode,
      getLoadContext(req, res) {
        const context = new RouterContextProvider();
        context.set(tenantContext, res.locals.tenant as Tenant);
        context.set(requestContext, {
          ip: req.ip ?? null,
          requestId: String(res.getHeader('X-Request-Id') ?? ''),
          token: readToken({ cookie: req.headers.cookie, authorization: null }),
          zoneToken: readToken({ cookie: req.headers.cookie, authorization: null }, ZONE_SESSION_COOKIE),
        });
        return context;
      },
    }),
  );
  app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => {
    logger.error({ err }, 'request failed');
    if (!res.headersSent) res.status(500).type('text/plain').send('Internal Server Error');
  });
}

/** How long requests still running at shutdown may take before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

export interface Started {
  server: Server;
  runtime: Runtime;
  queue: JobQueue | null;
  url: string;
  shutdown(signal?: string): Promise<void>;
}

/**
 * Boots everything: database (waiting for it), migrations of every tenant, the demo tenant when
 * configured, the job queue and its workers (unless RUN_WORKERS=0), then the HTTP server.
 */
export async function startServer(
  options: {
    devMiddleware?: express.RequestHandler;
    clientDir?: string;
    httpServer?: Server;
    /** How plugins' TypeScript is imported when the process itself cannot (the production build). */
    importModule?: ModuleImporter;
  } = {},
): Promise<Started> {
  const config = getConfig();
  const runtime = await openRuntime(config, { importModule: options.importModule });
  const tenants = await listTenants();
  await eachLimit(
    tenants.filter((t) => t.status !== 'provisioning'),
    4,
    async (t) => void (await migrateTenant(t.slug)),
  );
  let demo: Awaited<ReturnType<typeof ensureDemoTenant>> | null = null;
  // the published demo password only while nothing but this machine reaches the server (issue 30)
  if (config.demo) demo = await ensureDemoTenant(undefined, { loopback: isLoopback(config.HOST) });

  const queue = createQueue(config);
  // a job a commit promises (a bulk agreement run) is queued where a worker (this process or another) takes it
  setOutboxQueue(queue);
  listenForForgets();
  if (config.RUN_WORKERS) {
    await queue.start(coreJobs);
    await registerCoreSchedules(queue);
    setDeliveryQueue(queue);
    setSupplierInvoiceDeliveryQueue(queue);
  }

  const opsToken = config.embedded ? newOpsToken() : undefined;
  const app = createApp({
    config,
    queue,
    devMiddleware: options.devMiddleware,
    clientDir: options.clientDir,
    opsToken,
  });
  const mode = config.NODE_ENV === 'production' ? 'production' : 'development';
  const loadBuild = () => import('virtual:react-router/server-build') as Promise<ServerBuild>;
  // Development: a function, so each request sees the routes Vite just recompiled. Production: the
  // build itself, so React Router derives its route tree once instead of on every request.
  mountReactRouter(app, options.devMiddleware ? loadBuild : await loadBuild(), mode);

  const server = options.httpServer ?? createServer();
  server.on('request', app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://localhost:${port}`;
  const closeOps = opsToken ? openOpsChannel(config.DATA_DIR, port, opsToken) : () => {};
  // the first PDF a person asks for finds the browser running (not waited on: the server answers meanwhile)
  const warming = config.WARM_DOCUMENT_BROWSER ? warmDocumentBrowser() : Promise.resolve();

  let stopping: Promise<void> | null = null;
  const shutdown = (signal = 'shutdown') =>
    (stopping ??= (async () => {
      logger.info({ signal }, 'shutting down: no new requests, finishing in-flight work');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // open calendars hold a live channel each: end them now rather than after the grace period
      await closeBoardEvents();
      await closeCacheEvents();
      // A browser's keep-alive connection is idle between requests: close each one as soon as its
      // request is answered, so only real in-flight work holds the shutdown, and that for at most
      // SHUTDOWN_GRACE_MS.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 50).unref();
      const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
      await closed;
      clearInterval(sweep);
      clearTimeout(force);
      closeOps();
      await queue.stop();
      await warming;
      await closeBrowser();
      await runtime.close();
      logger.info('stopped');
    })());

  logger.info(
    { url, database: runtime.db.describe, queue: config.REDIS_URL ? 'redis' : 'embedded' },
    'Ordo is listening',
  );
  if (demo) {
    const signIn = demo.published
      ? `Sign in as ${demo.email} with password ${demo.password}`
      : demo.password
        ? `Sign in as ${demo.email} with password ${demo.password}\n  (generated because the server listens on ${config.HOST}, not only on this machine;\n  shown this once; the other demo users have it too)`
        : `Sign in as ${demo.email} with the password printed when the server first listened on ${config.HOST}`;
    console.log(`\n  Ordo is running at ${url}\n  Demo company: Nordlarm Säkerhet AB\n  ${signIn}\n`);
  }
  return { server, runtime, queue, url, shutdown };
}
