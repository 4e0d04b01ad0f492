import type { Trx } from '~/core/db/with-tenant';

/**
 * The demo company's wholesalers and manufacturers: numbers 2001…, real-looking bank details
 * (valid IBAN check digits and BICs of Swedish banks), tags and a contact each. Idempotent: a
 * supplier whose number exists is left alone.
 */
export const DEMO_SUPPLIERS = [
  {
    number: '2001',
    title: 'Ahlsell',
    name: 'Ahlsell Sverige AB',
    iban: 'SE7160000000000123456789',
    bic: 'HANDSESS',
    erpAccount: '4010',
    tags: ['el', 'grossist'],
    contact: { name: 'Johan Ek', role: 'Kundansvarig', phone: '08-685 70 00', email: 'johan.ek@ahlsell.se' },
  },
  {
    number: '2002',
    title: 'Elektroskandia',
    name: 'Elektroskandia Sverige AB',
    iban: 'SE5430000000003012345678',
    bic: 'NDEASESS',
    erpAccount: '4010',
    tags: ['el', 'kabel', 'grossist'],
    contact: { name: 'Lena Holm', role: 'Innesäljare', phone: '08-570 200 00', email: 'lena.holm@elektroskandia.se' },
  },
  {
    number: '2003',
    title: 'Solar',
    name: 'Solar Sverige AB',
    iban: 'SE5350000000005201234567',
    bic: 'ESSESESS',
    erpAccount: '4010',
    tags: ['el', 'grossist'],
    contact: { name: 'Mikael Strand', role: 'Säljare', phone: '031-771 20 00', email: 'mikael.strand@solar.se' },
  },
  {
    number: '2004',
    title: 'ASSA ABLOY Opening Solutions',
    name: 'ASSA ABLOY Opening Solutions Sweden AB',
    iban: 'SE6780000000084321987654',
    bic: 'SWEDSESS',
    erpAccount: '4020',
    tags: ['lås', 'dörrautomatik', 'tillverkare'],
    contact: {
      name: 'Karin Sjöberg',
      role: 'Teknisk support',
      phone: '016-17 70 00',
      email: 'karin.sjoberg@assaabloy.com',
    },
  },
  {
    number: '2005',
    title: 'Axis Communications',
    name: 'Axis Communications AB',
    iban: 'SE6912000000001234560789',
    bic: 'DABASESX',
    erpAccount: '4020',
    tags: ['kamera', 'tillverkare'],
    contact: { name: 'Per Lundgren', role: 'Partneransvarig', phone: '046-272 18 00', email: 'per.lundgren@axis.com' },
  },
  {
    number: '2006',
    title: 'Securitas Direct',
    name: 'Verisure Sverige AB',
    iban: 'SE9550000000005409876543',
    bic: 'ESSESESS',
    erpAccount: '4030',
    tags: ['larm', 'larmcentral'],
    contact: {
      name: 'Emma Wikström',
      role: 'Avtalsansvarig',
      phone: '0771-10 10 10',
      email: 'emma.wikstrom@verisure.se',
    },
  },
] as const;

export async function seedDemoSuppliers(trx: Trx): Promise<void> {
  for (const s of DEMO_SUPPLIERS) {
    const existing = await trx('suppliers').whereRaw('lower(number) = lower(?)', [s.number]).first('id');
    if (existing) continue;
    const [row] = await trx('suppliers')
      .insert({
        number: s.number,
        title: s.title,
        name: s.name,
        iban: s.iban,
        bic: s.bic,
        erp_account: s.erpAccount,
        tags: [...s.tags],
      })
      .returning('id');
    await trx('supplier_contacts').insert({ supplier_id: row.id, sort_order: 0, ...s.contact });
  }
}
