import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layering others rely on to find things (ARCHITECTURE §2, issue 30 item 6), read from the
 * sources: core/ is the domain and imports nothing from app/ (translations both use live in
 * core/i18n/locales); a route module and app's server modules hold no SQL, they call core services.
 * ESLint says the same while one edits (eslint.config.js); this fails the suite when it is bypassed.
 */
const root = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return ['node_modules', 'build', '.react-router'].includes(e.name) ? [] : sourceFiles(p);
    return /\.(ts|tsx|mts|js|mjs)$/.test(e.name) ? [p] : [];
  });
}

const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');

/**
 * Every module a file names: static imports and re-exports (also `import type`), side-effect
 * imports, dynamic `import()` and `require()`.
 */
export function moduleSpecifiers(src: string): string[] {
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
    /\brequire\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
  ];
  return patterns.flatMap((re) => [...src.matchAll(re)].map((m) => m[1]!));
}

/** Where a specifier points inside the repository (`~/app/x`, `../../app/x`), or null for a package. */
function target(file: string, specifier: string): string | null {
  if (specifier.startsWith('~/')) return specifier.slice(2);
  if (specifier.startsWith('.')) return rel(path.resolve(path.dirname(file), specifier));
  return null;
}

const inApp = (t: string | null) => t !== null && (t === 'app' || t.startsWith('app/'));

/** Imports of app/ from a file. */
export function appImports(file: string, src: string): string[] {
  return moduleSpecifiers(src).filter((s) => inApp(target(file, s)));
}

const DATABASE_MODULES = new Set(['knex', 'pg', 'objection']);

/** What in a route or app server module reaches the database itself rather than through core. */
export function sqlInRoute(file: string, src: string): string[] {
  const found = moduleSpecifiers(src).filter((s) => {
    const t = target(file, s);
    if (t === null) return DATABASE_MODULES.has(s) || [...DATABASE_MODULES].some((m) => s.startsWith(`${m}/`));
    return t.startsWith('core/db/') && t !== 'core/db/with-tenant';
  });
  // the unit of work a loader is given is for the core services it calls: `trx('table')`, `trx.raw()`
  for (const m of src.matchAll(/\btrx\s*(?:\(|\.\s*\w+\s*\()/g)) found.push(m[0]);
  return found;
}

/** core/, and the parts of plugins that are not UI (a plugin's routes and components are app's kind). */
function domainFiles(): string[] {
  const plugins = sourceFiles(path.join(root, 'plugins')).filter(
    (f) => !/[\\/](routes|components)[\\/]/.test(f) && !f.endsWith('.tsx'),
  );
  return [...sourceFiles(path.join(root, 'core')), ...plugins];
}

/** app/routes, every app server module, and the routes plugins contribute. */
function routeFiles(): string[] {
  const app = sourceFiles(path.join(root, 'app')).filter(
    (f) => rel(f).startsWith('app/routes/') || /\.server\.tsx?$/.test(f),
  );
  const plugins = sourceFiles(path.join(root, 'plugins')).filter((f) => /[\\/]routes[\\/]/.test(f));
  return [...app, ...plugins].filter((f) => !/\.test\.tsx?$/.test(f));
}

describe('[layering] the sources', () => {
  it('core/ (and a plugin outside its routes and components) imports nothing from app/', () => {
    const files = domainFiles();
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) => appImports(f, fs.readFileSync(f, 'utf8')).map((s) => `${rel(f)}: ${s}`));
    expect(found).toEqual([]);
  });

  it('a route module or app server module neither imports a database module nor runs SQL on trx', () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => sqlInRoute(f, fs.readFileSync(f, 'utf8')).map((s) => `${rel(f)}: ${s}`));
    expect(found).toEqual([]);
  });

  it('sees every form of the imports it forbids', () => {
    const core = path.join(root, 'core/x/y.ts');
    expect(appImports(core, "import { resources } from '~/app/locales';")).toEqual(['~/app/locales']);
    expect(appImports(core, "import type { A } from '../../app/lib/a';")).toEqual(['../../app/lib/a']);
    expect(appImports(core, "export { b } from '../../app/b';\nconst c = await import('~/app/c');")).toHaveLength(2);
    expect(appImports(core, "import '../../app/side-effect';")).toEqual(['../../app/side-effect']);
    expect(appImports(core, "import { x } from '~/core/app/x';\nimport y from './app';")).toEqual([]);

    const route = path.join(root, 'app/routes/x.tsx');
    expect(sqlInRoute(route, "import type { Knex } from 'knex';")).toEqual(['knex']);
    expect(sqlInRoute(route, "import { getKnex } from '~/core/db/pool';")).toEqual(['~/core/db/pool']);
    expect(sqlInRoute(route, "await run(context, (ctx) => ctx.trx('work_order').where({ id }));")).toHaveLength(1);
    expect(sqlInRoute(route, 'await ctx.trx.raw(`select 1`);')).toHaveLength(1);
    expect(sqlInRoute(route, "import type { Trx } from '~/core/db/with-tenant';\nawait revoke(ctx.trx, id);")).toEqual(
      [],
    );
  });
});
