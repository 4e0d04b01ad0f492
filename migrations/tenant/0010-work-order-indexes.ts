import type { Migration } from '~/core/db/migrate';

/**
 * Work-order list performance on 100,000 orders (decision 012). Two filters, one sort and part of
 * the search could not be served by an index of work_orders, because what they test lives in
 * another table:
 *
 * - sort by customer: the customer's name. `customer_sort` keeps lower(customers.name) on the order
 *   (set when the order gets its customer, followed when the customer is renamed), so the sort is an
 *   index scan instead of joining and sorting every order;
 * - search: the customer's and the object's search text. `related_search` keeps both on the order
 *   (separated by chr(1), which no typed query contains, so a match never spans the two), with its
 *   own trigram index: one bitmap of this table instead of a list of thousands of matching
 *   customer or object ids tested against every candidate order;
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
        add column related_search text,
        add column assignee_count integer not null default 0;

      update work_orders w
        set customer_sort = (select lower(name) from customers where id = w.customer_id),
            related_search = coalesce((select search_text from customers where id = w.customer_id), '') || chr(1) ||
                             coalesce((select search_text from business_objects where id = w.business_object_id), '')
        where w.customer_id is not null or w.business_object_id is not null;
      update work_orders w set assignee_count = a.n
        from (select work_order_id, count(*)::int as n from work_order_assignees group by work_order_id) a
        where a.work_order_id = w.id;

      create function work_orders_related() returns trigger language plpgsql as $$
      declare
        c_name text;
        c_search text;
        b_search text;
      begin
        select lower(name), search_text into c_name, c_search from customers where id = new.customer_id;
        select search_text into b_search from business_objects where id = new.business_object_id;
        new.customer_sort := c_name;
        new.related_search := case when c_search is not null or b_search is not null
          then coalesce(c_search, '') || chr(1) || coalesce(b_search, '') end;
        return new;
      end $$;
      create trigger work_orders_related before insert or update of customer_id, business_object_id on work_orders
        for each row execute function work_orders_related();

      -- a renamed (or renumbered) customer or a changed object: its orders follow
      create function customers_follow_work_orders() returns trigger language plpgsql as $$
      begin
        update work_orders w set customer_sort = lower(new.name),
          related_search = coalesce(new.search_text, '') || chr(1) ||
                           coalesce((select search_text from business_objects where id = w.business_object_id), '')
          where w.customer_id = new.id;
        return null;
      end $$;
      create trigger customers_follow_work_orders after update on customers
        for each row when (old.name is distinct from new.name or old.search_text is distinct from new.search_text)
        execute function customers_follow_work_orders();
      create function business_objects_follow_work_orders() returns trigger language plpgsql as $$
      begin
        update work_orders w set
          related_search = coalesce((select search_text from customers where id = w.customer_id), '') || chr(1) ||
                           coalesce(new.search_text, '')
          where w.business_object_id = new.id;
        return null;
      end $$;
      create trigger business_objects_follow_work_orders after update on business_objects
        for each row when (old.search_text is distinct from new.search_text)
        execute function business_objects_follow_work_orders();

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
      create index work_orders_related_search_idx on work_orders using gin (related_search public.gin_trgm_ops);
      -- customerType: the orders of private (or company) customers, from the customers of that type
      create index customers_type_idx on customers (type, id);
      -- the ATA list
      create index work_orders_ata_idx on work_orders (intake_ts desc, id desc)
        where project_extra_status is not null and deleted_at is null;
      analyze work_orders;
    `);
  },
} satisfies Migration;
