import type { Trx } from '~/core/db/with-tenant';
import { dateIn } from '~/core/work-orders/time-rules';
import { DEMO_TARGET, seedDemoHistory } from './history';

/**
 * The demo company's work orders: a morning's worth of open orders at the demo customers' sites,
 * planned and unplanned, assigned to the demo technicians, plus two closed this week. Numbers come
 * from the tenant's numbering, as a created order's would. Idempotent: seeds only when there are none.
 */
interface DemoOrder {
  title: string;
  description: string;
  customer: string;
  serial: string | null;
  assignees: string[];
  workType: string;
  priority: 'high' | 'medium' | 'low';
  /** Days from today (at 08:00 UTC) the visit is planned; null: not planned. */
  plannedInDays: number | null;
  closedDaysAgo?: number;
  /** Where a geocoder would place the site (the map tab); none: its address was not found. */
  position?: [number, number];
}

const ORDERS: DemoOrder[] = [
  {
    title: 'Årlig service inbrottslarm',
    description: 'Årlig kontroll av central, detektorer och batterier enligt avtal.',
    customer: '10001',
    serial: '50001',
    position: [59.2721, 18.0513],
    assignees: ['erik.tekniker@nordlarm.se'],
    workType: 'Service',
    priority: 'medium',
    plannedInDays: 1,
  },
  {
    title: 'Larmet löser ut på natten',
    description: 'Kunden rapporterar falsklarm i trapphus B tre nätter i rad. Kontrollera rörelsedetektor.',
    customer: '10001',
    // the burglar alarm the detectors belong to (50002 is the entrance camera)
    serial: '50001',
    position: [59.2723, 18.0518],
    assignees: ['erik.tekniker@nordlarm.se'],
    workType: 'Service',
    priority: 'high',
    plannedInDays: 0,
  },
  {
    title: 'Installera kameror vid lastkaj',
    description: 'Två nya kameror enligt offert, dra kabel från teknikrummet.',
    customer: '10002',
    serial: null,
    position: [59.8586, 17.6389],
    assignees: ['sara.tekniker@nordlarm.se'],
    workType: 'Installation',
    priority: 'medium',
    plannedInDays: 3,
  },
  {
    title: 'Byt kortläsare entré',
    description: 'Kortläsaren vid huvudentrén är trasig efter skadegörelse.',
    customer: '10003',
    serial: null,
    assignees: ['sara.tekniker@nordlarm.se', 'erik.tekniker@nordlarm.se'],
    workType: 'Service',
    priority: 'high',
    plannedInDays: null,
  },
  {
    title: 'Programmera nya taggar',
    description: 'Kunden behöver 20 nya taggar till passersystemet.',
    customer: '10004',
    serial: null,
    position: [59.6099, 16.5448],
    assignees: ['admin@nordlarm.se'],
    workType: 'Service',
    priority: 'low',
    plannedInDays: null,
  },
  {
    title: 'Service brandlarm',
    description: 'Halvårskontroll av brandlarmet.',
    customer: '10005',
    serial: null,
    position: [59.8468, 17.6645],
    assignees: ['erik.tekniker@nordlarm.se'],
    workType: 'Service',
    priority: 'medium',
    plannedInDays: null,
    closedDaysAgo: 0,
  },
  {
    title: 'Justera dörrautomatik',
    description: 'Dörren stänger för hårt, justera stängningskraften.',
    customer: '10002',
    serial: null,
    assignees: ['sara.tekniker@nordlarm.se'],
    workType: 'Service',
    priority: 'low',
    plannedInDays: null,
    closedDaysAgo: 1,
  },
];

export async function seedDemoWorkOrders(trx: Trx): Promise<void> {
  if (await trx('work_orders').first('id')) return;
  // A year of history first (lower numbers, older dates), then this morning's hand-made orders.
  await seedDemoHistory(trx, DEMO_TARGET.workOrders - ORDERS.length);
  const customers = new Map<string, { id: string; name: string }>(
    (
      await trx('customers')
        .whereIn('customer_id', [...new Set(ORDERS.map((o) => o.customer))])
        .select('id', 'customer_id', 'name')
    ).map((c: { id: string; customer_id: string; name: string }) => [c.customer_id, c]),
  );
  const objects = new Map<string, string>(
    (await trx('business_objects').select('id', 'serial_code')).map((b: { id: string; serial_code: string }) => [
      b.serial_code,
      b.id,
    ]),
  );
  const users = new Map<string, string>(
    (await trx('users').select('id', 'email')).map((u: { id: string; email: string }) => [u.email, u.id]),
  );
  const statuses: { id: string; is_default: boolean; is_closing: boolean }[] = await trx('work_order_statuses').select(
    'id',
    'is_default',
    'is_closing',
  );
  const open = statuses.find((s) => s.is_default)!;
  const closing = statuses.find((s) => s.is_closing)!;
  const types = new Map<string, string>(
    (await trx('work_types').select('id', 'name')).map((t: { id: string; name: string }) => [t.name, t.id]),
  );
  const defaultType = (await trx('work_types').where({ is_default: true }).first('id')).id as string;
  const admin = users.get('admin@nordlarm.se') ?? null;
  const today = new Date();
  today.setUTCHours(8, 0, 0, 0);
  const day = 86_400_000;

  for (const [i, o] of ORDERS.entries()) {
    const { rows } = await trx.raw(
      `update work_order_settings set next_number = next_number + 1 returning number_prefix, next_number - 1 as taken`,
    );
    const number = `${rows[0].number_prefix}${rows[0].taken}`;
    const customer = customers.get(o.customer);
    const address = customer
      ? await trx('customer_addresses')
          .where({ customer_id: customer.id, is_primary: true })
          .first('id', 'street', 'post_index', 'city')
      : undefined;
    const planned = o.plannedInDays === null ? null : new Date(today.getTime() + o.plannedInDays * day);
    const [wo] = await trx('work_orders')
      .insert({
        number,
        title: o.title,
        description: o.description,
        customer_id: customer?.id ?? null,
        business_object_id: (o.serial && objects.get(o.serial)) || null,
        status_id: o.closedDaysAgo === undefined ? open.id : closing.id,
        work_type_id: types.get(o.workType) ?? defaultType,
        priority: o.priority,
        customer_address_id: address?.id ?? null,
        street: address?.street ?? null,
        post_index: address?.post_index ?? null,
        city: address?.city ?? null,
        planned_start: planned,
        planned_end: planned ? new Date(planned.getTime() + 2 * 3_600_000) : null,
        intake_ts: new Date(Date.now() - (i + 1) * 3 * 3_600_000),
        closed_at: o.closedDaysAgo === undefined ? null : new Date(Date.now() - o.closedDaysAgo * day),
        create_user_id: admin,
        location_lat: o.position?.[0] ?? null,
        location_lng: o.position?.[1] ?? null,
      })
      .returning('id');
    const assignees = o.assignees.map((e) => users.get(e)).filter((id): id is string => Boolean(id));
    if (assignees.length)
      await trx('work_order_assignees').insert(assignees.map((user_id) => ({ work_order_id: wo.id, user_id })));
    // planned means on the board: a plan for each assignee
    if (planned && assignees.length)
      await trx('work_order_schedules').insert(
        assignees.map((user_id) => ({
          work_order_id: wo.id,
          user_id,
          date: dateIn(planned, 'Europe/Stockholm'),
          start_ts: planned,
          end_ts: new Date(planned.getTime() + 2 * 3_600_000),
          created_by: admin,
        })),
      );
  }
}
