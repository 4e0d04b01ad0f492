/**
 * `npm run worker`: job workers without the web server, for deployments that scale them apart
 * (start the web with RUN_WORKERS=0). Stops gracefully on SIGTERM: running jobs finish first.
 */
import { getConfig } from '~/core/config/env';
import { createQueue } from '~/core/jobs/queue';
import { coreJobs, registerCoreSchedules } from '~/core/jobs/purge-sessions.job';
import { setDeliveryQueue } from '~/core/invoicing/erp-delivery';
import { setSupplierInvoiceDeliveryQueue } from '~/core/supplier-invoices/supplier-invoice-delivery';
import { setOutboxQueue } from '~/core/jobs/outbox';
import { closeCacheEvents, listenForForgets } from '~/core/events/cache-events';
import { closeBrowser, warmDocumentBrowser } from '~/core/documents/pdf';
import { logger } from '~/core/log/logger';
import { openRuntime } from '~/core/runtime/boot';

async function main() {
  let runtime: Awaited<ReturnType<typeof openRuntime>>;
  try {
    runtime = await openRuntime(getConfig());
  } catch (e) {
    console.error(`\n${(e as Error).message}\n`);
    process.exit(1);
  }
  const queue = createQueue(runtime.config);
  await queue.start(coreJobs);
  await registerCoreSchedules(queue);
  setDeliveryQueue(queue);
  setSupplierInvoiceDeliveryQueue(queue);
  setOutboxQueue(queue);
  listenForForgets();
  logger.info({ queue: queue.kind, jobs: coreJobs.map((j) => j.id) }, 'worker started');
  // documents mailed after commit are printed here: the browser is warm before the first
  const warming = runtime.config.WARM_DOCUMENT_BROWSER ? warmDocumentBrowser() : Promise.resolve();
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'worker stopping: finishing running jobs');
      void queue
        .stop()
        .then(() => warming)
        .then(() => closeBrowser())
        .then(() => closeCacheEvents())
        .then(() => runtime.close())
        .then(() => process.exit(0));
    });
  }
}

await main();
