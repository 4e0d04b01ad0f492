import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import routes from './routes';
import { isPageTitleHandle, titleOfMatches } from '~/app/lib/page-title';

function flatten(entries: RouteConfigEntry[]): RouteConfigEntry[] {
  return entries.flatMap((e) => [e, ...flatten(e.children ?? [])]);
}

const common = JSON.parse(readFileSync(path.join(import.meta.dirname, '../core/i18n/locales/en/common.json'), 'utf8')) as Record<
  string,
  string
>;

describe('[shell] every page names itself in the document title (WCAG 2.4.2)', () => {
  // a page is a route with a component; the rest (downloads, panels' posts, redirects) render nothing
  const pages = flatten(routes).filter((e) =>
    /^export default/m.test(readFileSync(path.join(import.meta.dirname, e.file), 'utf8')),
  );
  // the signed-in shell titles nothing itself: the page under it does
  const layoutsOnly = new Set(['routes/app-layout.tsx', 'routes/zone-layout.tsx']);

  it('finds the pages', () => expect(pages.length).toBeGreaterThan(70));

  it.each(pages.filter((e) => !layoutsOnly.has(e.file)).map((e) => [e.file]))(
    '%s exports a handle with a translated title',
    async (file) => {
      const mod = (await import(/* @vite-ignore */ path.join(import.meta.dirname, file))) as { handle?: unknown };
      expect(isPageTitleHandle(mod.handle), `${file} must export handle = pageTitle(...)`).toBe(true);
      if (!isPageTitleHandle(mod.handle)) return;
      const { key, orElse, within } = mod.handle.title;
      for (const k of [key, orElse, within].filter((k): k is string => !!k))
        expect(common[k], `${file}: ${k} in common.json`).toBeTruthy();
    },
  );
});

describe('[shell] titleOfMatches', () => {
  const proposal = {
    handle: { title: { key: 'title.proposal', name: (d: { n: number | null }) => d.n, orElse: 'title.newProposal' } },
  };
  const layout = { handle: { title: { key: 'nav.workOrders' } }, loaderData: {} };
  it('names the record from its data', () => {
    expect(titleOfMatches([layout, { ...proposal, loaderData: { n: 1042 } }])).toEqual({
      key: 'title.proposal',
      values: { name: 1042 },
    });
  });
  it('a new record takes its own fallback; a failed one the title above it', () => {
    expect(titleOfMatches([layout, { ...proposal, loaderData: { n: null } }])?.key).toBe('title.newProposal');
    expect(titleOfMatches([layout, { ...proposal, loaderData: undefined }])?.key).toBe('nav.workOrders');
  });
  it('no title anywhere: null', () => expect(titleOfMatches([{ handle: undefined, loaderData: {} }])).toBeNull());
});
