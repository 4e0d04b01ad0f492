/**
 * The work-order list's benchmark cases (issue 5, Performance): every filter and sort of GET /wo
 * on its own and a few combinations, as query strings. `run.ts` requests them over HTTP and
 * `explain-work-orders.ts` prints the plan of each. The ids come from the seeded bench tenant.
 */
import knexFactory from 'knex';

export interface WorkOrderFixtures {
  statusNew: string;
  statusWip: string;
  workType: string;
  tags: [string, string];
  tech: string;
  techs: [string, string, string];
  department: string;
  customer: string;
  /** The tenant's admin, whose "onlyMine" and limit the API calls run under. */
  admin: string;
  /** Any order, for the single-order scenarios. */
  workOrder: string;
}

export async function loadFixtures(url: string, schema = 't_bench'): Promise<WorkOrderFixtures> {
  const knex = knexFactory({ client: 'pg', connection: { connectionString: url }, searchPath: [schema] });
  try {
    const statuses = await knex('work_order_statuses').orderBy('sort_order').select('id', 'name');
    const tags = await knex('tags').orderBy('sort_order').limit(2).pluck('id');
    const techs = await knex('users').where('email', 'like', 'tech%').orderBy('email').limit(3).pluck('id');
    const wo = await knex('work_orders').where({ number: '4242' }).first('id', 'customer_id');
    return {
      statusNew: statuses[0].id,
      statusWip: statuses[1].id,
      workType: (await knex('work_types').orderBy('sort_order').first('id')).id,
      tags: [tags[0], tags[1]],
      tech: techs[0],
      techs: [techs[0], techs[1], techs[2]],
      department: (await knex('departments').orderBy('name').first('id')).id,
      customer: wo.customer_id,
      admin: (await knex('users').where({ email: 'admin@bench.se' }).first('id')).id,
      workOrder: wo.id,
    };
  } finally {
    await knex.destroy();
  }
}

/** GET /api/wo query strings by scenario name (size 50, the list page's page size). */
export function listScenarios(f: WorkOrderFixtures): Record<string, string> {
  const q = (o: Record<string, string>) => new URLSearchParams({ size: '50', ...o }).toString();
  return {
    'open, intake (default)': q({}),
    'open, sort updated': q({ sort: 'updated' }),
    'open, sort number': q({ sort: 'number' }),
    'open, sort title': q({ sort: 'title' }),
    'open, sort customer': q({ sort: 'customer' }),
    'open, sort plannedStart': q({ sort: 'plannedStart' }),
    'open, page 40 (from 2000)': q({ from: '2000' }),
    'search "kamera"': q({ search: 'kamera' }),
    'search "4242" (number)': q({ search: '4242' }),
    'search "solrosen" (customer)': q({ search: 'solrosen' }),
    'search "sn00012" (object)': q({ search: 'sn00012' }),
    'search "kamera", sort customer': q({ search: 'kamera', sort: 'customer' }),
    status: q({ status: f.statusWip }),
    'status, sort customer': q({ status: f.statusWip, sort: 'customer' }),
    workTypes: q({ workTypes: f.workType }),
    'tags (1)': q({ tags: f.tags[0] }),
    'tags (2), sort title': q({ tags: f.tags.join(','), sort: 'title' }),
    'assignees (1)': q({ assignees: f.tech }),
    'assignees (3), sort plannedStart': q({ assignees: f.techs.join(','), sort: 'plannedStart' }),
    'onlyMine (admin: none)': q({ onlyMine: 'true' }),
    'ignoredUsers (3)': q({ ignoredUsers: f.techs.join(',') }),
    unassigned: q({ unassigned: 'true' }),
    'unassigned, sort customer': q({ unassigned: 'true', sort: 'customer' }),
    departments: q({ departments: f.department }),
    createUserId: q({ createUserId: f.tech }),
    'customerType private': q({ customerType: 'private' }),
    'customerType private, sort customer': q({ customerType: 'private', sort: 'customer' }),
    'regular customers only': q({ showPotential: 'false' }),
    'no customer (neither kind)': q({ showPotential: 'false', showRegular: 'false' }),
    'scheduleStatus scheduled': q({ scheduleStatus: 'scheduled', sort: 'plannedStart' }),
    'scheduleStatus notScheduled': q({ scheduleStatus: 'notScheduled' }),
    'includeScheduled false': q({ includeScheduled: 'false' }),
    project: q({ project: f.workOrder }),
    'status + tags + assignees, sort customer': q({
      status: f.statusNew,
      tags: f.tags[0],
      assignees: f.techs.join(','),
      sort: 'customer',
    }),
    'search + status + departments': q({ search: 'larm', status: f.statusWip, departments: f.department }),
    'closed, this week': q({ list: 'closed' }),
    'closed, all time': q({ list: 'closed', closedFrom: '2000-01-01', closedTo: '2100-01-01' }),
    'closed, all time, sort customer': q({
      list: 'closed',
      closedFrom: '2000-01-01',
      closedTo: '2100-01-01',
      sort: 'customer',
    }),
    'closed, all time, sort title': q({
      list: 'closed',
      closedFrom: '2000-01-01',
      closedTo: '2100-01-01',
      sort: 'title',
    }),
    recentlyClosed: q({ list: 'recentlyClosed' }),
    ata: q({ list: 'ata' }),
    'history, intake': q({ list: 'history' }),
    'history, sort customer': q({ list: 'history', sort: 'customer' }),
    'history, sort number': q({ list: 'history', sort: 'number' }),
    recycleBin: q({ list: 'recycleBin' }),
  };
}

/**
 * The map tab's markers for the current filters (issue 6: p95 <= 60 ms server time), as the query
 * strings of `/work-orders/map`: the default open list (capped at 5,000 of ~56,000 located orders),
 * the longest list, a search, and filters that leave few or many orders through another table.
 */
export function mapScenarios(f: WorkOrderFixtures): Record<string, string> {
  const q = (o: Record<string, string>) => new URLSearchParams({ list: 'open', ...o }).toString();
  return {
    'open (capped)': q({}),
    'history (capped)': q({ list: 'history' }),
    'search "kamera"': q({ search: 'kamera' }),
    'search "solrosen" (customer)': q({ search: 'solrosen' }),
    status: q({ status: f.statusWip }),
    'tags (1)': q({ tags: f.tags[0] }),
    'assignees (1)': q({ assignees: f.tech }),
    departments: q({ departments: f.department }),
    unassigned: q({ unassigned: 'true' }),
    'closed, this week': q({ list: 'closed' }),
  };
}
