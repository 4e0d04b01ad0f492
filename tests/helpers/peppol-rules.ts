import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import SaxonJS from 'saxon-js';

/*
 * Runs the official Peppol BIS Billing 3.0 and EN 16931 validation rules (tests/fixtures/peppol,
 * compiled by scripts/peppol-rules.mjs) on a document with SaxonJS, as a Peppol access point's
 * validator does, and reads their findings from the SVRL they answer.
 */

const DIR = path.resolve(import.meta.dirname, '../fixtures/peppol');

interface Manifest {
  saxonJs: string;
  rules: Record<string, { source: string; sha256: string }>;
}

export interface RuleFinding {
  /** The rule's id, e.g. BR-CO-15 or PEPPOL-EN16931-R003. */
  id: string;
  /** fatal, warning, or empty when the rule set gives none (EN 16931 treats that as fatal). */
  flag: string;
  text: string;
  location: string;
  ruleSet: string;
}

export interface RuleReport {
  fatal: RuleFinding[];
  warnings: RuleFinding[];
  /** How many rule contexts fired: proof the rules saw the document at all. */
  firedRules: number;
}

const manifest = (): Manifest => JSON.parse(readFileSync(path.join(DIR, 'compiled/manifest.json'), 'utf8')) as Manifest;

/** The rule files whose compiled form is older than they are (empty when all is current). */
export function staleRuleSets(): string[] {
  const m = manifest();
  return Object.entries(m.rules)
    .filter(
      ([, r]) =>
        createHash('sha256')
          .update(readFileSync(path.join(DIR, r.source)))
          .digest('hex') !== r.sha256,
    )
    .map(([name]) => name);
}

let loaded: { name: string; sef: unknown }[] | null = null;
function ruleSets() {
  loaded ??= Object.keys(manifest().rules).map((name) => ({
    name,
    sef: JSON.parse(gunzipSync(readFileSync(path.join(DIR, `compiled/${name}.sef.json.gz`))).toString('utf8')),
  }));
  return loaded;
}

const attr = (tag: string, name: string) => decode(new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? '');
const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** Validates a UBL document against every rule set; fatal holds what an access point would reject. */
export function validatePeppol(xml: string): RuleReport {
  const report: RuleReport = { fatal: [], warnings: [], firedRules: 0 };
  for (const set of ruleSets()) {
    const svrl = SaxonJS.transform(
      { stylesheetInternal: set.sef, sourceText: xml, destination: 'serialized' },
      'sync',
    ).principalResult;
    report.firedRules += (svrl.match(/<svrl:fired-rule\b/g) ?? []).length;
    for (const m of svrl.matchAll(/<svrl:(failed-assert|successful-report)\b([^>]*)>([\s\S]*?)<\/svrl:\1>/g)) {
      const finding: RuleFinding = {
        id: attr(m[2]!, 'id'),
        flag: attr(m[2]!, 'flag'),
        text: decode(/<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(m[3]!)?.[1]?.trim() ?? ''),
        location: attr(m[2]!, 'location'),
        ruleSet: set.name,
      };
      if (finding.flag === 'fatal' || (m[1] === 'failed-assert' && finding.flag === '')) report.fatal.push(finding);
      else report.warnings.push(finding);
    }
  }
  return report;
}

/** One line per finding, for a failing test's message. */
export const describeFindings = (findings: RuleFinding[]) =>
  findings.map((f) => `${f.id} [${f.flag || 'no flag'}] ${f.text} @ ${f.location}`).join('\n');
