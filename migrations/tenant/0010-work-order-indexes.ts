import type { Migration } from '~/core/db/migrate';

/**
 * Work-order list performance on 100,000 orders (decision 012). Two filters and one sort could not
 * be served by an index of work_orders, because what they test lives in another table:
 *
 * - sort by customer: the customer's name. `customer_sort` keeps lower(customers.name) on the order
 *   (set when the order gets its customer, followed when the customer is renamed), so the sort is an
 *   index scan instead of joining and sorting every order;
 * - unassigned: whether the order has assignees. `assignee_count` is kept by the assignee rows'
 *   triggers (an increment or decrement of the order's row, so concurrent changes serialise on it);
 * - the ATA list (project_extra_status set) had no index at all.
 *
 * The triggers live in the database, so every writer (services, imports, seeds) keeps them right.
 */
export default {
  name: '0010-work-order-indexes',
  async up(knex) {
    await knex.raw(`
      alter table work_orders
        add column customer_sort text,
        add column assignee_count integer not null default 0;

      update work_orders w set customer_sort = lower(c.name) from customers c where c.id = w.customer_id;
      update work_orders w set assignee_count = a.n
        from (select work_order_id, count(*)::int as n from work_order_assignees group by work_order_id) a
        where a.work_order_id = w.id;

      create function work_orders_customer_sort() returns trigger language plpgsql as $$
      begin
        new.customer_sort := (select lower(name) from customers where id = new.customer_id);
        return new;
      end $$;
      create trigger work_orders_customer_sort before insert or update of customer_id on work_orders
        for each row execute function work_orders_customer_sort();

      create function customers_rename_work_orders() returns trigger language plpgsql as $$
      begin
        update work_orders set customer_sort = lower(new.name) where customer_id = new.id;
        return null;
      end $$;
      create trigger customers_rename_work_orders after update of name on customers
        for each row when (old.name is distinct from new.name) execute function customers_rename_work_orders();

      create function work_order_assignees_count() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          update work_orders set assignee_count = assignee_count + 1 where id = new.work_order_id;
        else
          update work_orders set assignee_count = assignee_count - 1 where id = old.work_order_id;
        end if;
        return null;
      end $$;
      create trigger work_order_assignees_count after insert or delete on work_order_assignees
        for each row execute function work_order_assignees_count();

      -- sort by customer (nulls last, as the list sorts): the open list, and every other list
      create index work_orders_open_customer_idx on work_orders (customer_sort, intake_ts desc, id desc)
        where closed_at is null and deleted_at is null;
      create index work_orders_customer_sort_idx on work_orders (customer_sort, intake_ts desc, id desc);
      -- the few unassigned orders, newest first
      create index work_orders_unassigned_idx on work_orders (intake_ts desc, id desc) where assignee_count = 0;
      -- the ATA list
      create index work_orders_ata_idx on work_orders (intake_ts desc, id desc)
        where project_extra_status is not null and deleted_at is null;
      analyze work_orders;
    `);
  },
} satisfies Migration;
