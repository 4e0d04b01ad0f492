import { describe, expect, it } from 'vitest';
import { LANGS } from '~/core/i18n/languages';
import { invitationMail } from './invitation';
import { recoveryMail } from './recovery';
import { renderMail, type MailTemplate } from './render';

const placeholders = (t: MailTemplate[keyof MailTemplate]) =>
  [...[t.subject, t.action, ...t.before, ...t.after].join(' ').matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

describe('[mail] templates', () => {
  it.each([
    ['recovery', recoveryMail],
    ['invitation', invitationMail],
  ])('%s has text in every language with the same placeholders', (_, template) => {
    for (const lang of LANGS) {
      expect(template[lang].subject.trim(), lang).toBeTruthy();
      expect(placeholders(template[lang]), lang).toEqual(placeholders(template.en));
    }
  });

  it('puts the link in text and HTML, escapes values in HTML and keeps the subject on one line', () => {
    const link = 'https://a.example/login?t=abc&lang=en';
    const mail = renderMail(recoveryMail, 'en', { name: '<b>Eve</b>', company: 'Acme\r\nBcc: x@y.se' }, link);
    expect(mail.subject).toBe('Reset your password for Acme Bcc: x@y.se');
    expect(mail.text).toContain(`\n\n${link}\n\n`);
    expect(mail.text).toContain('Hello <b>Eve</b>,');
    expect(mail.html).toContain('&lt;b&gt;Eve&lt;/b&gt;');
    expect(mail.html).toContain('href="https://a.example/login?t=abc&amp;lang=en"');
    expect(mail.html).not.toContain('<b>Eve</b>');
  });
});
