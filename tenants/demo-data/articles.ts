import type { Trx } from '~/core/db/with-tenant';

/** The demo company's article groups: alarm, access control, cameras, labour and travel, material. */
export const DEMO_ARTICLE_GROUPS = [
  { title: 'LARM', displayName: 'Inbrottslarm' },
  { title: 'PASS', displayName: 'Passersystem' },
  { title: 'KAM', displayName: 'Kamerabevakning' },
  { title: 'ARB', displayName: 'Arbete och resor' },
  { title: 'MTRL', displayName: 'Installationsmaterial' },
] as const;

type Group = (typeof DEMO_ARTICLE_GROUPS)[number]['title'];

interface DemoArticle {
  articleId: string;
  title: string;
  group: Group;
  unit: string;
  price: string;
  purchasePrice: string;
  productType: 'service' | 'stock' | 'non_stock';
  eNumber?: string;
  stock?: string;
  location?: string;
  houseWork?: boolean;
  security?: boolean;
  lineType?: 'regular' | 'freetext';
  description?: string;
  /** Supplier title (tenants/demo-data/suppliers) and its article number, if that supplier exists. */
  supplier?: [string, string];
}

/** About 25 articles a Swedish security installer sells: detectors, sirens, keypads, cards, cameras, hours. */
export const DEMO_ARTICLES: DemoArticle[] = [
  {
    articleId: '10001',
    title: 'Rörelsedetektor PIR 12 m',
    group: 'LARM',
    unit: 'st',
    price: '895.00',
    purchasePrice: '412.00',
    productType: 'stock',
    eNumber: 'E1840101',
    stock: '24',
    location: 'Hylla A1',
    security: true,
    supplier: ['Ahlsell', 'AH-558201'],
  },
  {
    articleId: '10002',
    title: 'Dual-teknikdetektor PIR/mikrovåg',
    group: 'LARM',
    unit: 'st',
    price: '1390.00',
    purchasePrice: '690.00',
    productType: 'stock',
    eNumber: 'E1840102',
    stock: '8',
    location: 'Hylla A1',
    security: true,
    supplier: ['Ahlsell', 'AH-558215'],
  },
  {
    articleId: '10003',
    title: 'Magnetkontakt infälld, vit',
    group: 'LARM',
    unit: 'st',
    price: '189.00',
    purchasePrice: '64.50',
    productType: 'stock',
    eNumber: 'E1840120',
    stock: '60',
    location: 'Hylla A2',
    security: true,
    supplier: ['Elektroskandia', 'ES-77120'],
  },
  {
    articleId: '10004',
    title: 'Glaskrossdetektor akustisk',
    group: 'LARM',
    unit: 'st',
    price: '1150.00',
    purchasePrice: '540.00',
    productType: 'stock',
    eNumber: 'E1840131',
    stock: '6',
    location: 'Hylla A2',
    security: true,
  },
  {
    articleId: '10005',
    title: 'Inomhussiren 105 dB',
    group: 'LARM',
    unit: 'st',
    price: '650.00',
    purchasePrice: '248.00',
    productType: 'stock',
    eNumber: 'E1840140',
    stock: '12',
    location: 'Hylla A3',
    security: true,
  },
  {
    articleId: '10006',
    title: 'Utomhussiren med blixtljus',
    group: 'LARM',
    unit: 'st',
    price: '2450.00',
    purchasePrice: '1180.00',
    productType: 'stock',
    eNumber: 'E1840141',
    stock: '4',
    location: 'Hylla A3',
    security: true,
  },
  {
    articleId: '10007',
    title: 'Manöverpanel med kortläsare',
    group: 'LARM',
    unit: 'st',
    price: '3290.00',
    purchasePrice: '1650.00',
    productType: 'stock',
    eNumber: 'E1840150',
    stock: '5',
    location: 'Hylla A4',
    security: true,
  },
  {
    articleId: '10008',
    title: 'Larmcentral 32 sektioner',
    group: 'LARM',
    unit: 'st',
    price: '6900.00',
    purchasePrice: '3420.00',
    productType: 'stock',
    eNumber: 'E1840160',
    stock: '3',
    location: 'Hylla A5',
    security: true,
  },
  {
    articleId: '10009',
    title: 'Brandvarnare seriekopplad',
    group: 'LARM',
    unit: 'st',
    price: '495.00',
    purchasePrice: '198.00',
    productType: 'stock',
    eNumber: 'E1840170',
    stock: '30',
    location: 'Hylla A6',
  },
  {
    articleId: '10010',
    title: 'Larmöverföring 4G, årsavgift',
    group: 'LARM',
    unit: 'år',
    price: '2400.00',
    purchasePrice: '1100.00',
    productType: 'non_stock',
    supplier: ['Securitas Direct', 'SD-4G-12'],
  },
  {
    articleId: '20001',
    title: 'Passerkort MIFARE DESFire',
    group: 'PASS',
    unit: 'st',
    price: '45.00',
    purchasePrice: '14.90',
    productType: 'stock',
    stock: '500',
    location: 'Låda P1',
    security: true,
    supplier: ['ASSA ABLOY Opening Solutions', 'AAOS-DF-EV2'],
  },
  {
    articleId: '20002',
    title: 'Nyckelbricka MIFARE, blå',
    group: 'PASS',
    unit: 'st',
    price: '39.00',
    purchasePrice: '11.20',
    productType: 'stock',
    stock: '300',
    location: 'Låda P1',
    security: true,
  },
  {
    articleId: '20003',
    title: 'Kortläsare med knappsats',
    group: 'PASS',
    unit: 'st',
    price: '4150.00',
    purchasePrice: '2080.00',
    productType: 'stock',
    eNumber: 'E1850210',
    stock: '6',
    location: 'Hylla P2',
    security: true,
    supplier: ['ASSA ABLOY Opening Solutions', 'AAOS-R200'],
  },
  {
    articleId: '20004',
    title: 'Dörrcentral 2 dörrar',
    group: 'PASS',
    unit: 'st',
    price: '8900.00',
    purchasePrice: '4450.00',
    productType: 'stock',
    eNumber: 'E1850220',
    stock: '2',
    location: 'Hylla P3',
    security: true,
  },
  {
    articleId: '20005',
    title: 'Elslutbleck 12–24 V',
    group: 'PASS',
    unit: 'st',
    price: '1790.00',
    purchasePrice: '860.00',
    productType: 'stock',
    eNumber: 'E1850230',
    stock: '9',
    location: 'Hylla P3',
    security: true,
    supplier: ['ASSA ABLOY Opening Solutions', 'AAOS-ES-1224'],
  },
  {
    articleId: '30001',
    title: 'Domkamera 4 MP IR',
    group: 'KAM',
    unit: 'st',
    price: '3450.00',
    purchasePrice: '1720.00',
    productType: 'stock',
    eNumber: 'E1860301',
    stock: '7',
    location: 'Hylla K1',
    security: true,
    supplier: ['Axis Communications', 'AXIS-M3215'],
  },
  {
    articleId: '30002',
    title: 'Bulletkamera 8 MP utomhus',
    group: 'KAM',
    unit: 'st',
    price: '5290.00',
    purchasePrice: '2690.00',
    productType: 'stock',
    eNumber: 'E1860302',
    stock: '3',
    location: 'Hylla K1',
    security: true,
    supplier: ['Axis Communications', 'AXIS-P1468'],
  },
  {
    articleId: '30003',
    title: 'Nätverksinspelare 8 kanaler',
    group: 'KAM',
    unit: 'st',
    price: '7800.00',
    purchasePrice: '3990.00',
    productType: 'stock',
    eNumber: 'E1860310',
    stock: '2',
    location: 'Hylla K2',
    security: true,
  },
  {
    articleId: '30004',
    title: 'Hårddisk 4 TB övervakning',
    group: 'KAM',
    unit: 'st',
    price: '1650.00',
    purchasePrice: '890.00',
    productType: 'non_stock',
  },
  {
    articleId: '90001',
    title: 'Arbetstid tekniker',
    group: 'ARB',
    unit: 'tim',
    price: '725.00',
    purchasePrice: '0.00',
    productType: 'service',
    houseWork: true,
  },
  {
    articleId: '90002',
    title: 'Arbetstid tekniker, jour',
    group: 'ARB',
    unit: 'tim',
    price: '1150.00',
    purchasePrice: '0.00',
    productType: 'service',
  },
  {
    articleId: '90003',
    title: 'Resa',
    group: 'ARB',
    unit: 'st',
    price: '495.00',
    purchasePrice: '0.00',
    productType: 'service',
    description: 'Framkörning inom 30 km från Sundbyberg.',
  },
  {
    articleId: '90004',
    title: 'Milersättning',
    group: 'ARB',
    unit: 'mil',
    price: '65.00',
    purchasePrice: '0.00',
    productType: 'service',
  },
  {
    articleId: '90005',
    title: 'Programmering och driftsättning',
    group: 'ARB',
    unit: 'tim',
    price: '850.00',
    purchasePrice: '0.00',
    productType: 'service',
  },
  {
    articleId: '90009',
    title: 'Fritext',
    group: 'ARB',
    unit: 'st',
    price: '0.00',
    purchasePrice: '0.00',
    productType: 'service',
    lineType: 'freetext',
  },
  {
    articleId: '95001',
    title: 'Installationskabel 4x2x0,5',
    group: 'MTRL',
    unit: 'm',
    price: '14.50',
    purchasePrice: '4.90',
    productType: 'stock',
    eNumber: 'E0071402',
    stock: '1200',
    location: 'Kabelrulle 3',
    supplier: ['Solar', 'SOL-4225105'],
  },
  {
    articleId: '95002',
    title: 'Dosa och fästmaterial',
    group: 'MTRL',
    unit: 'st',
    price: '35.00',
    purchasePrice: '9.80',
    productType: 'non_stock',
    supplier: ['Elektroskandia', 'ES-30011'],
  },
];

/**
 * Price lists: "Avtalskund" (service-agreement customers) gives 10 % off alarm and access products
 * and sells cameras at purchase price + 45 %; "Bostadsrättsförening" 5 % off labour.
 */
export const DEMO_PRICE_LISTS = [
  {
    title: 'Avtalskund',
    description: 'Kunder med serviceavtal',
    groups: [
      { group: 'LARM', pricingType: 'discount', value: '10' },
      { group: 'PASS', pricingType: 'discount', value: '10' },
      { group: 'KAM', pricingType: 'markup_purchase', value: '45' },
    ],
  },
  {
    title: 'Bostadsrättsförening',
    description: 'Ramavtal för föreningar',
    groups: [
      { group: 'ARB', pricingType: 'discount', value: '5' },
      { group: 'MTRL', pricingType: 'markup_sales', value: '0' },
    ],
  },
] as const;

/**
 * The demo company's article groups, articles (with opening stock), price lists and, for suppliers
 * that already exist, who sells which article. Plain inserts; idempotent (rows whose ID exists are
 * left alone), so it may run before or after the suppliers — run it after them to get the links.
 */
export async function seedDemoArticles(trx: Trx): Promise<void> {
  for (const g of DEMO_ARTICLE_GROUPS)
    await trx.raw(`insert into article_groups (title, display_name) values (?, ?) on conflict do nothing`, [
      g.title,
      g.displayName,
    ]);
  const groups = new Map(
    ((await trx('article_groups').select('id', 'title')) as { id: string; title: string }[]).map((g) => [
      g.title,
      g.id,
    ]),
  );
  for (const a of DEMO_ARTICLES) {
    const inserted = (await trx.raw(
      `insert into articles (article_id, title, description, unit, e_number, article_group_id, price, purchase_price,
                             product_type, line_type, house_work, security, stock_amount, stock_location)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict do nothing returning id`,
      [
        a.articleId,
        a.title,
        a.description ?? null,
        a.unit,
        a.eNumber ?? null,
        groups.get(a.group) ?? null,
        a.price,
        a.purchasePrice,
        a.productType,
        a.lineType ?? 'regular',
        a.houseWork ?? false,
        a.security ?? false,
        a.stock ?? '0',
        a.location ?? null,
      ],
    )) as { rows: { id: string }[] };
    const id = inserted.rows[0]?.id;
    if (!id) continue;
    if (a.stock)
      await trx('stock_movements').insert({
        article_id: id,
        type: 'add',
        amount: a.stock,
        price: a.purchasePrice,
        balance: a.stock,
      });
  }
  for (const list of DEMO_PRICE_LISTS) {
    const created = (await trx.raw(
      `insert into price_lists (title, description) values (?, ?) on conflict do nothing returning id`,
      [list.title, list.description],
    )) as { rows: { id: string }[] };
    const listId = created.rows[0]?.id;
    if (!listId) continue;
    await trx('price_list_groups').insert(
      list.groups.map((g) => ({
        price_list_id: listId,
        article_group_id: groups.get(g.group),
        pricing_type: g.pricingType,
        value: g.value,
      })),
    );
  }
  // Who sells what, for the suppliers that exist (matched by title).
  const suppliers = new Map(
    ((await trx('suppliers').select('id', 'title')) as { id: string; title: string }[]).map((s) => [s.title, s.id]),
  );
  const articles = new Map(
    (
      (await trx('articles').select('id', 'article_id', 'purchase_price')) as {
        id: string;
        article_id: string;
        purchase_price: string;
      }[]
    ).map((a) => [a.article_id, a]),
  );
  for (const a of DEMO_ARTICLES) {
    const supplierId = a.supplier && suppliers.get(a.supplier[0]);
    const article = articles.get(a.articleId);
    if (!supplierId || !article) continue;
    await trx.raw(
      `insert into article_suppliers (article_id, supplier_id, supplier_article_number, purchase_price, is_primary)
       values (?, ?, ?, ?, true) on conflict do nothing`,
      [article.id, supplierId, a.supplier![1], a.purchasePrice],
    );
  }
}
