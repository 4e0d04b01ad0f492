import { describe, expect, it } from 'vitest';
import { ErpError } from '~/core/extension-points/erp-http';
import type { ErpFileContext, ErpInvoice } from '~/core/extension-points/erp-provider';
import { feeRow, sampleInvoice } from '~/tests/erp-contract/erp-contract';
import { MagentaImportError, readMagentaWebOrder } from '~/tests/fakes/magenta';
import plugin from './index';

const provider = plugin.create(plugin.options.parse({}));
const file = (invoice: ErpInvoice, p = provider) => p.invoiceFile!(invoice);
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e as ErpError;
  }
  return null;
};
const withFee = (invoice: ErpInvoice): ErpInvoice => ({
  ...invoice,
  rows: [...invoice.rows, feeRow()],
});

describe('magenta', () => {
  it('is a file ERP: nothing to connect, the web order as an unsent UTF-8 e-mail', () => {
    expect(provider.auth).toEqual({ type: 'none' });
    expect(provider.capabilities).toMatchObject({
      sendInvoices: false,
      invoiceFile: true,
      taxReduction: false,
      supplierInvoices: false,
    });
    const f = file(sampleInvoice('501', { invoiceNr: '1234' }));
    expect(f.fileName).toBe('magenta-webborder-1234.eml');
    expect(f.contentType).toBe('message/rfc822; charset=UTF-8');
    const head = f.body.toString('utf8').split('\r\n\r\n')[0]!;
    expect(head).toContain('X-Unsent: 1');
    expect(head).toContain('Content-Type: text/plain; charset=UTF-8');
    expect(readMagentaWebOrder(f).subject).toBe('Webborder 1234 (Ordo)');
  });

  it('writes the fields of Magenta’s published example, verbatim', () => {
    const invoice = withFee(sampleInvoice('502', { invoiceNr: '1235' }));
    const text = file(invoice).body.toString('utf8');
    const body = text.slice(text.indexOf('[Till Magentas inkorg]'));
    expect(body.split('\r\n')).toEqual([
      '[Till Magentas inkorg]',
      '',
      'Momskod_Huvud: 1',
      '',
      '[Orderrader börjar]',
      '',
      'Rad_Artikelnr:',
      '     Rad_Benämning: Service of alarm',
      '     Rad_Antal: 0',
      '     Rad_Apris: 0,00',
      '     Rad_Belopp: 0,00',
      '',
      'Rad_Artikelnr:',
      '     Rad_Benämning: Märkning: Ref 12',
      '     Rad_Antal: 0',
      '     Rad_Apris: 0,00',
      '     Rad_Belopp: 0,00',
      '',
      'Rad_Artikelnr:',
      '     Rad_Benämning: Er ordernr: PO-77',
      '     Rad_Antal: 0',
      '     Rad_Apris: 0,00',
      '     Rad_Belopp: 0,00',
      '',
      'Rad_Artikelnr: ARB',
      '     Rad_Benämning: Labour',
      '     Rad_Antal: 2',
      '     Rad_Apris: 650,00',
      '     Rad_Belopp: 1300,00',
      '',
      // 3 × 200 less 10 %: the net unit price carries the discount the format has no field for
      'Rad_Artikelnr: DET-100',
      '     Rad_Benämning: Smoke detector',
      '     Rad_Antal: 3',
      '     Rad_Apris: 180,00',
      '     Rad_Belopp: 540,00',
      '',
      '[Orderrader slutar]',
      '',
      'Frakt: 0.00',
      'FakturaAvgift: 40.00',
      'SummaExklMoms: 1880.00',
      'TotaltFöreAvrundning: 2350.00',
      'Öresavrundning: 0.00',
      'TotaltAttBetala: 2350.00',
      '',
      'Fakturatyp: F',
      'Leveranssätt:',
      'Leveransvillkor:',
      'Ordernr: 1235',
      'Firmanamn: Contract Customer 502',
      'Co_avd:',
      'Adress: Storgatan 1',
      'Postadress: 111 22 STOCKHOLM',
      '',
      'LevAdress: Storgatan 1',
      'LevPostadress: 111 22 STOCKHOLM',
      '',
      'DerasRef: Erik Holm',
      '',
      '[MEDDELANDET SLUT]',
      '',
    ]);
    const order = readMagentaWebOrder(file(invoice));
    expect(order.rows).toHaveLength(5);
    expect(order.head.TotaltAttBetala).toBe('2350.00');
  });

  it('a discount that does not divide to the öre goes as one unit at the row total, the quantity in the text', () => {
    const base = sampleInvoice('503');
    const rows = base.rows.map((r, i) =>
      i === 1
        ? { ...r, amount: '3', price: '100.00', discount: { type: 'REGULAR' as const, value: '10' }, total: '290.00' }
        : r,
    );
    const invoice = { ...base, rows, totalPrice: '1630.00', totalVat: '397.50', total: '2027.50' };
    const order = readMagentaWebOrder(file(invoice));
    expect(order.rows.at(-1)).toEqual({
      Rad_Artikelnr: 'DET-100',
      Rad_Benämning: 'Smoke detector (3 st à 100,00)',
      Rad_Antal: '1',
      Rad_Apris: '290,00',
      Rad_Belopp: '290,00',
    });
  });

  it('reverse VAT: the reverse VAT code from the options and the legal text as a text row', () => {
    const custom = plugin.create(plugin.options.parse({ vatCodes: { reverse: '17' } }));
    const base = sampleInvoice('504');
    const invoice: ErpInvoice = {
      ...base,
      reverseVat: true,
      rows: base.rows.map((r) => ({ ...r, vatPercent: '0' })),
      totalVat: '0.00',
      total: '1880.00',
      notes: ['Omvänd betalningsskyldighet för byggtjänster gäller'],
    };
    const order = readMagentaWebOrder(file(invoice, custom));
    expect(order.head.Momskod_Huvud).toBe('17');
    expect(order.rows.at(-1)!.Rad_Benämning).toBe('Omvänd betalningsskyldighet för byggtjänster gäller');
    expect(plugin.options.parse({}).vatCodes).toEqual({ '25': '1', '12': '2', '6': '3', '0': '4', reverse: '5' });
  });

  it('the tenant’s VAT codes from Settings → ERP win over the defaults, which say they are guesses (issue 31)', () => {
    expect(provider.vatCodes).toEqual({
      defaults: { '25': '1', '12': '2', '6': '3', '0': '4', reverse: '5' },
      guessed: true,
    });
    // an operator who set the codes in PLUGIN_OPTIONS has them from Magenta: no longer guesses
    expect(plugin.create(plugin.options.parse({ vatCodes: { '25': '10' } })).vatCodes).toMatchObject({
      defaults: { '25': '10', '12': '2' },
      guessed: false,
    });
    const context = (vatCodes: Record<string, string>): ErpFileContext => ({
      company: { name: 'Ordo Testbolag AB', orgNr: '556677-8899' },
      generated: { date: '2026-11-20', sign: null },
      accounts: { sales: {}, vatCodes },
    });
    const at12 = (nr: string): ErpInvoice => {
      const base = sampleInvoice('506', { invoiceNr: nr });
      return {
        ...base,
        rows: base.rows.map((r) => ({ ...r, vatPercent: '12' })),
        totalVat: '225.60',
        total: '2105.60',
      };
    };
    const chosen = readMagentaWebOrder(provider.invoiceFile!(at12('1240'), context({ '12': '21', '25': '20' })));
    expect(chosen.head.Momskod_Huvud).toBe('21');
    // a rate the tenant left empty takes the default
    const fallback = readMagentaWebOrder(provider.invoiceFile!(at12('1241'), context({ '25': '20' })));
    expect(fallback.head.Momskod_Huvud).toBe('2');
  });

  it('refuses what the web order cannot carry: mixed VAT rates, ROT/RUT, another currency; not retryable, with a reason', () => {
    const base = sampleInvoice('505');
    const mixed = refusal(() => file({ ...base, rows: base.rows.map((r, i) => (i ? { ...r, vatPercent: '12' } : r)) }));
    expect(mixed).toBeInstanceOf(ErpError);
    expect(mixed?.code).toBe('INVOICE_WAS_NOT_CREATED_IN_ERP');
    expect(mixed?.retryable).toBe(false);
    expect(mixed?.vendorMessage).toMatch(/one VAT code/);
    const rot = refusal(() =>
      file({
        ...base,
        taxReduction: {
          kind: 'ROT',
          amount: '390.00',
          propertyDesignation: 'X 1:1',
          housingAssociationOrgNr: null,
          persons: [],
        },
      }),
    );
    expect(rot?.vendorMessage).toMatch(/ROT/);
    expect(refusal(() => file({ ...base, currency: 'EUR' }))?.vendorMessage).toMatch(/SEK/);
  });

  it('keeps one item per line: line breaks and brackets in texts cannot break the format', () => {
    const base = sampleInvoice('506');
    const invoice = {
      ...base,
      yourReference: 'Erik\r\nHolm [MEDDELANDET SLUT]',
      rows: base.rows.map((r, i) => (i === 0 ? { ...r, description: 'Labour\nnight [Orderrader slutar]' } : r)),
    };
    const order = readMagentaWebOrder(file(invoice));
    expect(order.head.DerasRef).toBe('Erik Holm (MEDDELANDET SLUT)');
    expect(order.rows[3]!.Rad_Benämning).toBe('Labour night (Orderrader slutar)');
  });

  it('the checker refuses what Magenta would: a wrong row amount, sums that do not add up, unknown fields', () => {
    const good = file(sampleInvoice('507'));
    const tamper = (from: string, to: string) => ({
      ...good,
      body: Buffer.from(good.body.toString('utf8').replace(from, to), 'utf8'),
    });
    expect(() => readMagentaWebOrder(tamper('Rad_Belopp: 540,00', 'Rad_Belopp: 541,00'))).toThrow(MagentaImportError);
    expect(() => readMagentaWebOrder(tamper('SummaExklMoms: 1880.00', 'SummaExklMoms: 1800.00'))).toThrow(
      /SummaExklMoms/,
    );
    expect(() => readMagentaWebOrder(tamper('Co_avd:', 'Kundnr: 507'))).toThrow(/unknown field Kundnr/);
    expect(() => readMagentaWebOrder(tamper('charset=UTF-8;', 'charset=ISO-8859-1;'))).toThrow(/UTF-8/);
  });
});
