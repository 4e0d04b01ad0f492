import type { MailTemplate } from '~/core/mail/templates/render';

/**
 * The invitation to a customer's person to the customer zone. {{company}} is the service company
 * (the tenant), {{customer}} the customer they belong to, {{email}} their user name.
 */
export const zoneInvitationMail: MailTemplate = {
  sv: {
    subject: '{{company}} bjuder in dig till kundzonen',
    before: [
      'Hej {{name}}!',
      '{{company}} har gett dig tillgång till kundzonen för {{customer}}. Där ser du era anläggningar, arbetsorder och dokument. Öppna länken för att välja ett lösenord:',
    ],
    action: 'Kom igång',
    after: ['Länken gäller i sju dagar och kan bara användas en gång. Ditt användarnamn är {{email}}.'],
  },
  en: {
    subject: '{{company}} invites you to the customer zone',
    before: [
      'Hello {{name}},',
      '{{company}} has given you access to the customer zone of {{customer}}, where you can see your installations, work orders and documents. Open the link to choose a password:',
    ],
    action: 'Get started',
    after: ['The link is valid for seven days and works only once. Your user name is {{email}}.'],
  },
  et: {
    subject: '{{company}} kutsub teid kliendiportaali',
    before: [
      'Tere, {{name}}!',
      '{{company}} andis teile juurdepääsu kliendi {{customer}} kliendiportaalile, kus näete oma seadmeid, töökäske ja dokumente. Parooli valimiseks avage link:',
    ],
    action: 'Alustage',
    after: ['Link kehtib seitse päeva ja seda saab kasutada ainult üks kord. Teie kasutajanimi on {{email}}.'],
  },
  lv: {
    subject: '{{company}} aicina jūs uz klientu zonu',
    before: [
      'Sveiki, {{name}}!',
      '{{company}} jums piešķīra piekļuvi klienta {{customer}} klientu zonai, kur redzami jūsu objekti, darba uzdevumi un dokumenti. Atveriet saiti, lai izvēlētos paroli:',
    ],
    action: 'Sākt',
    after: ['Saite ir derīga septiņas dienas, un to var izmantot tikai vienreiz. Jūsu lietotājvārds ir {{email}}.'],
  },
  ru: {
    subject: '{{company}} приглашает вас в клиентскую зону',
    before: [
      'Здравствуйте, {{name}}!',
      '{{company}} открыл вам доступ к клиентской зоне {{customer}}, где видны ваши объекты, заказы и документы. Откройте ссылку, чтобы выбрать пароль:',
    ],
    action: 'Начать',
    after: [
      'Ссылка действительна семь дней и может быть использована только один раз. Ваше имя пользователя: {{email}}.',
    ],
  },
};
