import { ocrReference } from '~/core/invoicing/ocr';
import { newQrRef } from '~/core/business-objects/business-object.service';
import type { Trx } from '~/core/db/with-tenant';
import { dateIn, wallClockToIso } from '~/core/work-orders/time-rules';
import { demoProjectDays } from './projects';
import { demoAbsenceDays } from './time';
import { DEMO_MODELS, objectKindOfTitle, type DemoObjectKind } from './objects';

/**
 * A year of plausible history for the demo company (issue 11): more customers around the Mälaren
 * valley, 150 objects in all, and 1,500 work orders over the past year: most closed with time,
 * articles and an invoice, a few overdue, this week's planned on the board, the newest waiting to
 * be planned. Deterministic (a seeded generator, dates relative to today), and written in a few
 * set-wise statements so a first start on the embedded database stays quick.
 */

export const DEMO_TARGET = { customers: 40, objects: 150, workOrders: 1500 } as const;

/** mulberry32: the same demo on every machine. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
    chance: (p: number) => next() < p,
  };
}

const CITIES: { city: string; post: string; lat: number; lng: number; phone: string }[] = [
  { city: 'Stockholm', post: '11', lat: 59.3293, lng: 18.0686, phone: '08' },
  { city: 'Solna', post: '171', lat: 59.3599, lng: 18.0, phone: '08' },
  { city: 'Sundbyberg', post: '172', lat: 59.3612, lng: 17.9718, phone: '08' },
  { city: 'Uppsala', post: '75', lat: 59.8586, lng: 17.6389, phone: '018' },
  { city: 'Västerås', post: '72', lat: 59.6099, lng: 16.5448, phone: '021' },
  { city: 'Enköping', post: '745', lat: 59.6361, lng: 17.0777, phone: '0171' },
  { city: 'Sigtuna', post: '193', lat: 59.6173, lng: 17.7236, phone: '08' },
  { city: 'Täby', post: '183', lat: 59.4439, lng: 18.0687, phone: '08' },
];
const STREETS = ['Storgatan', 'Kungsgatan', 'Industrivägen', 'Skolgatan', 'Parkvägen', 'Ringvägen', 'Hamngatan'];
const STREETS2 = ['Björkvägen', 'Lindallén', 'Torggatan', 'Verkstadsgatan', 'Bangårdsgatan', 'Åsvägen'];
const FIRST = ['Anna', 'Lars', 'Karin', 'Mikael', 'Eva', 'Johan', 'Maria', 'Per', 'Lena', 'Fredrik', 'Sofia', 'Ali'];
const LAST = ['Andersson', 'Karlsson', 'Lindberg', 'Holm', 'Sandberg', 'Ekström', 'Nyström', 'Hussein', 'Berg'];
const ROLES = ['Fastighetsförvaltare', 'Driftansvarig', 'Ordförande', 'Butikschef', 'Vaktmästare', 'Rektor'];

/** Customers beyond the hand-made ones: name and kind. */
const CUSTOMERS: [string, 'company' | 'private'][] = [
  ['Brf Kastanjen', 'company'],
  ['Brf Lärkan', 'company'],
  ['Brf Eken 4', 'company'],
  ['Brf Sjöutsikten', 'company'],
  ['Brf Tallbacken', 'company'],
  ['Brf Vallmon', 'company'],
  ['Mälardalens Fastigheter AB', 'company'],
  ['Sigtuna Logistikcenter AB', 'company'],
  ['Coop Enköping Centrum', 'company'],
  ['Hemköp Täby Park', 'company'],
  ['Apoteket Solna Station', 'company'],
  ['Västerås Bilcenter AB', 'company'],
  ['Uppsala Tandvård AB', 'company'],
  ['Solna Gymnasium', 'company'],
  ['Täby Simhall', 'company'],
  ['Sundbybergs Bibliotek', 'company'],
  ['Enköpings Golvservice AB', 'company'],
  ['Nordiska Kontorshotell AB', 'company'],
  ['Café Kronan', 'company'],
  ['Restaurang Hamnkrogen', 'company'],
  ['Vårdcentralen Kungsgärdet', 'company'],
  ['Förskolan Solstrålen', 'company'],
  ['Lindqvist Bygg & Montage AB', 'company'],
  ['Karin Holm', 'private'],
  ['Mikael Sandberg', 'private'],
  ['Eva Nyström', 'private'],
];

const PLACES = [
  'Teknikrum',
  'Entré',
  'Källare',
  'Lastkaj',
  'Trappuppgång 1',
  'Trappuppgång 2',
  'Garage',
  'Reception',
  'Lager',
];

/** What an order was about, by kind of work: titles that never repeat the hand-made orders'. */
const TITLES = {
  service: [
    'Årskontroll larmanläggning',
    'Service passersystem',
    'Kvartalsprov brandlarm',
    'Batteribyte i larmcentral',
    'Service dörrautomatik',
    'Funktionskontroll kamerasystem',
    'Besiktning hissdörr',
  ],
  fault: [
    'Falsklarm från rörelsedetektor',
    'Kortläsare svarar inte',
    'Kamera ur funktion',
    'Dörren öppnar inte automatiskt',
    'Larmcentral piper',
    'Kodlås trasigt',
    'Sabotagelarm på detektor',
  ],
  install: [
    'Installation av nya detektorer',
    'Montering av kamera vid entré',
    'Uppgradering av larmcentral',
    'Nytt kodlås till förråd',
    'Installation av passerläsare',
  ],
  small: ['Kodbyte efter personalbyte', 'Programmering av nya taggar', 'Utbildning i larmhantering'],
};

const DESCRIPTIONS: Record<keyof typeof TITLES, string> = {
  service: 'Kontroll enligt serviceavtal: funktion, batterier och larmöverföring.',
  fault: 'Kunden har ringt in felet. Felsök och åtgärda på plats.',
  install: 'Enligt offert. Dra kabel från teknikrummet och driftsätt.',
  small: 'Kort besök, boka tid med kontaktpersonen.',
};

type Row = Record<string, unknown>;

/** Inserts in slices: one statement per slice of rows, not one per row. */
async function insertAll(trx: Trx, table: string, rows: Row[], returning?: string[]): Promise<Row[]> {
  const out: Row[] = [];
  for (let i = 0; i < rows.length; i += 400) {
    const q = trx(table).insert(rows.slice(i, i + 400));
    if (returning) out.push(...((await q.returning(returning)) as Row[]));
    else await q;
  }
  return out;
}

const money = (n: number) => Math.round(n * 100) / 100;
/** The most order time (work and travel) the history gives a person on a day: inside the own 8.5 h. */
const DAY_BUDGET_MINUTES = 7.5 * 60;

interface Site {
  customerId: string;
  addressId: string | null;
  street: string | null;
  postIndex: string | null;
  city: string | null;
  lat: number | null;
  lng: number | null;
}

/** Customers beyond the hand-made ones, to about DEMO_TARGET.customers, each with an address and a contact. */
async function seedCustomers(trx: Trx, rnd: ReturnType<typeof generator>) {
  const have = Number(((await trx('customers').count({ n: '*' })) as { n: string }[])[0]!.n);
  const taken = new Set(
    ((await trx('customers').whereNotNull('customer_id').select('customer_id')) as { customer_id: string }[]).map(
      (c) => c.customer_id,
    ),
  );
  const plan = CUSTOMERS.slice(0, Math.max(0, DEMO_TARGET.customers - have))
    .map(([name, type], i) => ({ name, type, number: String(10101 + i), city: rnd.pick(CITIES) }))
    .filter((c) => !taken.has(c.number));
  if (!plan.length) return;
  const ids = (await insertAll(
    trx,
    'customers',
    plan.map((c) => ({
      customer_id: c.number,
      name: c.name,
      type: c.type,
      organizational_number: c.type === 'company' ? `55${rnd.int(1000, 9999)}-${rnd.int(1000, 9999)}` : null,
      phone: `${c.city.phone}-${rnd.int(100, 999)} ${rnd.int(10, 99)} ${rnd.int(10, 99)}`,
      email: c.type === 'company' ? `info@${c.name.toLowerCase().replace(/[^a-z]+/g, '')}.se` : null,
      payment_term_days: rnd.pick([10, 20, 30]),
      send_to_erp: true,
    })),
    ['id'],
  )) as { id: string }[];
  const contacts = plan.map((c, i) => {
    const name = c.type === 'private' ? c.name : `${rnd.pick(FIRST)} ${rnd.pick(LAST)}`;
    return {
      customer_id: ids[i]!.id,
      name,
      role: c.type === 'private' ? null : rnd.pick(ROLES),
      phone: `07${rnd.int(0, 9)}-${rnd.int(100, 999)} ${rnd.int(10, 99)} ${rnd.int(10, 99)}`,
      email: `${name.split(' ')[0]!.toLowerCase()}@example.se`.normalize('NFD').replace(/[\u0300-\u036f]/g, ''),
      sort_order: 0,
    };
  });
  await insertAll(trx, 'customer_contacts', contacts);
  await insertAll(
    trx,
    'customer_addresses',
    plan.map((c, i) => ({
      customer_id: ids[i]!.id,
      street: `${rnd.pick([...STREETS, ...STREETS2])} ${rnd.int(1, 60)}`,
      // a Swedish postal code is five digits, "123 45": the city's prefix and the rest
      post_index:
        `${c.city.post}${String(rnd.int(0, 10 ** (5 - c.city.post.length) - 1)).padStart(5 - c.city.post.length, '0')}`.replace(
          /^(\d{3})(\d{2})$/,
          '$1 $2',
        ),
      city: c.city.city,
      contact_name: contacts[i]!.name,
      contact_phone: contacts[i]!.phone,
      is_primary: true,
      sort_order: 0,
    })),
  );
}

/** Objects at the customers' sites, to DEMO_TARGET.objects in all. */
async function seedObjects(trx: Trx, rnd: ReturnType<typeof generator>, sites: Map<string, Site>) {
  const have = Number(((await trx('business_objects').count({ n: '*' })) as { n: string }[])[0]!.n);
  const models = ((await trx('models').select('id')) as { id: string }[]).map((m) => m.id);
  const customers = [...sites.keys()];
  const count = DEMO_TARGET.objects - have;
  if (count <= 0 || !models.length || !customers.length) return;
  await insertAll(
    trx,
    'business_objects',
    Array.from({ length: count }, (_, i) => {
      const site = sites.get(rnd.pick(customers))!;
      return {
        serial_code: `6${String(i + 1).padStart(4, '0')}`,
        model_id: rnd.pick(models),
        customer_id: site.customerId,
        location: rnd.pick(PLACES),
        location2: site.street,
        location3: site.city,
        // the objects a service agreement will cover once agreements are in Ordo
        description: rnd.chance(0.6) ? 'Serviceavtal planeras: årlig kontroll' : null,
        invoice_marking: rnd.chance(0.3) ? `Avtal ${rnd.int(100, 999)}` : null,
        qr_ref: newQrRef(),
      };
    }),
  );
}

export async function seedDemoHistory(trx: Trx, count: number, now = new Date()): Promise<void> {
  const rnd = generator(2026);
  const day = 86_400_000;
  const hour = 3_600_000;
  const zone = 'Europe/Stockholm';

  await seedCustomers(trx, rnd);
  const siteRows = (await trx('customers as c')
    .leftJoin('customer_addresses as a', (j) => j.on('a.customer_id', 'c.id').andOnVal('a.is_primary', '=', true))
    .where('c.status', 'active')
    .where('c.potential', false)
    .orderBy('c.customer_id')
    .select('c.id', 'a.id as address_id', 'a.street', 'a.post_index', 'a.city')) as Row[];
  const sites = new Map<string, Site>(
    siteRows.map((r) => {
      const city = CITIES.find((c) => c.city === r.city) ?? rnd.pick(CITIES);
      return [
        r.id as string,
        {
          customerId: r.id as string,
          addressId: (r.address_id as string) ?? null,
          street: (r.street as string) ?? null,
          postIndex: (r.post_index as string) ?? null,
          city: (r.city as string) ?? null,
          lat: city.lat,
          lng: city.lng,
        },
      ];
    }),
  );
  await seedObjects(trx, rnd, sites);
  if (count <= 0) return;

  // an order about a camera goes on a camera, one about a door on a door operator
  const kindOf = new Map<string, DemoObjectKind>(DEMO_MODELS.map((m) => [m.code.toUpperCase(), m.kind]));
  const objectsOf = new Map<string, { id: string; kind: DemoObjectKind | null }[]>();
  for (const o of (await trx('business_objects as o')
    .leftJoin('models as m', 'm.id', 'o.model_id')
    .whereNotNull('o.customer_id')
    .select('o.id', 'o.customer_id', 'm.code')) as { id: string; customer_id: string; code: string | null }[])
    objectsOf.set(o.customer_id, [
      ...(objectsOf.get(o.customer_id) ?? []),
      { id: o.id, kind: (o.code && kindOf.get(o.code.toUpperCase())) || null },
    ]);
  const users = new Map(
    ((await trx('users').select('id', 'email')) as { id: string; email: string }[]).map((u) => [u.email, u.id]),
  );
  const people = [
    ['erik.tekniker@nordlarm.se', 0.45],
    ['sara.tekniker@nordlarm.se', 0.4],
    ['admin@nordlarm.se', 0.15],
  ]
    .map(([email, weight]) => ({ id: users.get(email as string), weight: weight as number }))
    .filter((p): p is { id: string; weight: number } => Boolean(p.id));
  const person = () => {
    let x = rnd.next();
    for (const p of people) if ((x -= p.weight) < 0) return p.id;
    return people[0]!.id;
  };
  const statuses = (await trx('work_order_statuses').select('id', 'is_default', 'is_closing')) as Row[];
  const open = statuses.find((s) => s.is_default)!.id as string;
  const closing = statuses.find((s) => s.is_closing)!.id as string;
  const types = (await trx('work_types').orderBy('sort_order').select('id', 'name', 'is_default')) as Row[];
  const typeFor = (kind: keyof typeof TITLES) => {
    const want = kind === 'install' ? /install/i : kind === 'fault' ? /fel|fault|akut/i : /service/i;
    return (types.find((t) => want.test(String(t.name))) ?? types.find((t) => t.is_default) ?? types[0])!.id as string;
  };
  const articles = (await trx('articles')
    .where('price', '>', 0)
    .orderBy('article_id')
    .limit(40)
    .select('id', 'title', 'price', 'purchase_price')) as Row[];
  const admin = users.get('admin@nordlarm.se') ?? null;

  // This week, Monday to Friday, in the company's zone.
  const today = dateIn(now, zone);
  const todayDate = new Date(`${today}T12:00:00Z`);
  const weekday = (todayDate.getUTCDay() + 6) % 7; // Monday 0
  const weekDays = Array.from({ length: 5 }, (_, i) =>
    new Date(todayDate.getTime() + (i - weekday) * day).toISOString().slice(0, 10),
  );
  const at = (date: string, minutes: number) =>
    new Date(
      wallClockToIso(
        `${date}T${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`,
        zone,
      )!,
    );

  const { rows: numbering } = (await trx.raw(
    `update work_order_settings set next_number = next_number + ? returning number_prefix, next_number - ? as first`,
    [count, count],
  )) as { rows: { number_prefix: string | null; first: number }[] };
  const prefix = numbering[0]?.number_prefix ?? '';
  const first = Number(numbering[0]?.first ?? 1);

  const orders: Row[] = [];
  const assignees: Row[] = [];
  const plans: Row[] = [];
  const times: Row[] = [];
  const rows: Row[] = [];
  const invoices: Row[] = [];
  const invoiceRows: Row[] = [];
  let invoiceNr = 50001;
  const finalNumber = (nr: number) => ({ invoice_nr: String(nr), invoice_sequence: nr, ocr: ocrReference(nr) });
  const kinds: (keyof typeof TITLES)[] = ['service', 'service', 'service', 'fault', 'fault', 'install', 'small'];

  // A person's order time per day (issue 28: no impossible days). The history's visits are done on
  // working days within a working day's time, so the technicians' own 8.5 h rows cover them and no
  // month runs far beyond the schedule: a visit goes on the order's close day, or the latest working
  // day before it with room (back to the order's intake, and at least two weeks back), and when no
  // day has room, on the least busy of them at what room is left (at least a quarter of an hour).
  const booked = new Map<string, number>();
  const erik = users.get('erik.tekniker@nordlarm.se');
  // Erik's days on the demo project and the technicians' days away (seeded later) are full already
  if (erik) for (const p of demoProjectDays(now)) booked.set(`${erik}|${p.date}`, p.minutes);
  for (const a of demoAbsenceDays(now)) booked.set(`${users.get(a.email)}|${a.date}`, DAY_BUDGET_MINUTES);
  const isWorkingDay = (date: string) => ![0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay());
  const dayBefore = (date: string) => new Date(Date.parse(`${date}T12:00:00Z`) - day).toISOString().slice(0, 10);
  const workDayFor = (userId: string, closedDay: string, intakeDay: string, minutes: number, travel: number) => {
    const used = (date: string) => booked.get(`${userId}|${date}`) ?? 0;
    const days: string[] = [];
    for (let d = closedDay; days.length < 15 && (d >= intakeDay || days.length < 10); d = dayBefore(d))
      if (isWorkingDay(d)) days.push(d);
    const date =
      days.find((d) => used(d) + minutes + travel <= DAY_BUDGET_MINUTES) ??
      days.reduce((least, d) => (used(d) < used(least) ? d : least));
    const fits = Math.max(15, Math.floor((DAY_BUDGET_MINUTES - used(date) - travel) / 15) * 15);
    const worked = Math.min(minutes, fits);
    booked.set(`${userId}|${date}`, used(date) + worked + travel);
    return { date, minutes: worked };
  };

  for (let i = 0; i < count; i++) {
    const id = crypto.randomUUID();
    const kind = rnd.pick(kinds);
    const site = sites.get(rnd.pick([...sites.keys()]))!;
    const title = rnd.pick(TITLES[kind]);
    const wanted = objectKindOfTitle(title);
    const objects = (objectsOf.get(site.customerId) ?? []).filter((o) => !wanted || o.kind === wanted).map((o) => o.id);
    const age = (365 * (count - i)) / count - rnd.next() * 0.8;
    const intake = new Date(now.getTime() - age * day);
    const who = [person()];
    if (kind === 'install' && rnd.chance(0.5)) {
      const second = person();
      if (second !== who[0]) who.push(second);
    }
    // What became of it: closed (most), booked this week, overdue, or waiting to be planned.
    let closedAt: Date | null = null;
    let plan: { date: string; start: number; minutes: number } | null = null;
    if (age > 10 && age <= 40 && kind === 'service' && rnd.chance(0.3))
      plan = {
        date: rnd.pick(weekDays),
        start: rnd.pick([420, 480, 540, 600, 780]),
        minutes: rnd.pick([60, 120, 180]),
      };
    else if (age > 10) {
      if (rnd.chance(0.96))
        closedAt = new Date(Math.min(intake.getTime() + rnd.int(0, 8) * day + 6 * hour, now.getTime() - 2 * hour));
      else {
        // overdue: its visit was planned, and passed, and the order is still open
        const date = dateIn(new Date(intake.getTime() + 2 * day), zone);
        plan = { date, start: 480, minutes: 120 };
      }
    } else if (age > 3) {
      if (rnd.chance(0.5))
        closedAt = new Date(Math.min(intake.getTime() + rnd.int(0, 2) * day + 4 * hour, now.getTime() - hour));
      else plan = { date: rnd.pick(weekDays), start: rnd.pick([420, 480, 600, 780]), minutes: 120 };
    } else if (rnd.chance(0.5)) {
      const ahead = weekDays.filter((d) => d >= today);
      plan = { date: rnd.pick(ahead.length ? ahead : weekDays), start: rnd.pick([480, 600, 780]), minutes: 90 };
    }
    const start = plan ? at(plan.date, plan.start) : null;
    const end = start && plan ? new Date(start.getTime() + plan.minutes * 60_000) : null;
    const placed = rnd.chance(0.97) && site.lat !== null;
    orders.push({
      id,
      number: `${prefix}${first + i}`,
      title,
      description: DESCRIPTIONS[kind],
      customer_id: site.customerId,
      business_object_id: objects.length && rnd.chance(0.75) ? rnd.pick(objects) : null,
      status_id: closedAt ? closing : open,
      work_type_id: typeFor(kind),
      priority: kind === 'fault' ? rnd.pick(['high', 'medium']) : rnd.pick(['medium', 'medium', 'low']),
      customer_address_id: site.addressId,
      street: site.street,
      post_index: site.postIndex,
      city: site.city,
      planned_start: start,
      planned_end: end,
      intake_ts: intake,
      update_ts: closedAt ?? intake,
      closed_at: closedAt,
      create_user_id: admin,
      location_lat: placed ? Number((site.lat! + (rnd.next() - 0.5) * 0.04).toFixed(6)) : null,
      location_lng: placed ? Number((site.lng! + (rnd.next() - 0.5) * 0.08).toFixed(6)) : null,
    });
    for (const user_id of who) {
      assignees.push({ work_order_id: id, user_id });
      if (plan && start && end)
        plans.push({
          work_order_id: id,
          user_id,
          date: plan.date,
          start_ts: start,
          end_ts: end,
          created_by: admin,
          created_at: intake,
          updated_at: intake,
        });
    }
    if (!closedAt) continue;

    // Closed: the time, the material, and the invoice (a draft for the last two days' orders).
    const closedDay = dateIn(closedAt, zone);
    let sum = 0;
    const own: Row[] = [];
    for (const user_id of who) {
      const wanted = rnd.int(2, 16) * 15;
      const travel = rnd.pick([15, 20, 30, 45]);
      const { date, minutes } = workDayFor(user_id, closedDay, dateIn(intake, zone), wanted, travel);
      // on the close day the visit ends when the order closes; on an earlier day it ends at 16:00
      const end = date === closedDay ? closedAt : at(date, 16 * 60);
      times.push({
        work_order_id: id,
        user_id,
        date,
        start_ts: new Date(end.getTime() - minutes * 60_000),
        end_ts: end,
        work_minutes: minutes,
        travel_minutes: travel,
        distance_km: rnd.int(4, 60),
        created_at: closedAt,
      });
    }
    const lines = kind === 'small' ? rnd.int(0, 1) : rnd.int(1, 3);
    for (let k = 0; k < lines && articles.length; k++) {
      const a = rnd.pick(articles);
      const amount = rnd.int(1, 3);
      const price = Number(a.price);
      const total = money(amount * price);
      sum += total;
      own.push({ article_id: a.id, title: a.title, amount, price, total, sort_order: k });
      rows.push({
        work_order_id: id,
        article_id: a.id,
        title: a.title,
        amount,
        price,
        purchase_price: a.purchase_price ?? null,
        total,
        sort_order: k,
        user_id: who[0],
        created_at: closedAt,
      });
    }
    const invoiceId = crypto.randomUUID();
    const finalized = now.getTime() - closedAt.getTime() > 2 * day;
    const fee = 40;
    const net = money(sum + fee);
    invoices.push({
      id: invoiceId,
      status: finalized ? 'finalized' : 'draft',
      ...(finalized ? finalNumber(invoiceNr++) : { invoice_nr: null }),
      work_order_id: id,
      customer_id: site.customerId,
      invoice_date: closedDay,
      delivery_date: closedDay,
      payment_due_date: new Date(closedAt.getTime() + 30 * day).toISOString().slice(0, 10),
      invoice_fee: fee,
      vat_percentage: 25,
      total_price: net,
      total_price_vat: money(net * 1.25),
      create_user_id: admin,
      create_ts: closedAt,
    });
    own.forEach((r) => invoiceRows.push({ ...r, invoice_id: invoiceId, kind: 'article' }));
    invoiceRows.push({
      invoice_id: invoiceId,
      title: 'Fakturaavgift',
      amount: 1,
      price: fee,
      total: fee,
      sort_order: own.length,
      kind: 'fee',
    });
  }

  await insertAll(trx, 'work_orders', orders);
  await insertAll(trx, 'work_order_assignees', assignees);
  await insertAll(trx, 'work_order_schedules', plans);
  await insertAll(trx, 'work_order_time', times);
  await insertAll(trx, 'work_order_articles', rows);
  await insertAll(trx, 'invoices', invoices);
  await insertAll(trx, 'invoice_rows', invoiceRows);
  // the figures as core/invoicing makes them (every row at 25 %): VAT, whole kronor with the öre
  // rounding, the amount to pay; and the counter past the last number, so new invoices follow on
  await trx.raw(
    `update invoices set vat_total = round(total_price * 0.25, 2),
            total_price_vat = round(total_price + round(total_price * 0.25, 2), 0),
            rounding = round(total_price + round(total_price * 0.25, 2), 0) - (total_price + round(total_price * 0.25, 2)),
            to_pay = round(total_price + round(total_price * 0.25, 2), 0)
      where id in (select cast(jsonb_array_elements_text(cast(? as jsonb)) as uuid))`,
    [JSON.stringify(invoices.map((i) => i.id))],
  );
  await trx.raw(
    `update invoice_settings set next_invoice_nr = greatest(next_invoice_nr, (select coalesce(max(invoice_sequence), 0) + 1 from invoices))`,
  );
  await trx('schedule_board').increment('version', 1);
}
