import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ErpProviderDefinition } from '~/core/extension-points/erp-provider';
import erply from '~/plugins/erp-erply';
import fortnox from '~/plugins/erp-fortnox';
import magenta from '~/plugins/erp-magenta';
import quickbooks from '~/plugins/erp-quickbooks';
import visma from '~/plugins/erp-visma';
import vismaE from '~/plugins/erp-visma-e';
import wint from '~/plugins/erp-wint';

/*
 * Every ERP plugin says what of it was checked against the vendor's own documentation and what was
 * not (issue 31), in words Settings → ERP has in all five languages; the known gaps of decision 050
 * are among the unverified.
 */

const plugins: ErpProviderDefinition<unknown>[] = [fortnox, visma, vismaE, wint, erply, quickbooks, magenta] as never;
const messages = Object.fromEntries(
  ['sv', 'en', 'et', 'lv', 'ru'].map((lang) => [
    lang,
    JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, `../../core/i18n/locales/${lang}/invoicesettings.json`), 'utf8'),
    ) as Record<string, string>,
  ]),
);

describe('[erp] what each plugin verified against the vendor’s documentation', () => {
  it('all seven declare both lists, every key in all five languages', () => {
    expect(plugins.map((p) => p.id).sort()).toEqual(
      ['erply', 'fortnox', 'magenta', 'quickbooks', 'visma', 'visma-e', 'wint'].sort(),
    );
    for (const p of plugins) {
      expect(p.verification, p.id).toBeTruthy();
      expect(p.verification!.verified.length, p.id).toBeGreaterThan(0);
      expect(p.verification!.unverified.length, p.id).toBeGreaterThan(0);
      for (const key of [...p.verification!.verified, ...p.verification!.unverified])
        for (const [lang, m] of Object.entries(messages))
          expect(m[`erp.verification.${key}`], `${lang}: erp.verification.${key}`).toBeTruthy();
    }
  });

  it('is honest about what decision 050 leaves open', () => {
    const unverified = (p: ErpProviderDefinition<unknown>) =>
      p.verification!.unverified.map((k) => messages.en![`erp.verification.${k}`]).join('\n');
    expect(unverified(fortnox as never)).toContain('2004217');
    expect(unverified(magenta as never)).toMatch(/VAT codes 1–5: guesses/);
    expect(unverified(visma as never)).toMatch(/Importera/);
    expect(unverified(erply as never)).toMatch(/attribute/);
  });
});
