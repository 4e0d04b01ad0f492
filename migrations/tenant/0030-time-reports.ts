import type { Migration } from '~/core/db/migrate';

/**
 * Time, distance and compensation (issue 17; spec sections 3, 4, 5 and 9): a person's own time
 * beside the work-order time of 0008, by tag (work, absence with the Swedish codes, attendance
 * with a default time); odometer and kilometre trips; compensation by the spec's codes; the parent
 * report by which the office approves a person's period; month locks set by hand over the date
 * rule of 0011; and the on-call schedule.
 *
 * Seeded tags carry no name: the screens show the code's translated label, and a name typed in
 * the settings wins.
 */
export default {
  name: '0030-time-reports',
  async up(knex) {
    await knex.raw(`
      create table time_report_tags (
        id uuid primary key default gen_random_uuid(),
        code text not null,
        name text,
        type text not null check (type in ('work', 'absence', 'attend')),
        -- attendance: the default time a click fills in
        default_start time,
        default_end time,
        -- the payroll system's code for it (PAXml "typ"), the code itself when null
        payroll_code text,
        active boolean not null default true,
        sort_order integer not null default 0,
        check (type = 'attend' or (default_start is null and default_end is null))
      );
      create unique index time_report_tags_code_idx on time_report_tags (lower(code));

      insert into time_report_tags (code, type, sort_order) values ('ARB', 'work', 1), ('RES', 'work', 2);
      insert into time_report_tags (code, type, default_start, default_end, sort_order)
        values ('NARV', 'attend', '07:00', '16:00', 10), ('JOUR', 'attend', '17:00', '07:00', 11);
      insert into time_report_tags (code, type, sort_order)
        select code, 'absence', 100 + ord from unnest(array[
          'ASK', 'ATF', 'FPE', 'FRA', 'HAV', 'KOM', 'MIL', 'NAR', 'OS1', 'OS2', 'OS3', 'OS4', 'OS5',
          'PAP', 'PEM', 'PER', 'SEM', 'SJK', 'SMB', 'SVE', 'TJL', 'UTB', 'VAB'
        ]) with ordinality as c(code, ord);

      create table compensation_tags (
        id uuid primary key default gen_random_uuid(),
        code text not null,
        name text,
        type text not null check (type in ('distance', 'travel', 'expense')),
        -- per kilometre (distance), per day (travel); expenses are entered as amounts
        unit_price numeric(10, 2),
        payroll_code text,
        active boolean not null default true,
        sort_order integer not null default 0
      );
      create unique index compensation_tags_code_idx on compensation_tags (lower(code));
      insert into compensation_tags (code, type, unit_price, sort_order) values
        ('821', 'distance', 2.50, 1), ('822', 'distance', 1.20, 2), ('831', 'distance', null, 3),
        ('8310', 'distance', null, 4), ('832', 'distance', null, 5), ('8320', 'distance', null, 6),
        ('811', 'travel', 290.00, 10), ('8113', 'travel', 145.00, 11), ('8118', 'travel', null, 12),
        ('892', 'expense', null, 20);

      create table time_reports (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null references users (id) on delete restrict,
        tag_id uuid not null references time_report_tags (id) on delete restrict,
        date date not null,
        -- a span (modes default and multi) may wrap past midnight; hours mode leaves them null
        start_time time,
        end_time time,
        minutes integer not null check (minutes >= 0 and minutes <= 1440),
        distance_km numeric(8, 1) not null default 0 check (distance_km >= 0),
        comment text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check ((start_time is null) = (end_time is null))
      );
      create index time_reports_user_date_idx on time_reports (user_id, date);
      create index time_reports_date_idx on time_reports (date);

      create table distance_reports (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null references users (id) on delete restrict,
        date date not null,
        vehicle text not null default '',
        -- the odometer at the trip's end (null when only kilometres were given)
        reading_km numeric(10, 1) check (reading_km >= 0),
        distance_km numeric(8, 1) not null check (distance_km >= 0),
        tag_id uuid references compensation_tags (id) on delete restrict,
        comment text,
        created_at timestamptz not null default now()
      );
      create index distance_reports_user_date_idx on distance_reports (user_id, date);
      create index distance_reports_vehicle_idx on distance_reports (user_id, vehicle, date desc, created_at desc);
      create index distance_reports_date_idx on distance_reports (date);

      create table compensation_reports (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null references users (id) on delete restrict,
        tag_id uuid not null references compensation_tags (id) on delete restrict,
        date date not null,
        quantity numeric(10, 2) not null default 1 check (quantity >= 0),
        amount numeric(12, 2) not null default 0 check (amount >= 0),
        comment text,
        -- what else the payload carried (receipt file ids, places, purpose)
        data jsonb not null default '{}'::jsonb,
        created_at timestamptz not null default now()
      );
      create index compensation_reports_user_date_idx on compensation_reports (user_id, date);
      create index compensation_reports_date_idx on compensation_reports (date);

      -- a person's period as the office sees it: approved or not
      create table time_report_parents (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null references users (id) on delete restrict,
        period_start date not null,
        period_end date not null,
        status text not null default 'open' check (status in ('open', 'approved')),
        comment text,
        approved_by uuid references users (id) on delete set null,
        approved_at timestamptz,
        created_at timestamptz not null default now(),
        check (period_end >= period_start)
      );
      create unique index time_report_parents_period_idx on time_report_parents (user_id, period_start, period_end);
      create index time_report_parents_range_idx on time_report_parents (period_start, period_end);

      -- a month locked or unlocked by hand, over the lock-day rule
      create table time_period_locks (
        month date primary key check (extract(day from month) = 1),
        locked boolean not null,
        changed_by uuid references users (id) on delete set null,
        changed_at timestamptz not null default now()
      );

      create table on_call_shifts (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null references users (id) on delete restrict,
        start_ts timestamptz not null,
        end_ts timestamptz not null,
        comment text,
        create_user_id uuid references users (id) on delete set null,
        created_at timestamptz not null default now(),
        check (end_ts > start_ts)
      );
      create index on_call_shifts_range_idx on on_call_shifts (start_ts, end_ts);
      create index on_call_shifts_user_idx on on_call_shifts (user_id, start_ts);

      -- timereports:edit now means anyone's time and unlocking months (issue 17); nothing used it
      -- before, and the Technician level had it by default: technicians keep their own time
      -- (timereports:read_own) without it
      update access_levels set permissions = array_remove(permissions, 'timereports:edit')
        where lower(display_name) = 'technician';

      -- the month for everyone, payroll and reports read work-order time by date alone
      create index work_order_time_date_idx on work_order_time (date);

      alter table work_order_settings
        add column time_report_mode text not null default 'default' check (time_report_mode in ('default', 'hours', 'multi')),
        -- scheduled minutes Monday to Sunday, what a week's totals are measured against
        add column scheduled_minutes integer[] not null default '{480,480,480,480,480,0,0}',
        drop constraint if exists work_order_settings_time_lock_day_check,
        add constraint work_order_settings_time_lock_day_check check (time_lock_day between 1 and 31);
    `);
  },
} satisfies Migration;
