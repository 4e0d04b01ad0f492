import type { Migration } from '~/core/db/migrate';

/**
 * Issue 35, what the customer does in its zone (decision 063).
 *
 * - proposals.sent_at: when the office first e-mailed the proposal to its customer. Only a sent
 *   proposal (or one closed after) shows in the customer's zone: a draft is the office's business.
 * - proposal_zone_answers: the customer's online answer to a proposal — accepted or declined, by
 *   which zone user, the printed name, the drawing (a PNG data URL, as work-order signatures), the
 *   optional reason of a decline, and when. One answer per proposal (a reopened proposal answered
 *   again replaces it: the history keeps each).
 * - zone_notifications: one row per (event, subject, zone user) a notification mail was promised
 *   for; the unique key is what makes "one mail per event per zone user, never twice" structural.
 */
export default {
  name: '0062-zone-actions',
  async up(knex) {
    await knex.raw(`
      alter table proposals add column sent_at timestamptz;
      create index proposals_customer_sent_idx on proposals (customer_id, sent_at) where sent_at is not null;

      create table proposal_zone_answers (
        proposal_id uuid primary key references proposals (id) on delete cascade,
        answer text not null check (answer in ('accepted', 'declined')),
        zone_user_id uuid references customer_zone_users (id) on delete set null,
        zone_user_email text not null,
        signed_name text not null check (length(signed_name) between 1 and 200),
        signature text check (length(signature) <= 400000),
        reason text check (length(reason) <= 2000),
        answered_at timestamptz not null
      );

      create table zone_notifications (
        id uuid primary key default gen_random_uuid(),
        event text not null check (event in ('file', 'proposal', 'visit')),
        subject_key text not null check (length(subject_key) <= 200),
        zone_user_id uuid not null references customer_zone_users (id) on delete cascade,
        created_at timestamptz not null,
        unique (event, subject_key, zone_user_id)
      );
    `);
  },
} satisfies Migration;
