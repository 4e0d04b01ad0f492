import type { MailTemplate } from '~/core/mail/templates/render';

/**
 * The MESSAGE notification (decision 066): a new post on the message board, mailed to the people
 * who read the board and chose to take it by mail. {{title}} and {{text}} are the post's,
 * {{author}} who wrote it, {{company}} the tenant.
 */
export const messagePostMail: MailTemplate = {
  sv: {
    subject: 'Nytt meddelande: {{title}}',
    before: ['{{author}} har skrivit på anslagstavlan hos {{company}}:', '{{title}}', '{{text}}'],
    action: 'Öppna översikten',
    after: ['Du får det här mejlet eftersom du valt att få meddelanden per e-post (Inställningar → aviseringar).'],
  },
  en: {
    subject: 'New message: {{title}}',
    before: ['{{author}} posted on the message board at {{company}}:', '{{title}}', '{{text}}'],
    action: 'Open the dashboard',
    after: ['You get this mail because you chose to receive messages by e-mail (Settings → notifications).'],
  },
  et: {
    subject: 'Uus teade: {{title}}',
    before: ['{{author}} postitas ettevõtte {{company}} teadetetahvlile:', '{{title}}', '{{text}}'],
    action: 'Ava töölaud',
    after: ['Saad selle kirja, sest valisid teadete saamise e-postiga (Seaded → teavitused).'],
  },
  lv: {
    subject: 'Jauns ziņojums: {{title}}',
    before: ['{{author}} publicēja ziņojumu uzņēmuma {{company}} ziņojumu dēlī:', '{{title}}', '{{text}}'],
    action: 'Atvērt pārskatu',
    after: ['Jūs saņemat šo e-pastu, jo izvēlējāties saņemt ziņojumus pa e-pastu (Iestatījumi → paziņojumi).'],
  },
  ru: {
    subject: 'Новое сообщение: {{title}}',
    before: ['{{author}} опубликовал(а) сообщение на доске объявлений {{company}}:', '{{title}}', '{{text}}'],
    action: 'Открыть обзор',
    after: ['Вы получили это письмо, потому что выбрали получать сообщения по e-mail (Настройки → уведомления).'],
  },
};
