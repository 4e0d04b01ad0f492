import type { Lang } from '~/core/i18n/languages';
import { renderMail, type MailTemplate, type RenderedMail } from './render';

/**
 * A work-order reminder, mailed at its due time to the person reminded. {{name}} is that person,
 * {{number}} and {{title}} the order, {{due}} the due time as the tenant writes it, {{company}} the
 * tenant's display name. The reminder's own message follows as a paragraph of its own when given.
 */
export const reminderMail: MailTemplate = {
  sv: {
    subject: 'Påminnelse: arbetsorder {{number}} {{title}}',
    before: [
      'Hej {{name}}!',
      'Det här är en påminnelse om arbetsorder {{number}} ({{title}}) hos {{company}}, {{due}}.',
    ],
    action: 'Öppna arbetsordern',
    after: [],
  },
  en: {
    subject: 'Reminder: work order {{number}} {{title}}',
    before: [
      'Hello {{name}},',
      'This is a reminder about work order {{number}} ({{title}}) at {{company}}, due {{due}}.',
    ],
    action: 'Open the work order',
    after: [],
  },
  et: {
    subject: 'Meeldetuletus: töökäsk {{number}} {{title}}',
    before: [
      'Tere, {{name}}!',
      'See on meeldetuletus töökäsu {{number}} ({{title}}) kohta ettevõttes {{company}}, tähtaeg {{due}}.',
    ],
    action: 'Ava töökäsk',
    after: [],
  },
  lv: {
    subject: 'Atgādinājums: darba uzdevums {{number}} {{title}}',
    before: [
      'Sveiki, {{name}}!',
      'Šis ir atgādinājums par darba uzdevumu {{number}} ({{title}}) uzņēmumā {{company}}, termiņš {{due}}.',
    ],
    action: 'Atvērt darba uzdevumu',
    after: [],
  },
  ru: {
    subject: 'Напоминание: заказ-наряд {{number}} {{title}}',
    before: [
      'Здравствуйте, {{name}}!',
      'Это напоминание о заказ-наряде {{number}} ({{title}}) в {{company}}, срок {{due}}.',
    ],
    action: 'Открыть заказ-наряд',
    after: [],
  },
};

/** The reminder mail in `lang`, its message (taken as it is, never as a template) after the greeting. */
export function renderReminderMail(
  lang: Lang,
  vars: { name: string; number: string; title: string; due: string; company: string; message: string },
  link: string,
): RenderedMail {
  const t = reminderMail[lang];
  const template: MailTemplate = {
    ...reminderMail,
    [lang]: { ...t, before: vars.message.trim() ? [...t.before, '{{message}}'] : t.before },
  };
  return renderMail(template, lang, vars, link);
}
