import type { Lang } from '~/core/i18n/languages';

/**
 * The e-mail that asks a customer to approve or decline a project's extra work (ATA): what the
 * order holds so far (its articles and time) and the link to answer on. {{company}} is the service
 * company (the tenant). Plain text and HTML carry the same content; values are escaped in the HTML.
 */
interface ExtraWorkText {
  subject: string;
  greeting: string;
  intro: string;
  order: string;
  description: string;
  articles: string;
  columns: { article: string; quantity: string; price: string; discount: string; total: string };
  /** The labour row's title: the order's work hours at the hourly price. */
  labour: string;
  /** "rabatt {{value}}", the value printed as every screen prints a discount ("10 %", "50,00 kr/st"). */
  discount: string;
  total: string;
  time: string;
  message: string;
  linkIntro: string;
  action: string;
  validity: string;
  closing: string;
  hours: string;
  minutes: string;
}

const TEXT: Record<Lang, ExtraWorkText> = {
  sv: {
    subject: '{{company}} ber om godkännande av tilläggsarbete: {{project}}',
    greeting: 'Hej!',
    intro: '{{company}} ber dig godkänna eller avböja ett tilläggsarbete (ÄTA) i projektet {{project}}.',
    order: 'Arbetsorder {{number}}: {{title}}',
    description: 'Beskrivning',
    articles: 'Arbete, artiklar och material',
    columns: { article: 'Artikel', quantity: 'Antal', price: 'À-pris', discount: 'Rabatt', total: 'Summa' },
    labour: 'Arbete',
    discount: 'rabatt {{value}}',
    total: 'Summa exkl. moms: {{total}}',
    time: 'Nedlagd tid hittills: {{work}} arbete, {{travel}} restid',
    message: 'Meddelande från {{company}}:',
    linkIntro: 'Öppna länken för att se arbetet och svara:',
    action: 'Godkänn eller avböj',
    validity: 'Länken gäller till och med {{date}}. Skickas en ny länk för samma arbete gäller bara den nya.',
    closing: 'Med vänliga hälsningar, {{company}}',
    hours: 'h',
    minutes: 'min',
  },
  en: {
    subject: '{{company}} asks you to approve extra work: {{project}}',
    greeting: 'Hello,',
    intro: '{{company}} asks you to approve or decline extra work in the project {{project}}.',
    order: 'Work order {{number}}: {{title}}',
    description: 'Description',
    articles: 'Labour, articles and materials',
    columns: { article: 'Article', quantity: 'Quantity', price: 'Unit price', discount: 'Discount', total: 'Total' },
    labour: 'Labour',
    discount: 'discount {{value}}',
    total: 'Total excluding VAT: {{total}}',
    time: 'Time spent so far: {{work}} work, {{travel}} travel',
    message: 'Message from {{company}}:',
    linkIntro: 'Open the link to see the work and answer:',
    action: 'Approve or decline',
    validity: 'The link is valid until {{date}}. If a new link is sent for the same work, only the new one works.',
    closing: 'Kind regards, {{company}}',
    hours: 'h',
    minutes: 'min',
  },
  et: {
    subject: '{{company}} palub kinnitada lisatööd: {{project}}',
    greeting: 'Tere!',
    intro: '{{company}} palub teil kinnitada või tagasi lükata projekti {{project}} lisatöö.',
    order: 'Töökäsk {{number}}: {{title}}',
    description: 'Kirjeldus',
    articles: 'Töö, artiklid ja materjalid',
    columns: { article: 'Artikkel', quantity: 'Kogus', price: 'Ühikuhind', discount: 'Allahindlus', total: 'Summa' },
    labour: 'Töö',
    discount: 'allahindlus {{value}}',
    total: 'Summa ilma käibemaksuta: {{total}}',
    time: 'Seni kulunud aeg: {{work}} tööd, {{travel}} sõitu',
    message: '{{company}} sõnum:',
    linkIntro: 'Töö nägemiseks ja vastamiseks avage link:',
    action: 'Kinnita või lükka tagasi',
    validity: 'Link kehtib kuni {{date}}. Kui sama töö kohta saadetakse uus link, kehtib ainult uus.',
    closing: 'Lugupidamisega, {{company}}',
    hours: 'h',
    minutes: 'min',
  },
  lv: {
    subject: '{{company}} lūdz apstiprināt papildu darbus: {{project}}',
    greeting: 'Labdien!',
    intro: '{{company}} lūdz jūs apstiprināt vai noraidīt papildu darbus projektā {{project}}.',
    order: 'Darba uzdevums {{number}}: {{title}}',
    description: 'Apraksts',
    articles: 'Darbs, artikuli un materiāli',
    columns: { article: 'Artikuls', quantity: 'Daudzums', price: 'Vienības cena', discount: 'Atlaide', total: 'Summa' },
    labour: 'Darbs',
    discount: 'atlaide {{value}}',
    total: 'Summa bez PVN: {{total}}',
    time: 'Līdz šim patērētais laiks: {{work}} darbs, {{travel}} ceļš',
    message: '{{company}} ziņojums:',
    linkIntro: 'Atveriet saiti, lai redzētu darbu un atbildētu:',
    action: 'Apstiprināt vai noraidīt',
    validity: 'Saite ir derīga līdz {{date}}. Ja par to pašu darbu tiek nosūtīta jauna saite, derīga ir tikai jaunā.',
    closing: 'Ar cieņu, {{company}}',
    hours: 'h',
    minutes: 'min',
  },
  ru: {
    subject: '{{company}} просит одобрить дополнительные работы: {{project}}',
    greeting: 'Здравствуйте!',
    intro: '{{company}} просит вас одобрить или отклонить дополнительные работы по проекту {{project}}.',
    order: 'Заказ-наряд {{number}}: {{title}}',
    description: 'Описание',
    articles: 'Работа, артикулы и материалы',
    columns: {
      article: 'Артикул',
      quantity: 'Количество',
      price: 'Цена за единицу',
      discount: 'Скидка',
      total: 'Сумма',
    },
    labour: 'Работа',
    discount: 'скидка {{value}}',
    total: 'Сумма без НДС: {{total}}',
    time: 'Затрачено времени: {{work}} работы, {{travel}} в пути',
    message: 'Сообщение от {{company}}:',
    linkIntro: 'Откройте ссылку, чтобы увидеть работы и ответить:',
    action: 'Одобрить или отклонить',
    validity:
      'Ссылка действительна до {{date}}. Если для тех же работ будет отправлена новая ссылка, действует только она.',
    closing: 'С уважением, {{company}}',
    hours: 'ч',
    minutes: 'мин',
  },
};

export interface ExtraWorkMailContent {
  company: string;
  project: string;
  number: string;
  title: string;
  description: string | null;
  /** Amounts, prices and totals already formatted for the reader (with the currency). */
  articles: {
    title: string;
    quantity: string;
    price: string;
    /** A percentage ("10") or an amount off each unit ("150,00 kr"), formatted; null for none. */
    /** Printed ("10 %", "50,00 kr/st"); empty for none. */
    discount: string;
    total: string;
  }[];
  /** The work hours at the hourly price, formatted; null without hours. */
  labour: { quantity: string; price: string; total: string } | null;
  total: string;
  workMinutes: number;
  travelMinutes: number;
  /** The staff member's own words, if any. */
  message: string | null;
  /** The last day the link works, formatted. */
  validUntil: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const fill = (s: string, vars: Record<string, string>) =>
  s.replace(/{{\s*(\w+)\s*}}/g, (_, k: string) => vars[k] ?? '');

/** 210 → "3 h 30 min", 60 → "1 h", 0 → "0 min" (units in the reader's language). */
export function formatDuration(minutes: number, lang: Lang): string {
  const t = TEXT[lang];
  const m = Math.max(0, Math.round(minutes));
  const h = Math.floor(m / 60);
  const rest = m % 60;
  if (h === 0) return `${rest} ${t.minutes}`;
  return rest === 0 ? `${h} ${t.hours}` : `${h} ${t.hours} ${rest} ${t.minutes}`;
}

export function renderExtraWorkMail(
  lang: Lang,
  content: ExtraWorkMailContent,
  link: string,
): { subject: string; text: string; html: string } {
  const t = TEXT[lang];
  const vars = {
    company: content.company,
    project: content.project,
    number: content.number,
    title: content.title,
    total: content.total,
    work: formatDuration(content.workMinutes, lang),
    travel: formatDuration(content.travelMinutes, lang),
    date: content.validUntil,
  };
  const oneLine = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, v.replace(/[\r\n]+/g, ' ')]));
  const p = (s: string) => `<p>${escapeHtml(s)}</p>`;
  const pre = (s: string) => `<p style="white-space:pre-line">${escapeHtml(s)}</p>`;

  const text: string[] = [t.greeting, fill(t.intro, oneLine), fill(t.order, oneLine)];
  const html: string[] = [
    p(t.greeting),
    p(fill(t.intro, oneLine)),
    `<h2 style="font-size:16px">${escapeHtml(fill(t.order, oneLine))}</h2>`,
  ];
  if (content.description) {
    text.push(`${t.description}:\n${content.description}`);
    html.push(`<p><strong>${escapeHtml(t.description)}</strong></p>`, pre(content.description));
  }
  const discountText = (d: string) => (d ? fill(t.discount, { value: d }) : '');
  const lines = [
    ...(content.labour ? [{ title: t.labour, ...content.labour, discount: '' }] : []),
    ...content.articles.map((a) => ({ ...a, discount: discountText(a.discount) })),
  ];
  if (lines.length) {
    text.push(
      [
        `${t.articles}:`,
        ...lines.map(
          (a) => `- ${a.title}: ${a.quantity} × ${a.price}${a.discount ? `, ${a.discount}` : ''} = ${a.total}`,
        ),
        fill(t.total, oneLine),
      ].join('\n'),
    );
    const cell = 'style="padding:4px 8px;border-bottom:1px solid #ddd;text-align:left"';
    const num = 'style="padding:4px 8px;border-bottom:1px solid #ddd;text-align:right"';
    html.push(
      `<p><strong>${escapeHtml(t.articles)}</strong></p>`,
      `<table style="border-collapse:collapse"><thead><tr>` +
        `<th ${cell}>${escapeHtml(t.columns.article)}</th><th ${num}>${escapeHtml(t.columns.quantity)}</th>` +
        `<th ${num}>${escapeHtml(t.columns.price)}</th><th ${num}>${escapeHtml(t.columns.discount)}</th>` +
        `<th ${num}>${escapeHtml(t.columns.total)}</th></tr></thead><tbody>` +
        lines
          .map(
            (a) =>
              `<tr><td ${cell}>${escapeHtml(a.title)}</td><td ${num}>${escapeHtml(a.quantity)}</td>` +
              `<td ${num}>${escapeHtml(a.price)}</td><td ${num}>${escapeHtml(a.discount)}</td>` +
              `<td ${num}>${escapeHtml(a.total)}</td></tr>`,
          )
          .join('') +
        `</tbody></table>`,
      p(fill(t.total, oneLine)),
    );
  }
  text.push(fill(t.time, oneLine));
  html.push(p(fill(t.time, oneLine)));
  if (content.message) {
    text.push(`${fill(t.message, oneLine)}\n${content.message}`);
    html.push(`<p><strong>${escapeHtml(fill(t.message, oneLine))}</strong></p>`, pre(content.message));
  }
  text.push(t.linkIntro, link, fill(t.validity, oneLine), fill(t.closing, oneLine));
  html.push(
    p(t.linkIntro),
    `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(t.action)}</a></p>`,
    `<p style="font-size:12px;color:#555">${escapeHtml(link)}</p>`,
    p(fill(t.validity, oneLine)),
    p(fill(t.closing, oneLine)),
  );
  return {
    subject: fill(t.subject, oneLine),
    text: text.join('\n\n') + '\n',
    html:
      `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif;line-height:1.5">` +
      html.join('') +
      `</body></html>`,
  };
}
