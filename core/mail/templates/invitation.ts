import type { MailTemplate } from './render';

/** The invitation to a new user; {{inviter}} is who invited them, {{company}} the tenant's name. */
export const invitationMail: MailTemplate = {
  sv: {
    subject: 'Du är inbjuden till {{company}} i Ordo',
    before: [
      'Hej {{name}}!',
      '{{inviter}} har bjudit in dig till {{company}} i Ordo. Öppna länken för att välja ett lösenord och slutföra registreringen:',
    ],
    action: 'Slutför registreringen',
    after: ['Länken gäller i sju dagar och kan bara användas en gång. Ditt användarnamn är {{email}}.'],
  },
  en: {
    subject: 'You are invited to {{company}} in Ordo',
    before: [
      'Hello {{name}},',
      '{{inviter}} has invited you to {{company}} in Ordo. Open the link to choose a password and complete your registration:',
    ],
    action: 'Complete registration',
    after: ['The link is valid for seven days and works only once. Your user name is {{email}}.'],
  },
  et: {
    subject: 'Kutse ettevõttesse {{company}} Ordos',
    before: [
      'Tere, {{name}}!',
      '{{inviter}} kutsus teid ettevõttesse {{company}} Ordos. Parooli valimiseks ja registreerimise lõpetamiseks avage link:',
    ],
    action: 'Lõpetage registreerimine',
    after: ['Link kehtib seitse päeva ja seda saab kasutada ainult üks kord. Teie kasutajanimi on {{email}}.'],
  },
  lv: {
    subject: 'Jūs esat uzaicināts uz {{company}} sistēmā Ordo',
    before: [
      'Sveiki, {{name}}!',
      '{{inviter}} jūs uzaicināja uz {{company}} sistēmā Ordo. Atveriet saiti, lai izvēlētos paroli un pabeigtu reģistrāciju:',
    ],
    action: 'Pabeigt reģistrāciju',
    after: ['Saite ir derīga septiņas dienas, un to var izmantot tikai vienreiz. Jūsu lietotājvārds ir {{email}}.'],
  },
  ru: {
    subject: 'Приглашение в {{company}} в Ordo',
    before: [
      'Здравствуйте, {{name}}!',
      '{{inviter}} приглашает вас в {{company}} в Ordo. Откройте ссылку, чтобы выбрать пароль и завершить регистрацию:',
    ],
    action: 'Завершить регистрацию',
    after: [
      'Ссылка действительна семь дней и может быть использована только один раз. Ваше имя пользователя: {{email}}.',
    ],
  },
};
