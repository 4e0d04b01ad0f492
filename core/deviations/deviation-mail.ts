import { z } from 'zod';
import { tenantDate } from '~/core/calendar/dates';
import type { Ctx } from '~/core/context';
import { withTenant, type Trx } from '~/core/db/with-tenant';
import { langFromKey } from '~/core/i18n/languages';
import { defineJob } from '~/core/jobs/define-job';
import { sendAfterCommit } from '~/core/mail/templates/deliver';
import { tenantLink } from '~/core/mail/templates/links';
import { renderMail, type MailTemplate } from '~/core/mail/templates/render';
import type { Tenant } from '~/core/tenancy/tenant';
import { forEachActiveTenant } from '~/core/jobs/each-tenant';

/**
 * The deviation mails (issue 34 item 3): to the responsible person when given one, to a category's
 * people when one of its deviations is raised, and to the responsible person the day after the due
 * date passed. Each is a `mail.send` outbox row written in the transaction that decided it
 * (decision 049), in the recipient's language. {{number}} and {{title}} name the deviation, {{due}}
 * its due date, {{company}} the tenant.
 */
export const assignedMail: MailTemplate = {
  sv: {
    subject: 'Avvikelse {{number}} är tilldelad dig: {{title}}',
    before: ['Hej {{name}}!', 'Du är ansvarig för avvikelse {{number}} ({{title}}) hos {{company}}. Förfallodag: {{due}}.'],
    action: 'Öppna avvikelsen',
    after: [],
  },
  en: {
    subject: 'Deviation {{number}} is assigned to you: {{title}}',
    before: ['Hello {{name}},', 'You are responsible for deviation {{number}} ({{title}}) at {{company}}. Due date: {{due}}.'],
    action: 'Open the deviation',
    after: [],
  },
  et: {
    subject: 'Kõrvalekalle {{number}} on sulle määratud: {{title}}',
    before: ['Tere, {{name}}!', 'Sa vastutad kõrvalekalde {{number}} ({{title}}) eest ettevõttes {{company}}. Tähtaeg: {{due}}.'],
    action: 'Ava kõrvalekalle',
    after: [],
  },
  lv: {
    subject: 'Novirze {{number}} ir piešķirta jums: {{title}}',
    before: ['Sveiki, {{name}}!', 'Jūs esat atbildīgs par novirzi {{number}} ({{title}}) uzņēmumā {{company}}. Termiņš: {{due}}.'],
    action: 'Atvērt novirzi',
    after: [],
  },
  ru: {
    subject: 'Отклонение {{number}} назначено вам: {{title}}',
    before: ['Здравствуйте, {{name}}!', 'Вы отвечаете за отклонение {{number}} ({{title}}) в {{company}}. Срок: {{due}}.'],
    action: 'Открыть отклонение',
    after: [],
  },
};

export const raisedMail: MailTemplate = {
  sv: {
    subject: 'Ny avvikelse {{number}} i {{category}}: {{title}}',
    before: ['Hej {{name}}!', 'Avvikelse {{number}} ({{title}}) i kategorin {{category}} har registrerats hos {{company}}.'],
    action: 'Öppna avvikelsen',
    after: [],
  },
  en: {
    subject: 'New deviation {{number}} in {{category}}: {{title}}',
    before: ['Hello {{name}},', 'Deviation {{number}} ({{title}}) in the category {{category}} was raised at {{company}}.'],
    action: 'Open the deviation',
    after: [],
  },
  et: {
    subject: 'Uus kõrvalekalle {{number}} kategoorias {{category}}: {{title}}',
    before: ['Tere, {{name}}!', 'Ettevõttes {{company}} registreeriti kõrvalekalle {{number}} ({{title}}) kategoorias {{category}}.'],
    action: 'Ava kõrvalekalle',
    after: [],
  },
  lv: {
    subject: 'Jauna novirze {{number}} kategorijā {{category}}: {{title}}',
    before: ['Sveiki, {{name}}!', 'Uzņēmumā {{company}} reģistrēta novirze {{number}} ({{title}}) kategorijā {{category}}.'],
    action: 'Atvērt novirzi',
    after: [],
  },
  ru: {
    subject: 'Новое отклонение {{number}} в категории {{category}}: {{title}}',
    before: ['Здравствуйте, {{name}}!', 'В {{company}} зарегистрировано отклонение {{number}} ({{title}}) в категории {{category}}.'],
    action: 'Открыть отклонение',
    after: [],
  },
};

export const overdueMail: MailTemplate = {
  sv: {
    subject: 'Avvikelse {{number}} är försenad: {{title}}',
    before: ['Hej {{name}}!', 'Avvikelse {{number}} ({{title}}) hos {{company}} skulle vara klar {{due}} och är fortfarande öppen.'],
    action: 'Öppna avvikelsen',
    after: [],
  },
  en: {
    subject: 'Deviation {{number}} is overdue: {{title}}',
    before: ['Hello {{name}},', 'Deviation {{number}} ({{title}}) at {{company}} was due on {{due}} and is still open.'],
    action: 'Open the deviation',
    after: [],
  },
  et: {
    subject: 'Kõrvalekalle {{number}} on hilinenud: {{title}}',
    before: ['Tere, {{name}}!', 'Kõrvalekalde {{number}} ({{title}}) tähtaeg ettevõttes {{company}} oli {{due}} ja see on endiselt avatud.'],
    action: 'Ava kõrvalekalle',
    after: [],
  },
  lv: {
    subject: 'Novirzes {{number}} termiņš ir nokavēts: {{title}}',
    before: ['Sveiki, {{name}}!', 'Novirzes {{number}} ({{title}}) termiņš uzņēmumā {{company}} bija {{due}}, un tā joprojām ir atvērta.'],
    action: 'Atvērt novirzi',
    after: [],
  },
  ru: {
    subject: 'Отклонение {{number}} просрочено: {{title}}',
    before: ['Здравствуйте, {{name}}!', 'Срок отклонения {{number}} ({{title}}) в {{company}} истёк {{due}}, а оно всё ещё открыто.'],
    action: 'Открыть отклонение',
    after: [],
  },
};

type Row = Record<string, unknown>;

interface MailFacts {
  id: string;
  number: number;
  title: string;
  dueDate: string | null;
  categoryName: string | null;
}

async function facts(trx: Trx, id: string): Promise<MailFacts | null> {
  const r: Row | undefined = await trx('deviations as d')
    .leftJoin('deviation_categories as c', 'c.id', 'd.category_id')
    .where('d.id', id)
    .first('d.id', 'd.number', 'd.title', trx.raw(`to_char(d.due_date, 'YYYY-MM-DD') as due_date`), 'c.name as category_name');
  return r
    ? {
        id: r.id as string,
        number: Number(r.number),
        title: r.title as string,
        dueDate: (r.due_date as string) ?? null,
        categoryName: (r.category_name as string) ?? null,
      }
    : null;
}

/** Writes one mail per active person in `userIds`, each in their own language. */
async function promiseMails(
  trx: Trx,
  tenant: Tenant,
  template: MailTemplate,
  d: MailFacts,
  userIds: readonly string[],
): Promise<number> {
  if (!userIds.length) return 0;
  const users: Row[] = await trx('users').whereIn('id', userIds).where('status', 'active').select('email', 'name', 'language');
  if (!users.length) return 0;
  const link = await tenantLink(trx, tenant, null, `/deviations/${d.id}`);
  for (const u of users) {
    const lang = langFromKey(u.language as string | null, langFromKey(tenant.config.languageKey));
    const mail = renderMail(
      template,
      lang,
      {
        name: u.name as string,
        number: String(d.number),
        title: d.title,
        due: d.dueDate ?? '–',
        category: d.categoryName ?? '',
        company: tenant.displayName,
      },
      link,
    );
    await sendAfterCommit({ trx, tenant }, { to: [u.email as string], ...mail, tenantId: tenant.id });
  }
  return users.length;
}

/** On assignment: the responsible person is told (not when they gave it to themselves). */
export async function promiseAssignmentMail(ctx: Ctx, id: string): Promise<void> {
  const row: Row | undefined = await ctx.trx('deviations').where({ id }).first('responsible_user_id');
  const userId = row?.responsible_user_id as string | null;
  if (!userId || userId === ctx.auth?.user.id) return;
  const d = await facts(ctx.trx, id);
  if (d) await promiseMails(ctx.trx, ctx.tenant, assignedMail, d, [userId]);
}

/** On raising: the category's people are told (settings → deviations), not the one who raised it. */
export async function promiseRaisedMail(ctx: Ctx, id: string, categoryId: string | null): Promise<void> {
  if (!categoryId) return;
  const c: Row | undefined = await ctx.trx('deviation_categories').where({ id: categoryId }).first('notify_user_ids');
  const ids = ((c?.notify_user_ids as string[] | undefined) ?? []).filter((u) => u !== ctx.auth?.user.id);
  const d = ids.length ? await facts(ctx.trx, id) : null;
  if (d) await promiseMails(ctx.trx, ctx.tenant, raisedMail, d, ids);
}

/**
 * Claims the deviations whose due date has passed (open, a responsible person, not yet mailed) and
 * promises each one mail, all in one transaction. `overdue_mailed_at is null` with `for update skip
 * locked` makes the claim exclusive, so a duplicated or concurrent job mails nobody twice; the mail
 * is an outbox row of that same commit, so a claim that rolls back mails nobody.
 */
export async function claimOverdueDeviations(trx: Trx, tenant: Tenant, now: Date, limit = 500): Promise<number> {
  const today = tenantDate(now, tenant.config?.country);
  const { rows } = await trx.raw(
    `with due as (
       select d.id from deviations d
        where d.status = 'open' and d.due_date < ?::date and d.overdue_mailed_at is null
          and d.responsible_user_id is not null
          and exists (select 1 from app_modules m where m.id = 'deviations' and m.enabled)
        order by d.due_date, d.id
        limit ?
        for update of d skip locked
     )
     update deviations d set overdue_mailed_at = ? from due where d.id = due.id
     returning d.id, d.responsible_user_id`,
    [today, limit, now],
  );
  for (const r of rows as Row[]) {
    const d = await facts(trx, r.id as string);
    if (d) await promiseMails(trx, tenant, overdueMail, d, [r.responsible_user_id as string]);
  }
  return (rows as Row[]).length;
}

/** How often overdue deviations are looked for (the day after the due date, within the hour). */
export const OVERDUE_SWEEP_EVERY_MS = 60 * 60_000;

/** Every hour: each active tenant's newly overdue deviations mailed once to their responsible person. */
export const mailOverdueDeviationsJob = defineJob({
  id: 'deviations.mail-overdue',
  lane: 'sweep',
  schema: z.object({}),
  attempts: 1,
  async handler(_data, ctx) {
    let mailed = 0;
    await forEachActiveTenant(ctx.log, 'Mailing overdue deviations', async (tenant) => {
      mailed += await withTenant(tenant, (trx) => claimOverdueDeviations(trx, tenant, ctx.now));
    });
    if (mailed) ctx.log.info({ mailed }, 'overdue deviations mailed');
  },
});
