import axe from 'axe-core';
import type { Page } from '@playwright/test';

/** The rules the pages are held to: WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The serious and critical violations on the page as it is now (within `include`, a CSS selector,
 * when given), each as `rule (impact) target | target | target`.
 *
 * axe-core runs inside the page itself, loaded once per document through the DevTools protocol
 * (which the pages' Content-Security-Policy does not govern). @axe-core/playwright's AxeBuilder ran
 * the same rules in 2–5 s a page, because it injects into every frame and finishes each run on a
 * fresh page; this takes 0.2–0.6 s, with about ninety pages to audit. The pages have no frames.
 */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(
    async ([tags, within]) => {
      const run = (window as unknown as { axe: typeof axe }).axe.run;
      const result = await run(within ? { include: [within] } : document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
        iframes: false,
      });
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) =>
            `${v.id} (${v.impact}) ${v.nodes
              .slice(0, 3)
              .map((n) => n.target.join(' '))
              .join(' | ')}`,
        );
    },
    [WCAG_TAGS, include ?? null] as const,
  );
}
