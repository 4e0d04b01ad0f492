import type http from 'node:http';

/*
 * What the fakes of OAuth2 vendors (Fortnox, QuickBooks Online) share for their consent page: the
 * page itself as plain HTML, and a test's way through it that does what a browser does.
 */

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const unescapeHtml = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);

/** A page of the vendor's sign-in: a document with `inner` as its main content. */
export function htmlPage(res: http.ServerResponse, status: number, title: string, inner: string, lang = 'en') {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html>\n<html lang="${lang}">\n<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n` +
      `<body>\n<main>\n${inner}\n</main>\n</body>\n</html>\n`,
  );
}

/**
 * Walks a consent page as a browser does: loads it, submits its form with the named button (the
 * inputs as they are, a radio group's checked one), and answers where the vendor redirects to (the
 * app's redirect URI with code and state, and whatever else the vendor adds).
 */
export async function submitConsentForm(authorizeUrl: string, button: string): Promise<URL> {
  const page = await fetch(authorizeUrl);
  const html = await page.text();
  if (!page.ok) throw new Error(`the consent page answered ${page.status}: ${html.slice(0, 200)}`);
  const attrs = (tag: string) => {
    const out: Record<string, string> = {};
    for (const m of tag.matchAll(/([a-zA-Z_:-]+)="([^"]*)"/g)) out[m[1]!.toLowerCase()] = unescapeHtml(m[2]!);
    return out;
  };
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error('the consent page has no form');
  const fields = new URLSearchParams();
  for (const m of form[2]!.matchAll(/<input\b([^>]*)>/gi)) {
    const a = attrs(m[1]!);
    if (a.type === 'radio' && !/\bchecked\b/.test(m[1]!)) continue;
    if (a.name) fields.append(a.name, a.value ?? '');
  }
  const chosen = [...form[2]!.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)].find((m) => m[2]!.trim() === button);
  if (!chosen) throw new Error(`the consent form has no "${button}" button`);
  const b = attrs(chosen[1]!);
  if (b.name) fields.append(b.name, b.value ?? '');
  const formAttrs = attrs(form[1]!);
  const answer = await fetch(new URL(formAttrs.action ?? '', authorizeUrl), {
    method: (formAttrs.method ?? 'get').toUpperCase(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
    redirect: 'manual',
  });
  const location = answer.headers.get('location');
  if (answer.status !== 302 || !location) throw new Error(`the consent form answered ${answer.status}, not a redirect`);
  return new URL(location);
}
