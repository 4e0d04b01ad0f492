import type { Migration } from '~/core/db/migrate';

/**
 * What a tenant configures for its proposals beyond the switches (issue 13 item 8; spec section 2,
 * the proposal detail screen): standard texts to insert into a description, custom fields (their
 * values live in proposals.custom_data under the field's id, so a renamed field keeps its values),
 * and price templates: an article offered at tiers of prices (spec section 9's 2800/4400/6000 kr),
 * which a proposal adds as a row once its required custom fields are filled in.
 */
export default {
  name: '0022-proposal-configuration',
  async up(knex) {
    await knex.raw(`
      create table proposal_standard_texts (
        id uuid primary key default gen_random_uuid(),
        title text not null check (length(title) between 1 and 100),
        body text not null check (length(body) between 1 and 10000),
        sort_order integer not null default 0
      );

      create table proposal_custom_fields (
        id uuid primary key default gen_random_uuid(),
        label text not null check (length(label) between 1 and 100),
        type text not null default 'text' check (type in ('text', 'number', 'date')),
        required boolean not null default false,
        sort_order integer not null default 0
      );

      create table proposal_price_templates (
        id uuid primary key default gen_random_uuid(),
        title text not null check (length(title) between 1 and 100),
        article_id uuid not null references articles (id) on delete restrict,
        monthly boolean not null default false,
        -- [{label, price}], 1 to 6 tiers, prices as decimal text
        tiers jsonb not null check (jsonb_typeof(tiers) = 'array' and jsonb_array_length(tiers) between 1 and 6),
        sort_order integer not null default 0
      );
      create index proposal_price_templates_article_idx on proposal_price_templates (article_id);
    `);
  },
} satisfies Migration;
