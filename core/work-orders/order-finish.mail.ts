import type { Lang } from '~/core/i18n/languages';

/**
 * The order-finish confirmation (spec: broadcast event `finished`, notification
 * WORKORDER_ORDER_FINISH_BROADCAST) the close dialog offers to send to the customer. Plain words,
 * no link: the customer zone will carry the order later. {{company}} is the service company.
 */
interface FinishText {
  subject: string;
  greeting: string;
  body: string;
  /** Only when the order has a summary. */
  summary: string;
  closing: string;
}

const TEXT: Record<Lang, FinishText> = {
  sv: {
    subject: 'Arbetsorder {{number}} är klar: {{title}}',
    greeting: 'Hej!',
    body: '{{company}} har slutfört arbetsorder {{number}} ({{title}}){{place}}.',
    summary: 'Sammanfattning: {{summary}}',
    closing: 'Med vänliga hälsningar, {{company}}',
  },
  en: {
    subject: 'Work order {{number}} is finished: {{title}}',
    greeting: 'Hello,',
    body: '{{company}} has finished work order {{number}} ({{title}}){{place}}.',
    summary: 'Summary: {{summary}}',
    closing: 'Kind regards, {{company}}',
  },
  et: {
    subject: 'Töökäsk {{number}} on lõpetatud: {{title}}',
    greeting: 'Tere!',
    body: '{{company}} on lõpetanud töökäsu {{number}} ({{title}}){{place}}.',
    summary: 'Kokkuvõte: {{summary}}',
    closing: 'Lugupidamisega, {{company}}',
  },
  lv: {
    subject: 'Darba uzdevums {{number}} ir pabeigts: {{title}}',
    greeting: 'Labdien!',
    body: '{{company}} ir pabeidzis darba uzdevumu {{number}} ({{title}}){{place}}.',
    summary: 'Kopsavilkums: {{summary}}',
    closing: 'Ar cieņu, {{company}}',
  },
  ru: {
    subject: 'Заказ-наряд {{number}} выполнен: {{title}}',
    greeting: 'Здравствуйте!',
    body: '{{company}} выполнил заказ-наряд {{number}} ({{title}}){{place}}.',
    summary: 'Итог: {{summary}}',
    closing: 'С уважением, {{company}}',
  },
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const fill = (s: string, vars: Record<string, string>) =>
  s.replace(/{{\s*(\w+)\s*}}/g, (_, k: string) => vars[k] ?? '');

export function renderOrderFinishMail(
  lang: Lang,
  order: { number: string; title: string; address: string | null; summary: string | null; company: string },
): { subject: string; text: string; html: string } {
  const t = TEXT[lang];
  const vars = {
    number: order.number,
    title: order.title,
    company: order.company,
    place: order.address ? `, ${order.address}` : '',
    summary: order.summary ?? '',
  };
  const paragraphs = [t.greeting, fill(t.body, vars)];
  if (order.summary) paragraphs.push(fill(t.summary, vars));
  paragraphs.push(fill(t.closing, vars));
  const oneLine = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, v.replace(/[\r\n]+/g, ' ')]));
  return {
    subject: fill(t.subject, oneLine),
    text: paragraphs.join('\n\n') + '\n',
    html:
      `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif;line-height:1.5">` +
      paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('') +
      `</body></html>`,
  };
}
