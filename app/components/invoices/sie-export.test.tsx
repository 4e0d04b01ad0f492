import { describe, expect, it } from 'vitest';
import { englishRenderer } from '~/tests/helpers/render-ui';
import { SieExport } from './sie-export';

/** Server-render test of the invoice list's SIE export form (issue 15 item 3). */
const render = await englishRenderer(['invoices']);

describe('[invoicing] SIE export form', () => {
  it('offers the period it is given, series A, and downloads with a plain GET to /invoices/sie', () => {
    const html = render(<SieExport period={{ from: '2026-11-01', to: '2026-11-30' }} />);
    expect(html).toContain('Export to accounting (SIE)');
    const form = /<form[^>]*>/.exec(html)?.[0] ?? '';
    expect(form).toContain('method="get"');
    expect(form).toContain('action="/invoices/sie"');
    expect(html).toMatch(/name="from"[^>]*value="2026-11-01"/);
    expect(html).toMatch(/name="to"[^>]*value="2026-11-30"/);
    expect(html).toMatch(/name="series"[^>]*value="A"/);
    expect(html).toContain('Download SIE file');
    expect(html).toContain('at most 12 months');
  });
});
