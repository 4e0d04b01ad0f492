import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatHours, formatMoney, formatQuantity } from './format';
import { documentTranslator } from './i18n';
import { LOGO_TIMEOUT_MS, logoDataUrl } from './logo';
import { renderHtml } from './render';

describe('[documents] number formats', () => {
  it.each([
    ['1234.5', '1 234,50'],
    ['-1234567.891', '-1 234 567,89'],
    ['0', '0,00'],
    ['1.005', '1,01'],
    [12, '12,00'],
    [null, ''],
    ['abc', ''],
  ])('money %j → %j', (value, expected) => expect(formatMoney(value)).toBe(expected));

  it.each([
    ['1.500', '1,5'],
    ['2', '2'],
    ['1234.125', '1 234,125'],
  ])('quantity %j → %j', (value, expected) => expect(formatQuantity(value)).toBe(expected));

  it.each([
    [90, '1,50'],
    [45, '0,75'],
    [1, '0,02'], // 0.01666… rounds up
    [0, '0,00'],
    [6000, '100,00'],
  ])('%j minutes → %j hours', (minutes, expected) => expect(formatHours(minutes)).toBe(expected));
});

describe('[documents] words', () => {
  it('translates into the document language with variables, and falls back to Swedish', () => {
    expect(documentTranslator('en')('mail.subject', { number: '7', title: 'T' })).toBe('Work order 7: T');
    expect(documentTranslator('sv')('doc.workOrder')).toBe('Arbetsorder');
    expect(documentTranslator('ru')('priority.high')).toBe('Высокий');
  });
});

describe('[documents] templates', () => {
  it('render with the helpers and escape values', () => {
    const html = renderHtml(
      'work-order',
      {
        locale: 'en-GB',
        printedAt: '2026-03-05T13:07:00Z',
        company: { name: 'A & B <AB>', logo: null },
        workOrder: { number: '42', title: 'x', status: 's', workType: 'w', priorityKey: 'priority.low', assignees: [] },
        articles: [],
        time: [],
      },
      { t: documentTranslator('en'), locale: 'en-GB', dateFormat: 'DD.MM.YYYY', country: 'SE' },
    );
    expect(html).toContain('A &amp; B &lt;AB&gt;');
    expect(html).toContain('Printed 05.03.2026 14:07');
    expect(html).toContain('Low');
    expect(html).toContain('No articles');
  });

  it('refuse an unknown or malformed template name', () => {
    const t = documentTranslator('en');
    expect(() => renderHtml('../etc/passwd', {}, { t, locale: 'en' })).toThrow(/bad template name/);
    expect(() => renderHtml('no-such-template', {}, { t, locale: 'en' })).toThrow();
  });
});

describe('[documents] the logo', () => {
  let server: http.Server;
  let base = '';
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
      else if (req.url === '/slow.png')
        setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png), LOGO_TIMEOUT_MS + 500);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('is inlined as a data URL when it is an image', async () => {
    expect(await logoDataUrl(`${base}/logo.png`)).toBe(`data:image/png;base64,${png.toString('base64')}`);
  });

  it('is left out when it is not an image, missing, too slow or not http', async () => {
    expect(await logoDataUrl(`${base}/page.html`)).toBeNull();
    expect(await logoDataUrl(`${base}/missing.png`)).toBeNull();
    const started = Date.now();
    expect(await logoDataUrl(`${base}/slow.png`)).toBeNull();
    expect(Date.now() - started).toBeLessThan(LOGO_TIMEOUT_MS + 400);
    expect(await logoDataUrl('file:///etc/passwd')).toBeNull();
    expect(await logoDataUrl(null)).toBeNull();
  });
});
