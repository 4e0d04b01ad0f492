import type { Trx } from '~/core/db/with-tenant';

/**
 * The demo company's contracts (issue 16 item 6): two open ones with their services, so the list
 * and the contract screen have something to show — one running into next year, one ending in two
 * months. Dates are relative to today. Idempotent: a tenant that has contracts is left alone.
 */
const DAY = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export async function seedDemoContracts(trx: Trx, now = new Date()): Promise<void> {
  if (await trx('contracts').first('id')) return;
  const customers = new Map(
    (
      (await trx('customers').whereIn('customer_id', ['10001', '10002']).select('id', 'customer_id')) as {
        id: string;
        customer_id: string;
      }[]
    ).map((c) => [c.customer_id, c.id]),
  );
  const users = new Map(
    ((await trx('users').select('id', 'email')) as { id: string; email: string }[]).map((u) => [u.email, u.id]),
  );
  const admin = users.get('admin@nordlarm.se') ?? null;
  const year = now.getUTCFullYear();
  const contracts = [
    {
      number: '10001',
      title: 'Larmcentral och service',
      customer: '10001',
      contact: { name: 'Eva Ek', email: 'eva.ek@brfsolrosen.se', phone: '070-311 22 33' },
      salesUser: admin,
      start: `${year}-01-01`,
      stop: `${year + 1}-12-31`,
      invoiceReference: 'Styrelsen, ref. Eva Ek',
      services: [
        { name: 'Uppkoppling larmcentral', value: '4800.00', cost: '1900.00' },
        { name: 'Service två gånger per år', value: '6400.00', cost: '3100.00' },
        { name: 'Utryckning vid larm (fri)', value: '2500.00', cost: '1400.00' },
      ],
    },
    {
      number: '10002',
      title: 'Kameraövervakning drift',
      customer: '10002',
      contact: { name: 'Mikael Holm', email: 'butikschef@icafyris.se', phone: '070-812 34 56' },
      salesUser: users.get('anna.kontor@nordlarm.se') ?? admin,
      start: isoDay(new Date(now.getTime() - 300 * DAY)),
      stop: isoDay(new Date(now.getTime() + 60 * DAY)),
      invoiceReference: 'ICA 7731',
      services: [
        { name: 'Molnlagring, 8 kameror', value: '3600.00', cost: '1200.00' },
        { name: 'Fjärrsupport', value: '2400.00', cost: '600.00' },
      ],
    },
  ];
  for (const c of contracts) {
    const customerId = customers.get(c.customer);
    if (!customerId) continue;
    const [row] = (await trx('contracts')
      .insert({
        contract_number: c.number,
        title: c.title,
        customer_id: customerId,
        contact_name: c.contact.name,
        contact_email: c.contact.email,
        contact_phone: c.contact.phone,
        sales_user_id: c.salesUser,
        create_user_id: admin,
        start_date: c.start,
        stop_date: c.stop,
        invoice_reference: c.invoiceReference,
      })
      .returning('id')) as { id: string }[];
    await trx('contract_services').insert(
      c.services.map((s, i) => ({ contract_id: row!.id, name: s.name, value: s.value, cost: s.cost, sort_order: i })),
    );
  }
}
