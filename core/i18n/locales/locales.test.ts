import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGS } from '~/core/i18n/languages';
import { resources } from './index';

const root = path.resolve(import.meta.dirname, '../../..');

function files(dir: string, ext: RegExp): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return ['node_modules', '.react-router', 'build'].includes(e.name) ? [] : files(p, ext);
    return ext.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

const vars = (s: string) => [...s.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

describe('[i18n] translations', () => {
  it('have every key, with text, in every language and namespace, with the same placeholders', () => {
    for (const ns of Object.keys(resources.en) as (keyof typeof resources.en)[]) {
      const reference = Object.keys(resources.en[ns]).sort();
      for (const lang of LANGS) {
        const table = resources[lang][ns] as Record<string, string>;
        expect(Object.keys(table).sort(), `${lang}/${ns}.json keys`).toEqual(reference);
        for (const key of reference) {
          expect(table[key]?.trim(), `${lang}/${ns}.json "${key}"`).toBeTruthy();
          expect(vars(table[key]!), `${lang}/${ns}.json "${key}" placeholders`).toEqual(
            vars((resources.en[ns] as Record<string, string>)[key]!),
          );
        }
      }
    }
  });

  it('cover every message key the core can answer with', () => {
    const common = resources.en.common as Record<string, string>;
    const missing = new Set<string>();
    // App-module plugins (plugins/) answer with message keys like the core does.
    for (const file of [...files(path.join(root, 'core'), /\.ts$/), ...files(path.join(root, 'plugins'), /\.ts$/)]) {
      const src = fs.readFileSync(file, 'utf8');
      const codes = [
        ...src.matchAll(/new AppError\(\s*'([A-Z][A-Z0-9_]+)'/g),
        ...src.matchAll(/'((?:ERROR|WARNING)_[A-Z0-9_]+)'/g),
        ...src.matchAll(/code: '([A-Z][A-Z0-9_]+)'/g),
      ].map((m) => m[1]!);
      for (const c of codes) if (!(c in common)) missing.add(`${c} (${path.relative(root, file)})`);
    }
    for (const file of files(path.join(root, 'server'), /\.ts$/)) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/code: '([A-Z][A-Z0-9_]+)'/g))
        if (!(m[1]! in common)) missing.add(`${m[1]} (${path.relative(root, file)})`);
    }
    expect([...missing]).toEqual([]);
  });

  it('cover every literal key the UI asks for', () => {
    const missing = new Set<string>();
    for (const file of [...files(path.join(root, 'app'), /\.tsx?$/), ...files(path.join(root, 'plugins'), /\.tsx$/)]) {
      const src = fs.readFileSync(file, 'utf8');
      const ns = (/useTranslation\(\s*'(\w+)'\s*\)/.exec(src)?.[1] ?? 'common') as keyof typeof resources.en;
      for (const m of src.matchAll(/\bt\(\s*'([^'`$]+)'/g)) {
        // "calendar:title.week" names its namespace (i18next's separator)
        const [prefix, rest] = m[1]!.split(/:(.*)/s) as [string, string | undefined];
        const own = rest !== undefined && prefix in resources.en;
        const table = resources.en[own ? (prefix as keyof typeof resources.en) : ns] as Record<string, string>;
        const key = own ? rest : m[1]!;
        if (!(key in table)) missing.add(`${own ? prefix : ns}:${key} (${path.relative(root, file)})`);
      }
    }
    expect([...missing]).toEqual([]);
  });
});
