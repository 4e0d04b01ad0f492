import type { MailTemplate } from './render';

/** The password-recovery mail; {{company}} is the tenant's display name, {{name}} the user's. */
export const recoveryMail: MailTemplate = {
  sv: {
    subject: 'Återställ ditt lösenord till {{company}}',
    before: [
      'Hej {{name}}!',
      'Någon (förhoppningsvis du) bad om att få återställa lösenordet till ditt konto hos {{company}}. Öppna länken för att välja ett nytt lösenord:',
    ],
    action: 'Välj nytt lösenord',
    after: [
      'Länken gäller i en timme och kan bara användas en gång.',
      'Om du inte bad om detta kan du bortse från meddelandet; ditt lösenord förblir oförändrat.',
    ],
  },
  en: {
    subject: 'Reset your password for {{company}}',
    before: [
      'Hello {{name}},',
      'Someone (hopefully you) asked to reset the password of your {{company}} account. Open the link to choose a new password:',
    ],
    action: 'Choose a new password',
    after: [
      'The link is valid for one hour and works only once.',
      'If you did not ask for this, ignore this message; your password stays as it is.',
    ],
  },
  et: {
    subject: 'Parooli lähtestamine: {{company}}',
    before: [
      'Tere, {{name}}!',
      'Keegi (loodetavasti teie) soovis lähtestada teie {{company}} konto parooli. Uue parooli valimiseks avage link:',
    ],
    action: 'Valige uus parool',
    after: [
      'Link kehtib ühe tunni ja seda saab kasutada ainult üks kord.',
      'Kui te seda ei soovinud, jätke see kiri tähelepanuta; teie parool jääb samaks.',
    ],
  },
  lv: {
    subject: 'Atiestatiet savu {{company}} paroli',
    before: [
      'Sveiki, {{name}}!',
      'Kāds (cerams, jūs) lūdza atiestatīt jūsu {{company}} konta paroli. Atveriet saiti, lai izvēlētos jaunu paroli:',
    ],
    action: 'Izvēlēties jaunu paroli',
    after: [
      'Saite ir derīga vienu stundu, un to var izmantot tikai vienreiz.',
      'Ja jūs to nelūdzāt, neņemiet šo ziņu vērā; jūsu parole paliks nemainīga.',
    ],
  },
  ru: {
    subject: 'Сброс пароля для {{company}}',
    before: [
      'Здравствуйте, {{name}}!',
      'Кто-то (надеемся, вы) запросил сброс пароля вашей учётной записи в {{company}}. Откройте ссылку, чтобы выбрать новый пароль:',
    ],
    action: 'Выбрать новый пароль',
    after: [
      'Ссылка действительна один час и может быть использована только один раз.',
      'Если вы этого не запрашивали, просто проигнорируйте это письмо; ваш пароль останется прежним.',
    ],
  },
};
