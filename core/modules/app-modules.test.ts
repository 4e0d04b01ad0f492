import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_MODULES, BUILT_APP_MODULES } from './app-modules';

const root = path.resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(rel);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

describe('[modules] the settings list only modules that exist', () => {
  it('BUILT_APP_MODULES is exactly the core modules the code gates something behind', () => {
    const gated = new Set<string>();
    for (const file of [...sources('app'), ...sources('core'), ...sources('server')]) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const m of text.matchAll(/module: '([a-z0-9_]+)'/g)) gated.add(m[1]!);
    }
    expect([...gated].filter((m) => !(APP_MODULES as readonly string[]).includes(m))).toEqual([]);
    expect([...BUILT_APP_MODULES].sort()).toEqual([...gated].sort());
  });
});
