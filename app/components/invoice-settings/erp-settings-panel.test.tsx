import { describe, expect, it } from 'vitest';
import { englishRenderer } from '~/tests/helpers/render-ui';
import type { ErpCapabilities } from '~/core/extension-points/erp-provider';
import type { ErpSettingsView } from '~/core/invoicing/erp-settings.service';
import { CAPABILITIES, ErpCallbackFailure, ErpSettingsPanel, SALES_ACCOUNTS } from './erp-settings-panel';

/** Server-render tests of Settings → ERP and the OAuth callback's failure, in English, every key present. */
const render = await englishRenderer(['invoicesettings']);

const caps = (on: Partial<ErpCapabilities>): ErpCapabilities => ({
  sendInvoices: false,
  invoiceFile: false,
  readInvoice: false,
  listArticles: false,
  taxReduction: false,
  supplierInvoices: false,
  ...on,
});

const kinds: ErpSettingsView['kinds'] = [
  {
    id: 'none',
    displayName: 'Ordo',
    auth: 'none',
    fields: [],
    missingOptions: [],
    capabilities: caps({}),
    vatCodes: null,
    verification: null,
  },
  {
    id: 'fortnox',
    displayName: 'Fortnox',
    auth: 'oauth2',
    fields: [],
    missingOptions: [],
    capabilities: caps({ sendInvoices: true, readInvoice: true, listArticles: true, taxReduction: true }),
    vatCodes: null,
    verification: { verified: ['fortnox.fields', 'fortnox.rotWhole'], unverified: ['fortnox.errorCodes'] },
  },
  {
    id: 'keyerp',
    displayName: 'Nyckel ERP',
    auth: 'api-key',
    fields: ['apiKey'],
    missingOptions: [],
    capabilities: caps({ invoiceFile: true }),
    vatCodes: null,
    verification: null,
  },
];

const base: ErpSettingsView = {
  kind: 'fortnox',
  displayName: 'Fortnox',
  kinds,
  connected: true,
  companyName: 'Nordlarm AB',
  connectedAt: '2026-11-02T09:00:00.000Z',
  lastTestAt: '2026-11-02T09:00:05.000Z',
  lastTestError: null,
  accounts: { sales: { '25': '3001', reverse: '3231' }, fee: '3541', rounding: null, vatCodes: {} },
  deliveries: [
    {
      id: 'd1',
      kind: 'fortnox',
      status: 'delivered',
      attempts: 1,
      nextAttemptAt: null,
      errorCode: null,
      errorText: null,
      externalId: '77',
      externalInvoiceNr: '77',
      createdAt: '2026-11-10T08:00:00.000Z',
      deliveredAt: '2026-11-10T08:00:03.000Z',
      invoiceId: 'inv-1',
      invoiceNr: '1041',
      customerName: 'Brf Björken',
    },
    {
      id: 'd2',
      kind: 'fortnox',
      status: 'failed',
      attempts: 8,
      nextAttemptAt: null,
      errorCode: 'INVOICE_WAS_NOT_CREATED_IN_ERP',
      errorText: 'Kunden saknas',
      externalId: null,
      externalInvoiceNr: null,
      createdAt: '2026-11-10T09:00:00.000Z',
      deliveredAt: null,
      invoiceId: 'inv-2',
      invoiceNr: '1042',
      customerName: 'Tyst Kund AB',
    },
  ],
  customerConflicts: [],
};

const conflict: ErpSettingsView['customerConflicts'][number] = {
  customerId: '00000000-0000-4000-8000-000000000005',
  customerName: 'Brf Björken',
  customerNumber: '10005',
  organizationalNumber: '769600-1234',
  reason: 'number_taken',
  candidates: [
    {
      externalId: '10005',
      number: '10005',
      name: 'Helt Annat Bolag AB',
      organizationalNumber: '556000-0006',
      vatNumber: null,
    },
  ],
  vendorMessage: 'Fortnox: CustomerNumber 10005, Name "Helt Annat Bolag AB"',
  createNew: false,
  createdAt: '2026-11-10T09:00:00.000Z',
};

const panel = (settings: ErpSettingsView, canEdit = true) =>
  render(<ErpSettingsPanel settings={settings} canEdit={canEdit} />);

describe('[invoicing] Settings → ERP', () => {
  it('offers each ERP as a radio card with what it can do, the one in use chosen', () => {
    const html = panel(base);
    expect(html).toContain('role="radiogroup"');
    expect(html.match(/type="radio"/g)).toHaveLength(3);
    expect(html).toMatch(/<input[^>]*value="fortnox"[^>]*checked=""|<input[^>]*checked=""[^>]*value="fortnox"/);
    expect(html).toContain('aria-label="What Fortnox can do"');
    for (const c of [
      'Receives invoices',
      'Reports the invoice&#x27;s state',
      'Lists its articles',
      'Carries ROT and RUT',
    ])
      expect(html).toContain(c);
    expect(html).toContain('Connect by signing in to Fortnox');
    expect(html).toContain('Connect with a key');
    expect(html).toContain('Invoice file to import');
    expect(html).toContain('Invoices stay in Ordo');
    expect(html).toContain('(in use)');
  });

  it('lists on each card what was checked against the vendor’s documentation and what was not (issue 31)', () => {
    const html = panel(base);
    expect(html).toContain('aria-label="Checked against Fortnox’s documentation"');
    expect(html).toContain('ROT/RUT per person in whole kronor');
    expect(html).toContain('aria-label="Not verified"');
    expect(html).toContain('Error codes 2004217 and 2004218');
    expect(html).not.toContain('data-testid="erp-verified-keyerp"');
  });

  it('an ERP with its own VAT codes (Magenta) has them among the accounts, the defaults said to be guesses', () => {
    const magenta: ErpSettingsView['kinds'][number] = {
      id: 'magenta',
      displayName: 'Magenta',
      auth: 'none',
      fields: [],
      missingOptions: [],
      capabilities: caps({ invoiceFile: true }),
      vatCodes: { defaults: { '25': '1', '12': '2', '6': '3', '0': '4', reverse: '5' }, guessed: true },
      verification: { verified: ['magenta.webOrder'], unverified: ['magenta.vatCodes'] },
    };
    const html = panel({
      ...base,
      kind: 'magenta',
      displayName: 'Magenta',
      kinds: [...kinds, magenta],
      accounts: { ...base.accounts, vatCodes: { '25': '11' } },
    });
    expect(html).toContain('data-testid="erp-vat-codes"');
    expect(html).toContain('VAT codes in Magenta');
    expect(html).toContain('the defaults are guesses');
    expect(html).toContain('value="11"');
    expect(html).toContain('placeholder="2"');
    expect(html).toContain('Default: 5');
    expect(html).toContain('VAT codes 1–5: guesses, Magenta does not publish them');
    // an ERP without codes of its own shows none
    expect(panel(base)).not.toContain('data-testid="erp-vat-codes"');
  });

  it('says how a file-based ERP imports its file: Visma Administration, SIE 4I through Arkiv → Importera', () => {
    const visma: ErpSettingsView['kinds'][number] = {
      id: 'visma',
      displayName: 'Visma Administration',
      auth: 'none',
      fields: [],
      missingOptions: [],
      capabilities: caps({ invoiceFile: true, taxReduction: true }),
      vatCodes: null,
      verification: null,
    };
    const html = panel({ ...base, kind: 'visma', displayName: 'Visma Administration', kinds: [...kinds, visma] });
    expect(html).toContain('Nothing to connect');
    expect(html).toContain('data-testid="erp-file-import"');
    expect(html).toContain('SIE file of type 4I (FAKT_&lt;invoice number&gt;.SI)');
    expect(html).toContain('Arkiv → Importera');
    expect(html).toContain('a file imported twice is booked twice');
    // an ERP without such a text (Fortnox sends over its API) shows none
    expect(panel(base)).not.toContain('data-testid="erp-file-import"');
  });

  it('shows an OAuth2 ERP connected, with connect again, test and disconnect', () => {
    const html = panel(base);
    expect(html).toContain('Connected to Nordlarm AB');
    expect(html).toContain('Connect to Fortnox again');
    expect(html).toContain('Test connection');
    expect(html).toContain('Disconnect');
    const off = panel({ ...base, connected: false, companyName: null, connectedAt: null });
    expect(off).toContain('Not connected');
    expect(off).toContain('>Connect to Fortnox<');
    expect(off).not.toContain('Disconnect');
  });

  it('offers no sign-in to an OAuth2 ERP the server has no client id for, and names what to set', () => {
    const html = panel({
      ...base,
      connected: false,
      companyName: null,
      connectedAt: null,
      kinds: kinds.map((k) =>
        k.id === 'fortnox' ? { ...k, missingOptions: ['fortnox.clientId', 'fortnox.clientSecret'] } : k,
      ),
    });
    expect(html).not.toContain('Connect to Fortnox');
    expect(html).toContain(
      'Fortnox cannot be connected yet: the server lacks the app&#x27;s details. Ask the operator to set fortnox.clientId, fortnox.clientSecret in PLUGIN_OPTIONS and restart Ordo.',
    );
  });

  it('asks an API-key ERP for its fields as password inputs', () => {
    const html = panel({ ...base, kind: 'keyerp', displayName: 'Nyckel ERP', connected: false, companyName: null });
    expect(html).toMatch(/<input[^>]*type="password"/);
    expect(html).toContain('API key');
    expect(html).toContain('Save and connect');
    expect(html).not.toContain('Connect to Nyckel ERP');
  });

  it('has the accounts per VAT rate, the fee and the rounding account, 4–6 digits', () => {
    const html = panel(base);
    expect(SALES_ACCOUNTS).toEqual(['25', '12', '6', '0', 'reverse']);
    for (const label of [
      'Sales, 25 % VAT',
      'Sales, 12 % VAT',
      'Sales, 6 % VAT',
      'Sales, 0 % VAT',
      'Sales, reverse VAT',
    ])
      expect(html).toContain(label);
    expect(html).toContain('value="3001"');
    expect(html).toContain('value="3231"');
    expect(html).toContain('value="3541"');
    expect(html).toContain('Account numbers have 4 to 6 digits.');
    expect(html).toContain('Save accounts');
  });

  it('lists the last deliveries: the invoice linked, customer, state, attempts and the error in words', () => {
    const html = panel(base);
    expect(html).toContain('href="/invoices/inv-1"');
    expect(html).toContain('>1041<');
    expect(html).toContain('Brf Björken');
    expect(html).toContain('Delivered');
    expect(html).toContain('Failed');
    expect(html).toContain('>8<');
    expect(html).toContain('Invoice was not created in Fortnox The ERP said: “Kunden saknas”');
    const empty = panel({ ...base, deliveries: [] });
    expect(empty).toContain('No invoice has been sent to the ERP yet.');
    // one stopped for a person to check at the vendor (issue 31 item 8)
    const checking = panel({
      ...base,
      deliveries: [
        { ...base.deliveries[1]!, status: 'needs_checking', errorCode: 'ERP_NEEDS_CHECKING', errorText: null },
      ],
    });
    expect(checking).toContain('Check in the ERP');
    expect(checking).toContain('Fortnox may already have this invoice.');
  });

  it('is read-only without instance:edit: no connect, test, disconnect or save', () => {
    const html = panel(base, false);
    for (const text of ['Connect to Fortnox', 'Test connection', 'Disconnect', 'Save accounts', 'Use '])
      expect(html).not.toContain(text);
    expect(html).toContain('Connected to Nordlarm AB');
    expect(html).toMatch(/<input[^>]*disabled=""[^>]*value="3001"|<input[^>]*value="3001"[^>]*disabled=""/);
  });

  it('the OAuth callback shows a refusal in words, with the vendor’s, and the way back', () => {
    const html = render(
      <ErpCallbackFailure failure={{ code: 'ERP_OAUTH_STATE_INVALID', vendorMessage: null, erpName: 'Fortnox' }} />,
    );
    expect(html).toContain('Could not connect to Fortnox');
    expect(html).toContain('The connection took too long or was started elsewhere. Try again.');
    expect(html).toContain('href="/settings/erp"');
    const vendor = render(
      <ErpCallbackFailure failure={{ code: 'ERP_AUTH_FAILED', vendorMessage: 'access_denied', erpName: 'Fortnox' }} />,
    );
    expect(vendor).toContain('The ERP refused the credentials. Connect again. The ERP said: “access_denied”');
  });

  it('shows a customer conflict of a first delivery: what Ordo has, what the ERP has, and the two choices', () => {
    expect(panel(base)).not.toContain('Customers to match');
    const html = panel({ ...base, customerConflicts: [conflict] });
    expect(html).toContain('Customers to match');
    expect(html).toContain('The customer number belongs to another customer in Fortnox.');
    expect(html).toContain('10005 · Brf Björken · 769600-1234');
    expect(html).toContain('10005 · Helt Annat Bolag AB · 556000-0006');
    expect(html).toContain('Same as 10005 Helt Annat Bolag AB in Fortnox');
    expect(html).toContain('Create a new customer in Fortnox');
    // chosen "new": it says so instead of asking again; read-only: no choices
    const creating = panel({ ...base, customerConflicts: [{ ...conflict, createNew: true }] });
    expect(creating).toContain('A new customer is created in Fortnox with the next delivery.');
    expect(creating).not.toContain('Create a new customer in Fortnox');
    const readOnly = panel({ ...base, customerConflicts: [conflict] }, false);
    expect(readOnly).toContain('The customer number belongs to another customer in Fortnox.');
    expect(readOnly).not.toContain('Same as 10005');
  });

  it('names every capability a provider declares', () => {
    expect([...CAPABILITIES].sort()).toEqual(Object.keys(caps({})).sort());
  });
});
