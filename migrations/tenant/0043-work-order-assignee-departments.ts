import type { Migration } from '~/core/db/migrate';

/**
 * Issue 30, item 9: the list's departments filter ("orders with an assignee in these departments")
 * was a semi-join from every assignee row of the departments' people (29,000 on 100k orders) to
 * the orders, which the planner could not combine with the order's own conditions: search +
 * status + departments read 28,600 orders to keep 7,500 (~400 ms). The departments of an order's
 * assignees are now kept on the order, `assignee_departments`, with a GIN index, so the filter is
 * an index condition beside status and search.
 *
 * Kept by the database like `assignee_count` (migration 0010): the assignee rows' trigger sets both
 * in one update of the order, after locking it, so two transactions assigning the same order
 * cannot leave it with the other's departments missing; a person moved to another department
 * brings their orders along.
 *
 * The tags filter the same way (`tag_ids`, GIN): as a semi-join it hashed all 79,000 open orders'
 * index entries against one tag's 8,300 rows. Kept by statement triggers on the tag rows (saving an
 * order's tags deletes and inserts them: one update of each order per statement, not per tag).
 */
export default {
  name: '0043-work-order-assignee-departments',
  async up(knex) {
    await knex.raw(`
      alter table work_orders add column assignee_departments uuid[] not null default '{}';

      create function work_order_assignee_departments(order_id uuid) returns uuid[]
        language sql stable as $$
          select coalesce(array_agg(distinct u.department_id order by u.department_id), '{}')
            from work_order_assignees a join users u on u.id = a.user_id
           where a.work_order_id = order_id and u.department_id is not null
        $$;

      create or replace function work_order_assignees_count() returns trigger language plpgsql as $$
      declare
        order_id uuid := case when tg_op = 'INSERT' then new.work_order_id else old.work_order_id end;
      begin
        -- the lock first: the update's own snapshot then sees every committed assignee of the order
        perform 1 from work_orders where id = order_id for update;
        update work_orders
           set assignee_count = assignee_count + case when tg_op = 'INSERT' then 1 else -1 end,
               assignee_departments = work_order_assignee_departments(order_id)
         where id = order_id;
        return null;
      end $$;

      create function users_follow_work_order_departments() returns trigger language plpgsql as $$
      begin
        update work_orders w set assignee_departments = work_order_assignee_departments(w.id)
         where w.id in (select a.work_order_id from work_order_assignees a where a.user_id = new.id);
        return null;
      end $$;
      create trigger users_follow_work_order_departments after update of department_id on users
        for each row when (old.department_id is distinct from new.department_id)
        execute function users_follow_work_order_departments();

      update work_orders w set assignee_departments = d.ids
        from (select a.work_order_id, array_agg(distinct u.department_id order by u.department_id) as ids
                from work_order_assignees a join users u on u.id = a.user_id
               where u.department_id is not null
               group by a.work_order_id) d
       where d.work_order_id = w.id;

      create index work_orders_assignee_departments_idx on work_orders using gin (assignee_departments);

      alter table work_orders add column tag_ids uuid[] not null default '{}';

      create function work_orders_follow_tags() returns trigger language plpgsql as $$
      begin
        perform 1 from work_orders
         where id in (select work_order_id from changed_tags) order by id for update;
        update work_orders w
           set tag_ids = coalesce((select array_agg(t.tag_id order by t.tag_id)
                                     from work_order_tags t where t.work_order_id = w.id), '{}')
         where w.id in (select work_order_id from changed_tags);
        return null;
      end $$;
      create trigger work_orders_follow_added_tags after insert on work_order_tags
        referencing new table as changed_tags for each statement execute function work_orders_follow_tags();
      create trigger work_orders_follow_removed_tags after delete on work_order_tags
        referencing old table as changed_tags for each statement execute function work_orders_follow_tags();

      update work_orders w set tag_ids = t.ids
        from (select work_order_id, array_agg(tag_id order by tag_id) as ids
                from work_order_tags group by work_order_id) t
       where t.work_order_id = w.id;

      create index work_orders_tag_ids_idx on work_orders using gin (tag_ids);
    `);
  },
} satisfies Migration;
