import type { Migration } from '~/core/db/migrate';

/**
 * Extensions every tenant schema uses, installed once in `public`: pg_trgm for the registers'
 * search-as-you-type (tenant indexes name `public.gin_trgm_ops`).
 */
export default {
  name: '0003-extensions',
  async up(knex) {
    await knex.raw('create extension if not exists pg_trgm with schema public');
  },
} satisfies Migration;
