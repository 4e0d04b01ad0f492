import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import { getConfig } from '~/core/config/env';
import { assertOutsideTransaction } from '~/core/db/transaction-guard';
import { logger } from '~/core/log/logger';

/**
 * HTML → PDF on a warm browser (STACK.md: ~0.15 s a PDF warm, ~0.5 s and more cold). One
 * puppeteer-core Browser on the system Chromium is launched on first use and reused, and so are its
 * pages: a page that rendered a document is kept (up to MAX_PAGES) for the next one, since opening
 * and setting up a page costs more than the document itself. A page that failed is closed. A
 * browser that crashed or was closed is launched again on the next document, with fresh pages. At
 * most MAX_PAGES documents render at once; the rest wait.
 *
 * The page runs no JavaScript and loads nothing from the network: every request except data:
 * URLs is aborted, so a document cannot leak or fetch anything (the logo is inlined beforehand).
 */

/** Pages rendering at once; more would only compete for the same 2 cores. */
export const MAX_PAGES = 2;
/** A document that has not rendered in this time fails instead of holding its slot. */
const RENDER_TIMEOUT_MS = 30_000;

/** STACK.md's flags; puppeteer adds --headless and a fresh --user-data-dir of its own. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

let browser: Browser | null = null;
/** Pages that rendered a document and wait for the next, all of the current browser. */
let idle: Page[] = [];
let launching: Promise<Browser> | null = null;
let closing: Promise<void> | null = null;

async function launch(): Promise<Browser> {
  const { default: puppeteer } = await import('puppeteer-core');
  const executablePath = getConfig().CHROMIUM_PATH;
  const started = Date.now();
  const b = await puppeteer.launch({
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    // Never download or look for a bundled browser; the system's is the only one.
    protocolTimeout: RENDER_TIMEOUT_MS,
  });
  b.once('disconnected', () => {
    if (browser === b) browser = null;
    idle = idle.filter((p) => p.browser() !== b);
  });
  logger.info({ executablePath, ms: Date.now() - started }, 'document browser launched');
  return b;
}

/** The document browser's program (issue 30 item 8: every request's log line names it). */
export function documentBrowserPath(): string {
  return getConfig().CHROMIUM_PATH;
}

/** The warm browser, launching it when there is none (or the last one died). */
async function getBrowser(): Promise<Browser> {
  if (closing) await closing;
  if (browser?.connected) return browser;
  browser = null;
  launching ??= launch()
    .then((b) => {
      browser = b;
      return b;
    })
    .finally(() => {
      launching = null;
    });
  return launching;
}

// ---- a counting semaphore for the page cap ------------------------------------------------
let active = 0;
const waiting: (() => void)[] = [];

async function acquire(): Promise<void> {
  if (active < MAX_PAGES) {
    active++;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else active--;
}

function onlyDataUrls(request: HTTPRequest): void {
  if (request.isInterceptResolutionHandled()) return;
  if (request.url().startsWith('data:')) void request.continue();
  else void request.abort('blockedbyclient');
}

/** A page of the browser ready to render: a kept one, or a new one set up to run nothing and fetch nothing. */
async function takePage(b: Browser): Promise<Page> {
  while (idle.length) {
    const page = idle.pop()!;
    if (page.browser() === b && !page.isClosed()) return page;
  }
  const page = await b.newPage();
  await page.setJavaScriptEnabled(false);
  await page.setRequestInterception(true);
  page.on('request', onlyDataUrls);
  return page;
}

/** Renders a complete HTML document to an A4 PDF. */
export async function htmlToPdf(html: string): Promise<Buffer> {
  assertOutsideTransaction('printing a PDF');
  await acquire();
  try {
    const b = await getBrowser();
    const page = await takePage(b);
    let keep = false;
    try {
      await page.setContent(html, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });
      const pdf = await page.pdf({
        format: 'A4',
        printBackground: true,
        margin: { top: '14mm', bottom: '16mm', left: '14mm', right: '14mm' },
        timeout: RENDER_TIMEOUT_MS,
      });
      keep = browser === b && idle.length < MAX_PAGES;
      return Buffer.from(pdf);
    } finally {
      if (keep) idle.push(page);
      else await page.close().catch(() => {});
    }
  } finally {
    release();
  }
}

/**
 * Starts the document browser and prints one empty page, so a person's first document does not
 * wait for Chromium to launch (issue 30 item 1: 15 s cold, 73 ms warm). Called when the server and
 * the worker start, without waiting on it; a failure is logged and the first document tries again.
 */
export function warmDocumentBrowser(): Promise<void> {
  const started = Date.now();
  return htmlToPdf('<!doctype html><html lang="en"><title>warm</title><body></body></html>').then(
    () => logger.info({ executablePath: documentBrowserPath(), ms: Date.now() - started }, 'document browser warm'),
    (err: unknown) => logger.warn({ err, executablePath: documentBrowserPath() }, 'document browser did not start'),
  );
}

/** Closes the warm browser (app shutdown, tests). The next document launches a new one. */
export async function closeBrowser(): Promise<void> {
  const pending = launching;
  closing ??= (async () => {
    const b = browser ?? (pending ? await pending.catch(() => null) : null);
    browser = null;
    idle = [];
    if (b) await b.close().catch((err: unknown) => logger.warn({ err }, 'closing the document browser failed'));
  })().finally(() => {
    closing = null;
  });
  await closing;
}

/** For tests: the browser now in use (null before the first document or after it closed). */
export function currentBrowserForTests(): Browser | null {
  return browser;
}
