import { expect, test as base, type Page } from '@playwright/test';

export { expect };

/**
 * What a browser test may see in the console and still pass: a request the test provokes to fail
 * on purpose (a refused save, a 404 it asserts) is logged by Chromium as "Failed to load
 * resource"; the test checks that answer itself.
 */
const EXPECTED = [/^Failed to load resource: the server responded with a status of [45]\d\d/];

/** Whether a resource's address is on another host than the page's (an outside service). */
function isElsewhere(resource: string, pageUrl: string): boolean {
  try {
    return new URL(resource).host !== new URL(pageUrl).host;
  } catch {
    return false;
  }
}

/**
 * Every browser test fails when a page it drove reported an error (issue 29 item 3): a console
 * error, an uncaught exception, or a hydration mismatch (React reports #418 as a page error). A
 * test that provokes one on purpose names it: `test.use({ allowConsoleErrors: [/…/] })`.
 */
export const test = base.extend<{ allowConsoleErrors: RegExp[]; browserErrors: string[] }>({
  allowConsoleErrors: [[], { option: true }],
  browserErrors: [
    async ({ context, allowConsoleErrors }, use) => {
      const errors: string[] = [];
      const watch = (page: Page) => {
        page.on('console', (m) => {
          if (m.type() !== 'error') return;
          // a resource of another host (the map's tile server) that this offline machine cannot
          // reach: the page is built to work without it, and its own test checks that it does
          if (/^Failed to load resource: net::/.test(m.text()) && isElsewhere(m.location().url, page.url())) return;
          errors.push(`console error on ${page.url()}: ${m.text()}`);
        });
        page.on('pageerror', (e) => errors.push(`page error on ${page.url()}: ${e.message}`));
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use(errors);
      const allowed = [...EXPECTED, ...allowConsoleErrors];
      const unexpected = errors.filter((e) => !allowed.some((r) => r.test(e.replace(/^.*? on \S*: /, ''))));
      expect(unexpected, 'the browser reported errors while the test drove it').toEqual([]);
    },
    { auto: true },
  ],
});
