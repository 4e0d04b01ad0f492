import type { Trx } from '~/core/db/with-tenant';

interface DemoAddress {
  street: string;
  postIndex: string;
  city: string;
  notes?: string;
  costCenter?: string;
  contactName?: string;
  contactPhone?: string;
}

interface DemoCustomer {
  customerId: string | null;
  name: string;
  type: 'company' | 'private';
  status?: 'active' | 'inactive';
  potential?: boolean;
  organizationalNumber?: string;
  vatNumber?: string;
  personId?: string;
  phone?: string;
  email?: string;
  paymentTermDays?: number;
  bgAccount?: string;
  defaultDiscount?: string;
  invoiceEmail?: string;
  broadcastEmail?: string;
  invoiceLanguage?: string;
  sendToErp?: boolean;
  /** Gets the "Avtalskund" price list when the articles demo made it. */
  contract?: boolean;
  notes?: string;
  contacts: { name: string; role?: string; phone?: string; email?: string }[];
  /** The first is the primary address. */
  addresses: DemoAddress[];
  /** Discounts per article group (the articles demo's group titles): "12%" or an amount. */
  groupDiscounts?: [string, 'PERCENTAGE' | 'REGULAR', string][];
  /** Own prices by article number (the articles demo's numbers). */
  prices?: [string, string][];
  zoneUsers?: { name: string; email: string }[];
}

/**
 * The demo company's customers: housing co-ops, shops, a school administration, two cities,
 * property owners and a few private persons around Stockholm, Uppsala and Västerås, numbered
 * 10001… (the objects demo links its objects to these numbers), plus one potential customer
 * without a number yet.
 */
export const DEMO_CUSTOMERS: DemoCustomer[] = [
  {
    customerId: '10001',
    name: 'Brf Solrosen',
    type: 'company',
    organizationalNumber: '769612-3459',
    phone: '08-640 12 30',
    email: 'styrelsen@brfsolrosen.se',
    paymentTermDays: 30,
    invoiceEmail: 'faktura@brfsolrosen.se',
    broadcastEmail: 'styrelsen@brfsolrosen.se',
    contract: true,
    notes: 'Nyckelbricka hämtas hos vaktmästaren, port 3.',
    contacts: [
      { name: 'Eva Ek', role: 'Ordförande', phone: '070-311 22 33', email: 'eva.ek@brfsolrosen.se' },
      { name: 'Jonas Berg', role: 'Vaktmästare', phone: '070-455 66 77' },
    ],
    addresses: [
      {
        street: 'Solrosvägen 12',
        postIndex: '120 47',
        city: 'Stockholm',
        notes: 'Portkod 1947',
        contactName: 'Jonas Berg',
        contactPhone: '070-455 66 77',
      },
      { street: 'Solrosvägen 14', postIndex: '120 47', city: 'Stockholm', notes: 'Cykelrum och soprum' },
    ],
    groupDiscounts: [['LARM', 'PERCENTAGE', '10.00']],
    zoneUsers: [{ name: 'Eva Ek', email: 'eva.ek@brfsolrosen.se' }],
  },
  {
    customerId: '10002',
    name: 'ICA Nära Fyris',
    type: 'company',
    organizationalNumber: '556677-8899',
    vatNumber: 'SE556677889901',
    phone: '018-12 34 50',
    email: 'butikschef@icafyris.se',
    paymentTermDays: 20,
    bgAccount: '575-1235',
    invoiceEmail: 'ekonomi@icafyris.se',
    contacts: [{ name: 'Mikael Holm', role: 'Butikschef', phone: '070-812 34 56', email: 'butikschef@icafyris.se' }],
    addresses: [
      { street: 'Fyrisgatan 8', postIndex: '753 15', city: 'Uppsala', notes: 'Varuintag på baksidan, ring på klockan' },
    ],
  },
  {
    customerId: '10003',
    name: 'Stockholms Stad – Utbildningsförvaltningen',
    type: 'company',
    organizationalNumber: '212000-0142',
    vatNumber: 'SE212000014201',
    phone: '08-508 33 000',
    paymentTermDays: 30,
    invoiceEmail: 'fakturor.utbildning@stockholm.se',
    contract: true,
    sendToErp: true,
    contacts: [
      {
        name: 'Helena Sjöberg',
        role: 'Fastighetssamordnare',
        phone: '08-508 33 120',
        email: 'helena.sjoberg@stockholm.se',
      },
      { name: 'Ali Hassan', role: 'Säkerhetssamordnare', phone: '08-508 33 145', email: 'ali.hassan@stockholm.se' },
    ],
    addresses: [
      {
        street: 'Hantverkargatan 2F',
        postIndex: '112 21',
        city: 'Stockholm',
        costCenter: 'UTB-100',
        notes: 'Fakturaadress',
      },
      {
        street: 'Skarpnäcks allé 50',
        postIndex: '128 33',
        city: 'Skarpnäck',
        costCenter: 'UTB-231',
        contactName: 'Rektor Lena Ahl',
        notes: 'Skarpnäcksskolan, larmcentral i källaren',
      },
      { street: 'Kista allé 10', postIndex: '164 40', city: 'Kista', costCenter: 'UTB-247', notes: 'Kista grundskola' },
    ],
    groupDiscounts: [
      ['LARM', 'PERCENTAGE', '12.00'],
      ['KAM', 'PERCENTAGE', '8.00'],
    ],
    prices: [['10001', '795.00']],
  },
  {
    customerId: '10004',
    name: 'Västerås Stad – Fastighetsförvaltningen',
    type: 'company',
    organizationalNumber: '212000-2080',
    vatNumber: 'SE212000208001',
    phone: '021-39 00 00',
    paymentTermDays: 30,
    invoiceEmail: 'leverantorsfakturor@vasteras.se',
    contract: true,
    contacts: [{ name: 'Per Lundqvist', role: 'Driftchef', phone: '021-39 12 40', email: 'per.lundqvist@vasteras.se' }],
    addresses: [
      { street: 'Stadshuset, Fiskartorget 1', postIndex: '722 15', city: 'Västerås', costCenter: 'FF-400' },
      {
        street: 'Kopparbergsvägen 31',
        postIndex: '722 13',
        city: 'Västerås',
        notes: 'Idrottshallen, nyckel i nyckelskåp 4',
      },
    ],
    groupDiscounts: [['PASS', 'PERCENTAGE', '10.00']],
  },
  {
    customerId: '10005',
    name: 'Brf Ekbacken',
    type: 'company',
    organizationalNumber: '769601-2345',
    phone: '018-50 20 10',
    email: 'info@brfekbacken.se',
    paymentTermDays: 30,
    contacts: [{ name: 'Gunilla Svensson', role: 'Kassör', phone: '073-222 10 10', email: 'gunilla@brfekbacken.se' }],
    addresses: [{ street: 'Ekbacksvägen 3', postIndex: '756 46', city: 'Uppsala', notes: 'Portkod 2210' }],
  },
  {
    customerId: '10006',
    name: 'Bergström Fastigheter AB',
    type: 'company',
    organizationalNumber: '556123-4567',
    vatNumber: 'SE556123456701',
    phone: '021-12 00 50',
    email: 'forvaltning@bergstromfastigheter.se',
    paymentTermDays: 30,
    bgAccount: '580-4562',
    defaultDiscount: '5.00',
    contract: true,
    invoiceEmail: 'faktura@bergstromfastigheter.se',
    contacts: [
      { name: 'Sofia Bergström', role: 'VD', phone: '070-600 11 22', email: 'sofia@bergstromfastigheter.se' },
      { name: 'Tomas Wik', role: 'Förvaltare', phone: '070-600 11 30', email: 'tomas@bergstromfastigheter.se' },
    ],
    addresses: [
      { street: 'Stora Gatan 44', postIndex: '722 12', city: 'Västerås' },
      { street: 'Sigurdsgatan 21', postIndex: '721 30', city: 'Västerås', notes: 'Kontorshus, entré B' },
    ],
    groupDiscounts: [['PASS', 'PERCENTAGE', '10.00']],
  },
  {
    customerId: '10007',
    name: 'Kista Science Tower Förvaltning AB',
    type: 'company',
    organizationalNumber: '556345-6789',
    vatNumber: 'SE556345678901',
    phone: '08-751 20 00',
    paymentTermDays: 45,
    bgAccount: '591-2340',
    invoiceEmail: 'ap@kistasciencetower.se',
    contacts: [
      {
        name: 'Daniel Ström',
        role: 'Säkerhetschef',
        phone: '070-751 20 05',
        email: 'daniel.strom@kistasciencetower.se',
      },
    ],
    addresses: [{ street: 'Färögatan 33', postIndex: '164 51', city: 'Kista', notes: 'Anmälan i receptionen plan 1' }],
  },
  {
    customerId: '10008',
    name: 'Guldsmeden i Uppsala AB',
    type: 'company',
    organizationalNumber: '556789-0123',
    vatNumber: 'SE556789012301',
    phone: '018-13 45 67',
    paymentTermDays: 15,
    contacts: [{ name: 'Maja Falk', role: 'Ägare', phone: '070-913 45 67', email: 'maja@guldsmedenuppsala.se' }],
    addresses: [
      { street: 'Svartbäcksgatan 12', postIndex: '753 20', city: 'Uppsala', notes: 'Överfallslarm vid kassan' },
    ],
  },
  {
    customerId: '10009',
    name: 'Hotell Fyrisån AB',
    type: 'company',
    organizationalNumber: '556901-2345',
    vatNumber: 'SE556901234501',
    phone: '018-10 20 30',
    paymentTermDays: 30,
    invoiceEmail: 'ekonomi@hotellfyrisan.se',
    invoiceLanguage: 'en',
    contacts: [{ name: 'Oscar Lind', role: 'Hotellchef', phone: '070-102 03 04', email: 'oscar@hotellfyrisan.se' }],
    addresses: [{ street: 'Västra Ågatan 22', postIndex: '753 09', city: 'Uppsala' }],
  },
  {
    customerId: '10010',
    name: 'Mälardalens Tandvård AB',
    type: 'company',
    organizationalNumber: '556432-1098',
    vatNumber: 'SE556432109801',
    phone: '021-41 41 00',
    paymentTermDays: 30,
    bgAccount: '5324-5676',
    contacts: [
      { name: 'Dr. Elin Norberg', role: 'Klinikchef', phone: '021-41 41 05', email: 'elin@malardalenstandvard.se' },
    ],
    addresses: [
      { street: 'Vasagatan 16', postIndex: '722 15', city: 'Västerås', notes: 'Läkemedelsskåp med eget larm' },
    ],
  },
  {
    customerId: '10011',
    name: 'Sjöbergs Bil AB',
    type: 'company',
    organizationalNumber: '556210-9876',
    vatNumber: 'SE556210987601',
    phone: '0171-44 55 00',
    paymentTermDays: 30,
    contacts: [{ name: 'Hans Sjöberg', role: 'VD', phone: '070-344 55 01', email: 'hans@sjobergsbil.se' }],
    addresses: [
      { street: 'Bangårdsgatan 7', postIndex: '745 37', city: 'Enköping', notes: 'Bilhall och verkstad, kameror ute' },
    ],
  },
  {
    customerId: '10012',
    name: 'Lars Nyström',
    type: 'private',
    personId: '19620415-1234',
    phone: '070-123 45 67',
    email: 'lars.nystrom@telia.com',
    paymentTermDays: 10,
    sendToErp: false,
    contacts: [],
    addresses: [{ street: 'Björkvägen 9', postIndex: '187 41', city: 'Täby', notes: 'Hund i huset' }],
  },
  {
    customerId: '10013',
    name: 'Karin och Per Ahlgren',
    type: 'private',
    personId: '19750830-5678',
    phone: '073-987 65 43',
    email: 'karin.ahlgren@gmail.com',
    paymentTermDays: 10,
    contacts: [{ name: 'Per Ahlgren', role: 'Sambo', phone: '073-987 65 44' }],
    addresses: [
      { street: 'Långgatan 4', postIndex: '745 31', city: 'Enköping' },
      {
        street: 'Sommarstigen 2',
        postIndex: '760 15',
        city: 'Gräddö',
        notes: 'Fritidshus, besök efter överenskommelse',
      },
    ],
  },
  {
    customerId: '10014',
    name: 'Anna Lindgren',
    type: 'private',
    personId: '19880212-2468',
    phone: '076-555 12 12',
    email: 'anna.lindgren@outlook.com',
    paymentTermDays: 10,
    contacts: [],
    addresses: [{ street: 'Tegelbruksvägen 18', postIndex: '191 44', city: 'Sollentuna' }],
  },
  {
    customerId: '10015',
    name: 'Gamla Bageriet i Sigtuna AB',
    type: 'company',
    status: 'inactive',
    organizationalNumber: '556555-1212',
    phone: '08-592 512 00',
    paymentTermDays: 30,
    notes: 'Verksamheten såld 2025; larmet avvecklat.',
    contacts: [],
    addresses: [{ street: 'Stora gatan 30', postIndex: '193 30', city: 'Sigtuna' }],
  },
  {
    customerId: null,
    name: 'Restaurang Sjöboden',
    type: 'company',
    potential: true,
    phone: '08-570 300 10',
    notes: 'Vill ha offert på kameror och passersystem till våren.',
    contacts: [{ name: 'Linnea Öberg', role: 'Krögare', phone: '070-570 30 10', email: 'linnea@sjoboden.se' }],
    addresses: [{ street: 'Strandvägen 1', postIndex: '184 50', city: 'Åkersberga' }],
  },
];

/**
 * Inserts the demo customers with their contacts, addresses, group discounts, own prices and
 * zone users. Idempotent: a customer whose number (or, without one, name) exists is left alone.
 * Price lists, groups and articles are looked up by title/number and skipped when missing.
 */
export async function seedDemoCustomers(trx: Trx): Promise<void> {
  const priceList = (await trx('price_lists').whereRaw('lower(title) = ?', ['avtalskund']).first('id')) as
    { id: string } | undefined;
  const groups = new Map(
    ((await trx('article_groups').select('id', 'title')) as { id: string; title: string }[]).map((g) => [
      g.title,
      g.id,
    ]),
  );
  const articles = new Map(
    ((await trx('articles').select('id', 'article_id')) as { id: string; article_id: string }[]).map((a) => [
      a.article_id,
      a.id,
    ]),
  );
  for (const c of DEMO_CUSTOMERS) {
    const exists = c.customerId
      ? await trx('customers').whereRaw('lower(customer_id) = lower(?)', [c.customerId]).first('id')
      : await trx('customers').whereNull('customer_id').where({ name: c.name }).first('id');
    if (exists) continue;
    const [{ id }] = (await trx('customers')
      .insert({
        customer_id: c.customerId,
        name: c.name,
        type: c.type,
        status: c.status ?? 'active',
        potential: c.potential ?? false,
        organizational_number: c.organizationalNumber ?? null,
        vat_number: c.vatNumber ?? null,
        person_id: c.personId ?? null,
        phone: c.phone ?? null,
        email: c.email ?? null,
        payment_term_days: c.paymentTermDays ?? null,
        bg_account: c.bgAccount ?? null,
        default_discount: c.defaultDiscount ?? null,
        price_list_id: c.contract && priceList ? priceList.id : null,
        invoice_language: c.invoiceLanguage ?? null,
        invoice_email: c.invoiceEmail ?? null,
        broadcast_email: c.broadcastEmail ?? null,
        send_to_erp: c.sendToErp ?? true,
        notes: c.notes ?? null,
      })
      .returning('id')) as { id: string }[];
    if (c.contacts.length)
      await trx('customer_contacts').insert(
        c.contacts.map((p, i) => ({
          customer_id: id,
          name: p.name,
          role: p.role ?? null,
          phone: p.phone ?? null,
          email: p.email ?? null,
          sort_order: i,
        })),
      );
    if (c.addresses.length)
      await trx('customer_addresses').insert(
        c.addresses.map((a, i) => ({
          customer_id: id,
          street: a.street,
          post_index: a.postIndex,
          city: a.city,
          notes: a.notes ?? null,
          cost_center: a.costCenter ?? null,
          contact_name: a.contactName ?? null,
          contact_phone: a.contactPhone ?? null,
          is_primary: i === 0,
          sort_order: i,
        })),
      );
    const discounts = (c.groupDiscounts ?? []).filter(([group]) => groups.has(group));
    if (discounts.length)
      await trx('customer_article_group_discounts').insert(
        discounts.map(([group, type, value]) => ({
          customer_id: id,
          article_group_id: groups.get(group),
          discount_type: type,
          discount_value: value,
        })),
      );
    const prices = (c.prices ?? []).filter(([article]) => articles.has(article));
    if (prices.length)
      await trx('customer_articles').insert(
        prices.map(([article, price]) => ({ customer_id: id, article_id: articles.get(article), price })),
      );
    for (const u of c.zoneUsers ?? []) {
      const taken = await trx('customer_zone_users').whereRaw('lower(email) = lower(?)', [u.email]).first('id');
      if (!taken)
        await trx('customer_zone_users').insert({
          customer_id: id,
          name: u.name,
          email: u.email,
          status: 'STATUS_ACTIVE',
        });
    }
    await trx('history').insert({
      entity: 'customer',
      entity_id: id,
      action: 'create',
      user_id: null,
      data: JSON.stringify({ customerId: c.customerId, name: c.name }),
    });
  }
}
