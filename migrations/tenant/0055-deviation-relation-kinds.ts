import type { Migration } from '~/core/db/migrate';

/**
 * Issue 34's bench (decision 058): the kinds of what a deviation is about, kept on the deviation
 * (`relation_kinds`, sorted, distinct, empty for none) by the one writer of its relations
 * (deviation.service `writeRelations`), with a GIN index. The dashboard's "open by relation kind" and
 * the list's relation-kind filter and column read it instead of a lookup per deviation in
 * deviation_relations. A partial index over the open ones' due dates, carrying their kinds, answers
 * the dashboard's open and overdue counts and its open-by-kind chart without reading the table.
 */
export default {
  name: '0055-deviation-relation-kinds',
  async up(knex) {
    await knex.raw(`
      alter table deviations add column relation_kinds text[] not null default '{}';
      update deviations d set relation_kinds = k.kinds
        from (select deviation_id, array_agg(distinct kind order by kind) as kinds
                from deviation_relations group by deviation_id) k
       where k.deviation_id = d.id;
      create index deviations_relation_kinds_idx on deviations using gin (relation_kinds);
      -- the dashboard's open counts (overdue by due date) and open by relation kind, from the index alone
      create index deviations_open_due_idx on deviations (due_date) include (relation_kinds) where status = 'open';
    `);
  },
} satisfies Migration;
