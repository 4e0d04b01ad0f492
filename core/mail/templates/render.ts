import type { Lang } from '~/core/i18n/languages';

/** One mail's words in one language; `{{name}}`-style placeholders are filled by `renderMail`. */
export interface MailText {
  subject: string;
  /** Paragraphs; the link goes after the one that mentions it. */
  before: string[];
  /** Label for the link's button in the HTML part. */
  action: string;
  after: string[];
}

export type MailTemplate = Record<Lang, MailText>;

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function fill(s: string, vars: Record<string, string>): string {
  return s.replace(/{{\s*(\w+)\s*}}/g, (_, k: string) => vars[k] ?? '');
}

/**
 * Renders a template as plain text and HTML around one link. Values are escaped in the HTML part;
 * the subject is one line (the mailer refuses CR/LF there), so line breaks in values become spaces.
 */
export function renderMail(
  template: MailTemplate,
  lang: Lang,
  vars: Record<string, string>,
  link: string,
): RenderedMail {
  const t = template[lang];
  const oneLine = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, v.replace(/[\r\n]+/g, ' ')]));
  const before = t.before.map((p) => fill(p, oneLine));
  const after = t.after.map((p) => fill(p, oneLine));
  const text = [...before, link, ...after].join('\n\n') + '\n';
  const para = (p: string) => `<p>${escapeHtml(p)}</p>`;
  const html =
    `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif;line-height:1.5">` +
    before.map(para).join('') +
    `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(t.action)}</a></p>` +
    `<p style="font-size:12px;color:#555">${escapeHtml(link)}</p>` +
    after.map(para).join('') +
    `</body></html>`;
  return { subject: fill(t.subject, oneLine), text, html };
}
