import { z } from 'zod';
import { ErpError } from '~/core/extension-points/erp-http';
import {
  defineErpProvider,
  type ErpFileContext,
  type ErpInvoice,
  type ErpInvoiceRow,
  type ErpVatCodeKey,
} from '~/core/extension-points/erp-provider';
import { add, compare, divide, formatDecimal, mul } from '~/core/pricing';

/*
 * Magenta (magenta.se, Magenta Programvaror): a Windows accounting and invoicing program for small
 * companies (Magenta Fakturering, Magenta Leverantörsreskontra, …). It has no HTTP API. What it
 * documents for other programs is its "webborderkoppling" (magenta.se/for-programutvecklare.html): a
 * program sends an order as an e-mail in a fixed plain-text format to a dedicated robot address that
 * Magenta Fakturering reads (add-on module "Webborderkoppling"); the order becomes an invoice there.
 *
 * So the plugin is file-based: `invoiceFile` makes that e-mail as an .eml message (a draft, X-Unsent,
 * without a recipient) that the person opens and sends to the company's robot address. The fields are
 * the ones of Magenta's published example, verbatim; tests/fakes/magenta.ts reads the message as
 * Magenta would and lists the sources.
 *
 * Not available, so not carried (Magenta's full template, "magentamall.txt", was not found):
 * - fields beyond the example: customer number, organisation number, e-mail, dates, our reference,
 *   row VAT codes. Magenta takes the customer from Firmanamn/address and dates the invoice itself;
 * - a row VAT code: the order has one VAT code (Momskod_Huvud), so an invoice mixing VAT rates is
 *   refused. Magenta's code numbers are not published (its example shows 1 for an ordinary order):
 *   the defaults 1 (25 %), 2 (12 %), 3 (6 %), 4 (0 %) and 5 (reverse VAT) are guesses. The tenant
 *   sets the codes its Magenta uses in Settings → ERP (ErpAccounts.vatCodes, per rate); the boot
 *   option `vatCodes` replaces the defaults for every tenant, and Settings → ERP says they are
 *   guesses until it does;
 * - ROT/RUT: Magenta handles them in its own invoices, the web order has no fields for them, so an
 *   invoice with a reduction is refused (make it in Magenta);
 * - currency: none in the format, so only SEK.
 * Magenta's e-invoice import (Svefaktura / BIS Billing 3.0 in Magenta Leverantörsreskontra) is for
 * supplier invoices received, which Ordo does not send as files: no supplier invoices.
 */

/** The defaults of Momskod_Huvud per rate: guesses, Magenta publishes no code list. */
export const GUESSED_VAT_CODES: Readonly<Record<ErpVatCodeKey, string>> = {
  '25': '1',
  '12': '2',
  '6': '3',
  '0': '4',
  reverse: '5',
};

const options = z
  .object({
    /** Magenta's VAT code (Momskod_Huvud) per Ordo VAT rate, and for reverse VAT, for every tenant. */
    vatCodes: z
      .object({
        '25': z.string().regex(/^\d+$/).default(GUESSED_VAT_CODES['25']),
        '12': z.string().regex(/^\d+$/).default(GUESSED_VAT_CODES['12']),
        '6': z.string().regex(/^\d+$/).default(GUESSED_VAT_CODES['6']),
        '0': z.string().regex(/^\d+$/).default(GUESSED_VAT_CODES['0']),
        reverse: z.string().regex(/^\d+$/).default(GUESSED_VAT_CODES.reverse),
      })
      .prefault({}),
    /** Fakturatyp of the order; the published example's "F". */
    invoiceType: z
      .string()
      .regex(/^[A-Z]$/)
      .default('F'),
  })
  .strict();

export type MagentaOptions = z.infer<typeof options>;

const refuse = (vendorMessage: string): never => {
  throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', { vendorMessage });
};
const noApi = async (): Promise<never> => {
  throw new ErpError('ERP_NOT_CONNECTED', {
    vendorMessage: 'Magenta takes invoices as a web-order e-mail (the file), not over an API',
  });
};

/** One value on one line: Magenta reads one item per line and its markers are in brackets. */
const value = (v: string | null | undefined) =>
  (v ?? '')
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/\[/g, '(')
    .replace(/\]/g, ')')
    .replace(/ {2,}/g, ' ')
    .trim();
/** Row figures with a decimal comma, as in Magenta's example rows. */
const comma = (v: string) => formatDecimal(v, 2).replace('.', ',');
/** Row quantities: as many decimals as needed, with a comma. */
const quantity = (v: string) => {
  const [int, frac = ''] = formatDecimal(v, 3).split('.');
  const trimmed = frac.replace(/0+$/, '');
  return trimmed ? `${int},${trimmed}` : int!;
};
/** Head figures with a decimal point, as in Magenta's example. */
const point = (v: string) => formatDecimal(v, 2);

/** Quantity and unit price of a row: the web order has no discount, so the net price carries it. */
function rowFigures(row: ErpInvoiceRow): { amount: string; price: string; text: string } {
  if (!row.discount) return { amount: row.amount, price: row.price, text: row.description };
  const net = divide(row.total, row.amount, 2);
  if (compare(mul(net, row.amount), row.total) === 0)
    return { amount: row.amount, price: formatDecimal(net, 2), text: row.description };
  return {
    amount: '1',
    price: row.total,
    text: `${row.description} (${quantity(row.amount)} ${row.unit ?? ''} à ${comma(row.price)})`.replace(/\s+\)/, ')'),
  };
}

/** The tenant's code for a rate (Settings → ERP), else the plugin's. */
const vatCodeOf = (key: ErpVatCodeKey, o: MagentaOptions, context?: ErpFileContext) =>
  context?.accounts.vatCodes?.[key]?.trim() || o.vatCodes[key];

export function webOrder(invoice: ErpInvoice, o: MagentaOptions, context?: ErpFileContext): string {
  if (invoice.currency !== 'SEK')
    refuse(
      `Magenta's web order has no currency: only invoices in SEK can go this way (this one is in ${invoice.currency})`,
    );
  if (invoice.taxReduction)
    refuse(
      `Magenta's web order carries no ${invoice.taxReduction.kind} reduction; make this invoice in Magenta, which handles ROT and RUT itself`,
    );
  if (!value(invoice.customer.name)) refuse('The customer has no name (Firmanamn)');
  const priced = invoice.rows.filter((r) => r.kind !== 'text' && r.kind !== 'fee');
  const rates = new Set(priced.map((r) => r.vatPercent));
  if (!invoice.reverseVat && rates.size > 1)
    refuse(
      `Magenta's web order has one VAT code for the whole order; this invoice has rows at ${[...rates].sort().join(', ')} %, so make it in Magenta or split it`,
    );
  const vatCode = vatCodeOf(invoice.reverseVat ? 'reverse' : ([...rates][0] ?? '25'), o, context);

  const lines: string[] = ['Till ordermottagningen.', '', 'Följande order har skickats från Ordo.', ''];
  lines.push('[Till Magentas inkorg]', '', `Momskod_Huvud: ${vatCode}`, '', '[Orderrader börjar]', '');
  const textRow = (text: string) => {
    if (!value(text)) return;
    lines.push(
      'Rad_Artikelnr:',
      `     Rad_Benämning: ${value(text)}`,
      '     Rad_Antal: 0',
      '     Rad_Apris: 0,00',
      '     Rad_Belopp: 0,00',
      '',
    );
  };
  if (invoice.description) textRow(invoice.description);
  if (invoice.marking) textRow(`Märkning: ${invoice.marking}`);
  if (invoice.customerOrderNumber) textRow(`Er ordernr: ${invoice.customerOrderNumber}`);
  let net = '0';
  for (const row of invoice.rows) {
    if (row.kind === 'fee') continue; // FakturaAvgift below
    if (row.kind === 'text') {
      textRow(row.description);
      continue;
    }
    const f = rowFigures(row);
    net = formatDecimal(add(net, row.total), 2);
    lines.push(
      `Rad_Artikelnr: ${value(row.articleNumber)}`,
      `     Rad_Benämning: ${value(f.text)}`,
      `     Rad_Antal: ${quantity(f.amount)}`,
      `     Rad_Apris: ${comma(f.price)}`,
      `     Rad_Belopp: ${comma(row.total)}`,
      '',
    );
  }
  for (const note of invoice.notes) textRow(note);
  lines.push('[Orderrader slutar]', '');

  const fee = invoice.fee ?? '0';
  if (compare(add(net, fee), invoice.totalPrice) !== 0)
    refuse(
      `The rows and the fee (${formatDecimal(add(net, fee), 2)}) do not add up to the invoice's ${point(invoice.totalPrice)} without VAT`,
    );
  const beforeRounding = formatDecimal(add(invoice.totalPrice, invoice.totalVat), 2);
  const postal = [value(invoice.customer.address.postIndex), value(invoice.customer.address.city).toUpperCase()]
    .filter(Boolean)
    .join(' ');
  lines.push(
    'Frakt: 0.00',
    `FakturaAvgift: ${point(fee)}`,
    `SummaExklMoms: ${point(invoice.totalPrice)}`,
    `TotaltFöreAvrundning: ${point(beforeRounding)}`,
    `Öresavrundning: ${point(invoice.rounding)}`,
    `TotaltAttBetala: ${point(invoice.total)}`,
    '',
    `Fakturatyp: ${o.invoiceType}`,
    'Leveranssätt:',
    'Leveransvillkor:',
    `Ordernr: ${value(invoice.invoiceNr)}`,
    `Firmanamn: ${value(invoice.customer.name)}`,
    'Co_avd:',
    `Adress: ${value(invoice.customer.address.street)}`,
    `Postadress: ${postal}`,
    '',
    `LevAdress: ${value(invoice.customer.address.street)}`,
    `LevPostadress: ${postal}`,
    '',
    `DerasRef: ${value(invoice.yourReference)}`,
    '',
    '[MEDDELANDET SLUT]',
    '',
  );
  return lines.join('\r\n');
}

/** The web order as an unsent e-mail draft (RFC 5322, UTF-8): the same bytes for the same invoice. */
export function webOrderMessage(invoice: ErpInvoice, o: MagentaOptions, context?: ErpFileContext): Buffer {
  const head = [
    'MIME-Version: 1.0',
    'X-Unsent: 1',
    `Subject: =?UTF-8?B?${Buffer.from(`Webborder ${invoice.invoiceNr} (Ordo)`, 'utf8').toString('base64')}?=`,
    'Content-Type: text/plain; charset=UTF-8; format=fixed',
    'Content-Transfer-Encoding: 8bit',
    '',
    '',
  ].join('\r\n');
  return Buffer.from(head + webOrder(invoice, o, context), 'utf8');
}

export default defineErpProvider({
  id: 'magenta',
  displayName: 'Magenta',
  erpKind: 'magenta',
  // what was checked against the vendor's documentation and what was not (issue 31; Settings → ERP)
  verification: { verified: ['magenta.webOrder'], unverified: ['magenta.vatCodes', 'magenta.template'] },
  options,
  create: (o) => ({
    capabilities: {
      sendInvoices: false,
      invoiceFile: true,
      readInvoice: false,
      listArticles: false,
      taxReduction: false,
      supplierInvoices: false,
    },
    auth: { type: 'none' },
    vatCodes: {
      defaults: { ...o.vatCodes },
      guessed: (Object.keys(GUESSED_VAT_CODES) as ErpVatCodeKey[]).every((k) => o.vatCodes[k] === GUESSED_VAT_CODES[k]),
    },
    async testConnection() {
      return { companyName: null };
    },
    ensureCustomer: noApi,
    ensureArticle: noApi,
    sendInvoice: noApi,
    readInvoice: noApi,
    async listArticles() {
      return [];
    },
    invoiceFile: (invoice, context) => ({
      fileName: `magenta-webborder-${invoice.invoiceNr.replace(/[^\w-]/g, '_')}.eml`,
      contentType: 'message/rfc822; charset=UTF-8',
      body: webOrderMessage(invoice, o, context),
    }),
  }),
});
