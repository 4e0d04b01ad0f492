import type { Migration } from '~/core/db/migrate';

/**
 * Issue 11: a customer is found by its contacts' names too. The names are kept on the customer
 * (`contact_search`, lower case, joined by chr(1) so a match never spans two names) by a trigger
 * on customer_contacts, so every writer (services, import, seeds) keeps it right, with a trigram
 * index of its own: the search is `search_text like q or contact_search like q`, a bitmap OR of
 * two indexes on one table.
 */
export default {
  name: '0017-customer-contact-search',
  async up(knex) {
    await knex.raw(`
      alter table customers add column contact_search text not null default '';
      create function customer_contact_search_refresh() returns trigger language plpgsql as $$
      declare
        ids uuid[];
      begin
        if tg_op = 'DELETE' then
          ids := array[old.customer_id];
        elsif tg_op = 'UPDATE' then
          ids := array[old.customer_id, new.customer_id];
        else
          ids := array[new.customer_id];
        end if;
        update customers c
           set contact_search = coalesce((select string_agg(lower(cc.name), chr(1) order by cc.sort_order, cc.id)
                                            from customer_contacts cc where cc.customer_id = c.id), '')
         where c.id = any (ids);
        return null;
      end $$;
      create trigger customer_contacts_search
        after insert or delete or update of name, customer_id on customer_contacts
        for each row execute function customer_contact_search_refresh();
      update customers c
         set contact_search = coalesce((select string_agg(lower(cc.name), chr(1) order by cc.sort_order, cc.id)
                                          from customer_contacts cc where cc.customer_id = c.id), '');
      create index customers_contact_search_idx on customers using gin (contact_search public.gin_trgm_ops);
    `);
  },
} satisfies Migration;
