import type { MailTemplate } from '~/core/mail/templates/render';

/**
 * The mails a customer's zone users get (decision 063), one template per event. {{company}} is the
 * service company (the tenant), {{customer}} the zone user's company; the link opens the zone.
 */

/** A file (a signed service report among them) was published to the customer. */
export const zoneFileMail: MailTemplate = {
  sv: {
    subject: '{{company}} har publicerat {{name}} i kundzonen',
    before: ['Hej {{user}}!', '{{company}} har publicerat ett nytt dokument för {{customer}}: {{name}}.'],
    action: 'Öppna dokumenten',
    after: ['Du får det här meddelandet för att du är användare i {{company}}s kundzon.'],
  },
  en: {
    subject: '{{company}} published {{name}} in your customer zone',
    before: ['Hello {{user}},', '{{company}} published a new document for {{customer}}: {{name}}.'],
    action: 'Open the documents',
    after: ["You get this message because you are a user of {{company}}'s customer zone."],
  },
  et: {
    subject: '{{company}} avaldas kliendiportaalis dokumendi {{name}}',
    before: ['Tere, {{user}}!', '{{company}} avaldas ettevõttele {{customer}} uue dokumendi: {{name}}.'],
    action: 'Ava dokumendid',
    after: ['Saite selle teate, sest olete ettevõtte {{company}} kliendiportaali kasutaja.'],
  },
  lv: {
    subject: '{{company}} klientu zonā publicēja {{name}}',
    before: ['Sveiki, {{user}}!', '{{company}} publicēja jaunu dokumentu uzņēmumam {{customer}}: {{name}}.'],
    action: 'Atvērt dokumentus',
    after: ['Jūs saņemat šo ziņu, jo esat {{company}} klientu zonas lietotājs.'],
  },
  ru: {
    subject: '{{company}} опубликовала {{name}} в клиентской зоне',
    before: ['Здравствуйте, {{user}}!', '{{company}} опубликовала новый документ для {{customer}}: {{name}}.'],
    action: 'Открыть документы',
    after: ['Вы получили это сообщение, потому что пользуетесь клиентской зоной {{company}}.'],
  },
};

/** A proposal was sent to the customer: it can be read, accepted or declined in the zone. */
export const zoneProposalMail: MailTemplate = {
  sv: {
    subject: 'Offert {{number}} från {{company}}: {{title}}',
    before: [
      'Hej {{user}}!',
      '{{company}} har skickat offert {{number}} ({{title}}) till {{customer}}. Du kan läsa den och godkänna eller avböja den i kundzonen:',
    ],
    action: 'Öppna offerten',
    after: ['Du får det här meddelandet för att du är användare i {{company}}s kundzon.'],
  },
  en: {
    subject: 'Proposal {{number}} from {{company}}: {{title}}',
    before: [
      'Hello {{user}},',
      '{{company}} sent proposal {{number}} ({{title}}) to {{customer}}. You can read it and accept or decline it in the customer zone:',
    ],
    action: 'Open the proposal',
    after: ["You get this message because you are a user of {{company}}'s customer zone."],
  },
  et: {
    subject: 'Pakkumine {{number}} ettevõttelt {{company}}: {{title}}',
    before: [
      'Tere, {{user}}!',
      '{{company}} saatis ettevõttele {{customer}} pakkumise {{number}} ({{title}}). Saate selle kliendiportaalis läbi lugeda ning vastu võtta või tagasi lükata:',
    ],
    action: 'Ava pakkumine',
    after: ['Saite selle teate, sest olete ettevõtte {{company}} kliendiportaali kasutaja.'],
  },
  lv: {
    subject: 'Piedāvājums {{number}} no {{company}}: {{title}}',
    before: [
      'Sveiki, {{user}}!',
      '{{company}} nosūtīja uzņēmumam {{customer}} piedāvājumu {{number}} ({{title}}). To var izlasīt un pieņemt vai noraidīt klientu zonā:',
    ],
    action: 'Atvērt piedāvājumu',
    after: ['Jūs saņemat šo ziņu, jo esat {{company}} klientu zonas lietotājs.'],
  },
  ru: {
    subject: 'Предложение {{number}} от {{company}}: {{title}}',
    before: [
      'Здравствуйте, {{user}}!',
      '{{company}} отправила {{customer}} предложение {{number}} ({{title}}). Его можно прочитать, принять или отклонить в клиентской зоне:',
    ],
    action: 'Открыть предложение',
    after: ['Вы получили это сообщение, потому что пользуетесь клиентской зоной {{company}}.'],
  },
};

/** A work order of the customer got a planned date: a visit is coming. */
export const zoneVisitMail: MailTemplate = {
  sv: {
    subject: '{{company}} kommer {{date}}: {{title}}',
    before: ['Hej {{user}}!', '{{company}} har planerat ett besök hos {{customer}} {{date}} för arbetsorder {{number}}: {{title}}.'],
    action: 'Se arbetsordrarna',
    after: ['Du får det här meddelandet för att du är användare i {{company}}s kundzon.'],
  },
  en: {
    subject: '{{company}} visits on {{date}}: {{title}}',
    before: ['Hello {{user}},', '{{company}} planned a visit to {{customer}} on {{date}} for work order {{number}}: {{title}}.'],
    action: 'See the work orders',
    after: ["You get this message because you are a user of {{company}}'s customer zone."],
  },
  et: {
    subject: '{{company}} külastab {{date}}: {{title}}',
    before: ['Tere, {{user}}!', '{{company}} planeeris külastuse ettevõttesse {{customer}} {{date}} töökäsu {{number}} jaoks: {{title}}.'],
    action: 'Vaata töökäske',
    after: ['Saite selle teate, sest olete ettevõtte {{company}} kliendiportaali kasutaja.'],
  },
  lv: {
    subject: '{{company}} apmeklējums {{date}}: {{title}}',
    before: ['Sveiki, {{user}}!', '{{company}} ieplānoja apmeklējumu uzņēmumā {{customer}} {{date}} darba uzdevumam {{number}}: {{title}}.'],
    action: 'Skatīt darba uzdevumus',
    after: ['Jūs saņemat šo ziņu, jo esat {{company}} klientu zonas lietotājs.'],
  },
  ru: {
    subject: '{{company}}: визит {{date}}: {{title}}',
    before: ['Здравствуйте, {{user}}!', '{{company}} запланировала визит к {{customer}} {{date}} по заказу-наряду {{number}}: {{title}}.'],
    action: 'Открыть заказы-наряды',
    after: ['Вы получили это сообщение, потому что пользуетесь клиентской зоной {{company}}.'],
  },
};

/** To the office (the proposal's seller): the customer answered a proposal in the zone. */
export const proposalAnsweredMail: MailTemplate = {
  sv: {
    subject: 'Offert {{number}} {{answer}} av {{customer}} i kundzonen',
    before: ['Hej {{user}}!', '{{name}} ({{email}}) på {{customer}} har {{answer}} offert {{number}}: {{title}}.{{reason}}'],
    action: 'Öppna offerten',
    after: [],
  },
  en: {
    subject: 'Proposal {{number}} {{answer}} by {{customer}} in the customer zone',
    before: ['Hello {{user}},', '{{name}} ({{email}}) of {{customer}} has {{answer}} proposal {{number}}: {{title}}.{{reason}}'],
    action: 'Open the proposal',
    after: [],
  },
  et: {
    subject: 'Pakkumine {{number}}: {{customer}} on selle kliendiportaalis {{answer}}',
    before: ['Tere, {{user}}!', '{{name}} ({{email}}) ettevõttest {{customer}} on pakkumise {{number}} {{answer}}: {{title}}.{{reason}}'],
    action: 'Ava pakkumine',
    after: [],
  },
  lv: {
    subject: 'Piedāvājums {{number}}: {{customer}} to klientu zonā ir {{answer}}',
    before: ['Sveiki, {{user}}!', '{{name}} ({{email}}) no {{customer}} ir {{answer}} piedāvājumu {{number}}: {{title}}.{{reason}}'],
    action: 'Atvērt piedāvājumu',
    after: [],
  },
  ru: {
    subject: 'Предложение {{number}}: {{customer}} — {{answer}} в клиентской зоне',
    before: ['Здравствуйте, {{user}}!', '{{name}} ({{email}}), {{customer}}: предложение {{number}} — {{answer}}: {{title}}.{{reason}}'],
    action: 'Открыть предложение',
    after: [],
  },
};

/** The answer's word in the office mail, and the reason's lead-in. */
export const ANSWER_WORDS = {
  sv: { accepted: 'godkänt', declined: 'avböjt', reason: ' Anledning: {{reason}}' },
  en: { accepted: 'accepted', declined: 'declined', reason: ' Reason: {{reason}}' },
  et: { accepted: 'vastu võtnud', declined: 'tagasi lükanud', reason: ' Põhjus: {{reason}}' },
  lv: { accepted: 'pieņēmis', declined: 'noraidījis', reason: ' Iemesls: {{reason}}' },
  ru: { accepted: 'принято', declined: 'отклонено', reason: ' Причина: {{reason}}' },
} as const;
