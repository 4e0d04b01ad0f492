import type { Ctx } from '~/core/context';
import { mailLang } from '~/core/auth/recovery.service';
import { keyFromLang } from '~/core/i18n/languages';
import { formatDate, tenantTimeZone } from '~/core/i18n/number-format';
import { sendAfterCommit } from '~/core/mail/templates/deliver';
import { tenantLink } from '~/core/mail/templates/links';
import { renderMail, type MailTemplate } from '~/core/mail/templates/render';
import { isModuleEnabled } from '~/core/modules/app-module.service';
import { zoneFileMail, zoneProposalMail, zoneVisitMail } from './zone-notify.mail';

/**
 * Notifications to a customer's zone users (issue 35 item 4, decision 063): a mail through the
 * mail outbox, in each person's language (theirs, else the customer's invoice language, else the
 * tenant's), when a file is published to the customer, a proposal is sent to it, or one of its
 * work orders gets a planned date. One mail per event per zone user, never twice: the promise is a
 * row of `zone_notifications` whose unique key (event, subject, user) is inserted with the mail's
 * outbox row in the same transaction — a second publish, send or plan of the same thing inserts
 * nothing and so mails nothing. Only active zone users (an invited one has no zone to open yet),
 * and only with the customer zone module on.
 */

export type ZoneEvent = 'file' | 'proposal' | 'visit';

const TEMPLATES: Record<ZoneEvent, MailTemplate> = {
  file: zoneFileMail,
  proposal: zoneProposalMail,
  visit: zoneVisitMail,
};

export interface ZoneNotice {
  event: ZoneEvent;
  /** What the event is about, unique within the event: a file id, a proposal id, an order and its day. */
  subjectKey: string;
  customerId: string;
  /** The zone page the mail links to. */
  path: string;
  /** The template's values besides user, customer and company. */
  vars: Record<string, string>;
}

/** Promises the notice's mail to each active zone user of the customer not yet told; answers how many. */
export async function notifyZoneUsers(ctx: Ctx, notice: ZoneNotice): Promise<number> {
  if (!(await isModuleEnabled(ctx.trx, 'customerzone'))) return 0;
  const { rows } = (await ctx.trx.raw(
    `insert into zone_notifications (event, subject_key, zone_user_id, created_at)
     select ?, ?, z.id, ? from customer_zone_users z
      where z.customer_id = ? and z.status = 'STATUS_ACTIVE'
     on conflict (event, subject_key, zone_user_id) do nothing
     returning zone_user_id`,
    [notice.event, notice.subjectKey, ctx.now, notice.customerId],
  )) as { rows: { zone_user_id: string }[] };
  if (!rows.length) return 0;
  const users = (await ctx
    .trx('customer_zone_users as z')
    .join('customers as c', 'c.id', 'z.customer_id')
    .whereIn(
      'z.id',
      rows.map((r) => r.zone_user_id),
    )
    .select('z.email', 'z.name', 'z.language', 'c.name as customer', 'c.invoice_language')) as {
    email: string;
    name: string;
    language: string | null;
    customer: string;
    invoice_language: string | null;
  }[];
  for (const u of users) {
    const lang = mailLang(ctx, u.language ?? u.invoice_language);
    const link = await tenantLink(ctx.trx, ctx.tenant, null, `${notice.path}?lang=${keyFromLang(lang)}`);
    const mail = renderMail(
      TEMPLATES[notice.event],
      lang,
      { ...notice.vars, user: u.name, customer: u.customer, company: ctx.tenant.displayName },
      link,
    );
    await sendAfterCommit(ctx, { to: [u.email], ...mail, tenantId: ctx.tenant.id });
  }
  return users.length;
}

/** A file published to a customer (by hand or by the tenant's service-report setting). */
export function notifyFilePublished(ctx: Ctx, file: { id: string; name: string }, customerId: string) {
  return notifyZoneUsers(ctx, {
    event: 'file',
    subjectKey: file.id,
    customerId,
    path: '/zone/documents',
    vars: { name: file.name },
  });
}

/** A proposal e-mailed to its customer: the zone users may answer it online. */
export function notifyProposalSent(
  ctx: Ctx,
  proposal: { id: string; sequenceNumber: number; title: string },
  customerId: string,
) {
  return notifyZoneUsers(ctx, {
    event: 'proposal',
    subjectKey: proposal.id,
    customerId,
    path: `/zone/proposals/${proposal.id}`,
    vars: { number: String(proposal.sequenceNumber), title: proposal.title || `#${proposal.sequenceNumber}` },
  });
}

/**
 * A work order of the customer planned to a day. The day is part of the subject: moving the visit
 * to another day is a new visit to tell about; re-planning within the day is not.
 */
export function notifyVisitPlanned(
  ctx: Ctx,
  order: { id: string; number: string; title: string; plannedStart: Date },
  customerId: string,
) {
  const config = ctx.tenant.config;
  const timeZone = tenantTimeZone(config.country);
  const day = formatDate(order.plannedStart, 'YYYY-MM-DD', { timeZone });
  return notifyZoneUsers(ctx, {
    event: 'visit',
    subjectKey: `${order.id}:${day}`,
    customerId,
    path: '/zone/work-orders',
    vars: {
      number: order.number,
      title: order.title,
      date: formatDate(order.plannedStart, config.dateFormat, { timeZone }),
    },
  });
}
