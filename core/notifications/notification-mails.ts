import type { Ctx } from '~/core/context';
import { tenantLink } from '~/core/mail/templates/links';
import { renderMail, type MailTemplate } from '~/core/mail/templates/render';
import { promiseNotificationMails } from './notifications.service';

/*
 * The staff mails of spec notification types that Ordo sends today besides the message board's
 * MESSAGE (core/message-board): MFA_REGISTERED, WORKORDER_CLOSE, WORKORDER_ORDER_FINISH_BROADCAST
 * and WORK_ORDER_REVISIT. Each goes through promiseNotificationMails, so each person's choice in
 * Settings → notifications decides. The order mails go to its assignees, never to the person who
 * did the thing.
 */

const mfaRegistered: MailTemplate = {
  sv: {
    subject: 'Tvåstegsinloggning är påslagen för ditt konto',
    before: [
      'Hej {{name}}!',
      'Tvåstegsinloggning slogs på för ditt konto hos {{company}}. Var det inte du, kontakta din administratör.',
    ],
    action: 'Öppna dina inställningar',
    after: [],
  },
  en: {
    subject: 'Two-factor sign-in is on for your account',
    before: [
      'Hello {{name}},',
      'Two-factor sign-in was turned on for your account at {{company}}. If this was not you, contact your administrator.',
    ],
    action: 'Open your settings',
    after: [],
  },
  et: {
    subject: 'Kaheastmeline sisselogimine on sinu kontol sees',
    before: [
      'Tere, {{name}}!',
      'Sinu kontol ettevõttes {{company}} lülitati sisse kaheastmeline sisselogimine. Kui see polnud sina, võta ühendust administraatoriga.',
    ],
    action: 'Ava oma seaded',
    after: [],
  },
  lv: {
    subject: 'Jūsu kontam ir ieslēgta divpakāpju pieteikšanās',
    before: [
      'Labdien, {{name}}!',
      'Jūsu kontam uzņēmumā {{company}} tika ieslēgta divpakāpju pieteikšanās. Ja tas nebijāt jūs, sazinieties ar administratoru.',
    ],
    action: 'Atvērt iestatījumus',
    after: [],
  },
  ru: {
    subject: 'Для вашей учётной записи включён двухфакторный вход',
    before: [
      'Здравствуйте, {{name}}!',
      'Для вашей учётной записи в {{company}} включён двухфакторный вход. Если это были не вы, свяжитесь с администратором.',
    ],
    action: 'Открыть настройки',
    after: [],
  },
};

const workOrderClosed: MailTemplate = {
  sv: {
    subject: 'Arbetsorder {{number}} är stängd: {{title}}',
    before: ['Hej {{name}}!', '{{closer}} stängde arbetsorder {{number}} ({{title}}) som du är tilldelad.'],
    action: 'Öppna arbetsordern',
    after: [],
  },
  en: {
    subject: 'Work order {{number}} is closed: {{title}}',
    before: ['Hello {{name}},', '{{closer}} closed work order {{number}} ({{title}}), which you are assigned to.'],
    action: 'Open the work order',
    after: [],
  },
  et: {
    subject: 'Töökäsk {{number}} on suletud: {{title}}',
    before: ['Tere, {{name}}!', '{{closer}} sulges töökäsu {{number}} ({{title}}), millele oled määratud.'],
    action: 'Ava töökäsk',
    after: [],
  },
  lv: {
    subject: 'Darba uzdevums {{number}} ir slēgts: {{title}}',
    before: ['Labdien, {{name}}!', '{{closer}} slēdza darba uzdevumu {{number}} ({{title}}), kuram esat piešķirts.'],
    action: 'Atvērt darba uzdevumu',
    after: [],
  },
  ru: {
    subject: 'Заказ-наряд {{number}} закрыт: {{title}}',
    before: [
      'Здравствуйте, {{name}}!',
      '{{closer}} закрыл(а) заказ-наряд {{number}} ({{title}}), на который вы назначены.',
    ],
    action: 'Открыть заказ-наряд',
    after: [],
  },
};

const orderFinishBroadcast: MailTemplate = {
  sv: {
    subject: 'Kunden har fått klarmeddelandet för arbetsorder {{number}}',
    before: [
      'Hej {{name}}!',
      '{{sender}} skickade klarmeddelandet för arbetsorder {{number}} ({{title}}) till {{recipient}}.',
    ],
    action: 'Öppna arbetsordern',
    after: [],
  },
  en: {
    subject: 'The customer was sent the finish message for work order {{number}}',
    before: [
      'Hello {{name}},',
      '{{sender}} sent the order-finish message for work order {{number}} ({{title}}) to {{recipient}}.',
    ],
    action: 'Open the work order',
    after: [],
  },
  et: {
    subject: 'Kliendile saadeti töökäsu {{number}} lõpetamisteade',
    before: [
      'Tere, {{name}}!',
      '{{sender}} saatis töökäsu {{number}} ({{title}}) lõpetamisteate aadressile {{recipient}}.',
    ],
    action: 'Ava töökäsk',
    after: [],
  },
  lv: {
    subject: 'Klientam nosūtīts paziņojums par darba uzdevuma {{number}} pabeigšanu',
    before: [
      'Labdien, {{name}}!',
      '{{sender}} nosūtīja paziņojumu par darba uzdevuma {{number}} ({{title}}) pabeigšanu uz {{recipient}}.',
    ],
    action: 'Atvērt darba uzdevumu',
    after: [],
  },
  ru: {
    subject: 'Клиенту отправлено сообщение о выполнении заказ-наряда {{number}}',
    before: [
      'Здравствуйте, {{name}}!',
      '{{sender}} отправил(а) сообщение о выполнении заказ-наряда {{number}} ({{title}}) на {{recipient}}.',
    ],
    action: 'Открыть заказ-наряд',
    after: [],
  },
};

const revisitMade: MailTemplate = {
  sv: {
    subject: 'Återbesök {{revisit}} skapat från arbetsorder {{number}}',
    before: [
      'Hej {{name}}!',
      '{{maker}} skapade återbesöket {{revisit}} från arbetsorder {{number}} ({{title}}) som du är tilldelad.',
    ],
    action: 'Öppna återbesöket',
    after: [],
  },
  en: {
    subject: 'Revisit {{revisit}} made from work order {{number}}',
    before: [
      'Hello {{name}},',
      '{{maker}} made the revisit {{revisit}} from work order {{number}} ({{title}}), which you are assigned to.',
    ],
    action: 'Open the revisit',
    after: [],
  },
  et: {
    subject: 'Töökäsust {{number}} loodi korduskülastus {{revisit}}',
    before: [
      'Tere, {{name}}!',
      '{{maker}} lõi korduskülastuse {{revisit}} töökäsust {{number}} ({{title}}), millele oled määratud.',
    ],
    action: 'Ava korduskülastus',
    after: [],
  },
  lv: {
    subject: 'No darba uzdevuma {{number}} izveidots atkārtots apmeklējums {{revisit}}',
    before: [
      'Labdien, {{name}}!',
      '{{maker}} izveidoja atkārtotu apmeklējumu {{revisit}} no darba uzdevuma {{number}} ({{title}}), kuram esat piešķirts.',
    ],
    action: 'Atvērt atkārtoto apmeklējumu',
    after: [],
  },
  ru: {
    subject: 'Из заказ-наряда {{number}} создан повторный визит {{revisit}}',
    before: [
      'Здравствуйте, {{name}}!',
      '{{maker}} создал(а) повторный визит {{revisit}} из заказ-наряда {{number}} ({{title}}), на который вы назначены.',
    ],
    action: 'Открыть повторный визит',
    after: [],
  },
};

/** The order's assignees other than the person acting. */
async function otherAssignees(ctx: Ctx, workOrderId: string): Promise<string[]> {
  const ids: string[] = await ctx.trx('work_order_assignees').where({ work_order_id: workOrderId }).pluck('user_id');
  return ids.filter((id) => id !== ctx.auth?.user.id);
}

const actor = (ctx: Ctx) => ctx.auth?.user.fullName ?? ctx.tenant.displayName;

/** WORKORDER_ORDER_FINISH_BROADCAST: the order's assignees learn that the customer was told. */
export async function promiseOrderFinishBroadcastMails(
  ctx: Ctx,
  wo: { id: string; number: string | number; title: string },
  recipient: string,
): Promise<number> {
  const others = await otherAssignees(ctx, wo.id);
  if (!others.length) return 0;
  const link = await tenantLink(ctx.trx, ctx.tenant, null, `/work-orders/${wo.id}`);
  return promiseNotificationMails(ctx, 'WORKORDER_ORDER_FINISH_BROADCAST', others, (u) =>
    renderMail(
      orderFinishBroadcast,
      u.lang,
      { name: u.name, number: String(wo.number), title: wo.title, sender: actor(ctx), recipient },
      link,
    ),
  );
}

/** WORK_ORDER_REVISIT: the source order's assignees learn of the revisit made from it. */
export async function promiseRevisitMails(
  ctx: Ctx,
  source: { id: string; number: string | number; title: string },
  revisit: { id: string; number: string | number },
): Promise<number> {
  const others = await otherAssignees(ctx, source.id);
  if (!others.length) return 0;
  const link = await tenantLink(ctx.trx, ctx.tenant, null, `/work-orders/${revisit.id}`);
  return promiseNotificationMails(ctx, 'WORK_ORDER_REVISIT', others, (u) =>
    renderMail(
      revisitMade,
      u.lang,
      {
        name: u.name,
        number: String(source.number),
        title: source.title,
        revisit: String(revisit.number),
        maker: actor(ctx),
      },
      link,
    ),
  );
}

/** MFA_REGISTERED: the person whose account now has two-factor sign-in (a staff user). */
export async function promiseMfaRegisteredMail(ctx: Ctx, userId: string): Promise<number> {
  const link = await tenantLink(ctx.trx, ctx.tenant, null, '/profile');
  return promiseNotificationMails(ctx, 'MFA_REGISTERED', [userId], (u) =>
    renderMail(mfaRegistered, u.lang, { name: u.name, company: ctx.tenant.displayName }, link),
  );
}

/** WORKORDER_CLOSE: the order's assignees, not the one who closed it. */
export async function promiseWorkOrderClosedMails(
  ctx: Ctx,
  wo: { id: string; number: string | number; title: string },
): Promise<number> {
  const others = await otherAssignees(ctx, wo.id);
  if (!others.length) return 0;
  const link = await tenantLink(ctx.trx, ctx.tenant, null, `/work-orders/${wo.id}`);
  const closer = actor(ctx);
  return promiseNotificationMails(ctx, 'WORKORDER_CLOSE', others, (u) =>
    renderMail(
      workOrderClosed,
      u.lang,
      { name: u.name, number: String(wo.number), title: wo.title, closer, company: ctx.tenant.displayName },
      link,
    ),
  );
}
