import type { Migration } from '~/core/db/migrate';

/**
 * Contracts (issue 16 item 6; spec sections 2, 3, 5 and 6): the CONTRACTS app module's register.
 *
 * - contracts: a unique contract ID (contract_number, case-insensitive: DUPLICATE_CONTRACT_ID), a
 *   title, the customer (restrict: a customer with contracts is not deleted), the contact as free
 *   text like a proposal's (name, e-mail, phone), the sales user, who created it (own versus all:
 *   a contract is one's own when one is its sales user or its creator), open or closed, start and
 *   stop date, the invoice reference and a note; `version` for "saved by someone else" (409).
 * - contract_services: what the contract covers (name, value, cost), in order. The contract's total
 *   value and cost are their sums, computed in the query that reads the contract, never stored.
 */
export default {
  name: '0028-contracts',
  async up(knex) {
    await knex.raw(`
      create table contracts (
        id uuid primary key default gen_random_uuid(),
        contract_number text not null check (length(contract_number) between 1 and 50),
        title text not null check (length(title) between 1 and 200),
        customer_id uuid not null references customers (id) on delete restrict,
        contact_name text,
        contact_email text,
        contact_phone text,
        sales_user_id uuid references users (id) on delete set null,
        create_user_id uuid references users (id) on delete set null,
        status text not null default 'open' check (status in ('open', 'closed')),
        closed_at timestamptz,
        close_user_id uuid references users (id) on delete set null,
        start_date date,
        stop_date date,
        check (stop_date is null or start_date is null or start_date <= stop_date),
        invoice_reference text,
        note text,
        version integer not null default 1,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index contracts_number_idx on contracts (lower(contract_number));
      alter table contracts add column search_text text generated always as (
        lower(contract_number || ' ' || title || ' ' || coalesce(invoice_reference, '') || ' '
          || coalesce(contact_name, ''))) stored;
      create index contracts_search_idx on contracts using gin (search_text public.gin_trgm_ops);
      -- the list: open or closed, those ending first
      create index contracts_status_stop_idx on contracts (status, stop_date, id);
      create index contracts_customer_idx on contracts (customer_id, status);
      -- "my contracts": the sales user's and the creator's
      create index contracts_sales_user_idx on contracts (sales_user_id, status);
      create index contracts_create_user_idx on contracts (create_user_id, status);

      create table contract_services (
        id uuid primary key default gen_random_uuid(),
        contract_id uuid not null references contracts (id) on delete cascade,
        name text not null check (length(name) between 1 and 200),
        value numeric(14, 2) not null default 0 check (value >= 0),
        cost numeric(14, 2) not null default 0 check (cost >= 0),
        sort_order integer not null default 0
      );
      create index contract_services_contract_idx on contract_services (contract_id, sort_order);
    `);
  },
} satisfies Migration;
