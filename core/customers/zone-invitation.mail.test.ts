import { describe, expect, it } from 'vitest';
import { LANGS } from '~/core/i18n/languages';
import { renderMail } from '~/core/mail/templates/render';
import { zoneInvitationMail } from './zone-invitation.mail';

const placeholders = (t: (typeof zoneInvitationMail)['en']) =>
  [
    ...new Set(
      [...[t.subject, t.action, ...t.before, ...t.after].join(' ').matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]),
    ),
  ].sort();

describe('[customers] zone invitation mail', () => {
  it('has text in every language with the same placeholders', () => {
    for (const lang of LANGS) {
      expect(zoneInvitationMail[lang].subject.trim(), lang).toBeTruthy();
      expect(placeholders(zoneInvitationMail[lang]), lang).toEqual(['company', 'customer', 'email', 'name']);
    }
  });

  it('names the company, the customer and the link', () => {
    const link = 'https://larm.example/zone/register?t=abc&lang=se';
    const mail = renderMail(
      zoneInvitationMail,
      'sv',
      { name: 'Eva', company: 'Nordlarm', customer: 'Brf Solrosen', email: 'eva@solrosen.se' },
      link,
    );
    expect(mail.subject).toBe('Nordlarm bjuder in dig till kundzonen');
    expect(mail.text).toContain('kundzonen för Brf Solrosen');
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('eva@solrosen.se');
  });
});
