import { CalendarDate } from '@internationalized/date';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { I18nProvider } from 'react-aria-components';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import enUi from '~/core/i18n/locales/en/ui.json';
import svUi from '~/core/i18n/locales/sv/ui.json';
import {
  Button,
  Calendar,
  ComboBox,
  DatePicker,
  LinkButton,
  Menu,
  Select,
  SortableTable,
  Tabs,
  TextField,
  ToastProvider,
} from './index';
import { queueToast } from './toast';
import { NativeSelect } from './native-select';
import { SearchInput } from './search-input';

/**
 * Server-render smoke tests: the routes are rendered on the server first, so every primitive must
 * render without a DOM, and with words from ui.json only (a missing key fails the test).
 */
const missingKeys: string[] = [];
const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: false,
  ns: ['ui'],
  defaultNS: 'ui',
  resources: { en: { ui: enUi }, sv: { ui: svUi } },
  interpolation: { escapeValue: false },
  initAsync: false,
  saveMissing: true,
  missingKeyHandler: (_lngs, ns, key) => missingKeys.push(`${ns}:${key}`),
});

function render(node: ReactNode, { lang = 'en', locale = 'en-GB' } = {}) {
  void i18n.changeLanguage(lang);
  return renderToString(
    <I18nextProvider i18n={i18n}>
      <I18nProvider locale={locale}>{node}</I18nProvider>
    </I18nextProvider>,
  );
}

/** The week numbers heading the calendar's rows (React puts `<!-- -->` between text parts). */
function weekNumbers(html: string): string[] {
  return [...html.matchAll(/<th scope="row"[^>]*><span class="sr-only">Week(?:<!-- -->)? <\/span>(\d+)<\/th>/g)].map(
    (m) => m[1] ?? '',
  );
}

afterEach(() => {
  expect(missingKeys).toEqual([]);
  missingKeys.length = 0;
});

describe('server rendering', () => {
  it('Button: pending shows a spinner and sets aria-busy', () => {
    const html = render(
      <Button type="submit" isPending>
        Save
      </Button>,
    );
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-label="Loading…"');
    expect(render(<Button>Save</Button>)).not.toContain('aria-busy');
  });

  it('LinkButton is a link', () => {
    expect(render(<LinkButton href="/work-orders/new">New</LinkButton>)).toMatch(/<a [^>]*href="\/work-orders\/new"/);
  });

  it('TextField posts under its name and shows the caller’s errors', () => {
    const html = render(
      <TextField
        name="email"
        type="email"
        label="E-mail"
        autoComplete="username"
        isRequired
        errorMessage={['Wrong address', 'Unknown user']}
      />,
    );
    expect(html).toMatch(/<input[^>]*name="email"/);
    expect(html).toMatch(/<input[^>]*type="email"/);
    expect(html).toMatch(/<input[^>]*autocomplete="username"/i);
    expect(html).toMatch(/<input[^>]*aria-invalid="true"/);
    expect(html).toContain('Wrong address');
    expect(html).toContain('Unknown user');
  });

  it('Select posts the chosen id under its name', () => {
    const html = render(
      <Select
        name="startPage"
        label="Start page"
        defaultSelectedKey="dashboard"
        items={[
          { id: 'workorders', label: 'Work orders' },
          { id: 'dashboard', label: 'Dashboard' },
        ]}
      />,
    );
    expect(html).toContain('name="startPage"');
    expect(html).toContain('Dashboard');
  });

  it('Select shows the translated placeholder', () => {
    expect(render(<Select label="Country" items={[{ id: 'se', label: 'Sweden' }]} />, { lang: 'sv' })).toContain(
      'Välj…',
    );
  });

  it('ComboBox renders with a long list and a chosen option beyond the first 200', () => {
    const items = Array.from({ length: 500 }, (_, i) => ({ id: `c${i}`, label: `Customer ${i}` }));
    const html = render(<ComboBox name="customerId" label="Customer" items={items} defaultSelectedKey="c450" />);
    expect(html).toContain('value="Customer 450"');
    expect(html).toMatch(
      /<input[^>]*type="hidden"[^>]*name="customerId"[^>]*value="c450"|<input[^>]*name="customerId"[^>]*type="hidden"[^>]*value="c450"/,
    );
    expect(html).toContain('aria-label="Show options"');
  });

  it('SortableTable renders rows, aria-sort and the empty state', () => {
    const columns = [
      { id: 'number', header: 'No.', isRowHeader: true, allowsSorting: true, render: (r: { id: string }) => r.id },
      { id: 'amount', header: 'Amount', align: 'end' as const, render: () => '1 234,00' },
    ];
    const html = render(
      <SortableTable
        aria-label="Work orders"
        columns={columns}
        rows={[{ id: 'WO-1' }, { id: 'WO-2' }]}
        sortDescriptor={{ column: 'number', direction: 'descending' }}
        onSortChange={() => {}}
      />,
    );
    expect(html).toContain('WO-2');
    expect(html).toContain('aria-sort="descending"');
    expect(html).toContain('overflow-x-auto');
    expect(render(<SortableTable aria-label="Work orders" columns={columns} rows={[]} />)).toContain('Nothing to show');
    expect(
      render(
        <SortableTable aria-label="Work orders" columns={columns} rows={[]} emptyState={<p>No work orders yet</p>} />,
      ),
    ).toContain('No work orders yet');
  });

  it('Tabs render the tab list and the selected panel', () => {
    const html = render(
      <Tabs
        aria-label="Work order"
        defaultSelectedKey="b"
        items={[
          { id: 'a', label: 'Details', content: 'Panel A' },
          { id: 'b', label: 'Articles', content: 'Panel B' },
        ]}
      />,
    );
    expect(html).toContain('role="tablist"');
    expect(html).toContain('Panel B');
    expect(html).not.toContain('Panel A');
  });

  it('NativeSelect and SearchInput are the browser’s own controls, each named by its label', () => {
    const select = render(
      <NativeSelect
        label="Sortera efter"
        items={[
          { id: 'intake', label: 'Inkommen' },
          { id: 'number', label: 'Nummer' },
        ]}
        value="number"
        onChange={() => {}}
      />,
    );
    const selectId = /<select id="([^"]+)"/.exec(select)?.[1];
    expect(selectId).toBeTruthy();
    expect(select).toContain(`<label for="${selectId}"`);
    expect(select).toMatch(/<option value="number" selected="">Nummer<\/option>/);
    const search = render(<SearchInput label="Sök" value="kamera" onChange={() => {}} placeholder="Titel" />);
    const searchId = /<input id="([^"]+)" type="search"/.exec(search)?.[1];
    expect(searchId).toBeTruthy();
    expect(search).toContain(`<label for="${searchId}"`);
    expect(search).toContain('value="kamera"');
  });

  it('Menu renders its trigger with an accessible name', () => {
    const html = render(<Menu isIconOnly items={[{ id: 'pdf', label: 'PDF', href: '/x.pdf' }]} />, { lang: 'sv' });
    expect(html).toContain('aria-label="Åtgärder"');
    expect(html).toContain('aria-haspopup="menu"');
    expect(html).toContain('aria-expanded="false"');
    // the open menu is its own chunk, loaded when it opens: none of it on the server's page
    expect(html).not.toContain('role="menu"');
  });

  it('Calendar shows ISO week numbers, Monday first, across the year boundary', () => {
    const html = render(<Calendar aria-label="Date" defaultFocusedValue={new CalendarDate(2021, 1, 15)} />);
    const weeks = weekNumbers(html);
    // January 2021: 1–3 Jan are in 2020 W53, then W1 from Monday 4 Jan.
    expect(weeks).toEqual(['53', '1', '2', '3', '4']);
    expect(html).toMatch(/aria-hidden="true"><tr><th[^>]*>Wk<\/th><th[^>]*>Mon<\/th>/);
  });

  it('Calendar: 2026-12-31 and 2027-01-01 are in week 53', () => {
    const html = render(<Calendar aria-label="Date" defaultFocusedValue={new CalendarDate(2027, 1, 1)} />);
    const weeks = weekNumbers(html);
    expect(weeks[0]).toBe('53');
    expect(weeks[1]).toBe('1');
  });

  it('DatePicker posts an ISO date under its name and uses a 24-hour clock', () => {
    const date = render(<DatePicker name="due" label="Due" defaultValue={new CalendarDate(2024, 3, 5)} />, {
      locale: 'sv-SE',
    });
    expect(date).toMatch(/<input[^>]*name="due"[^>]*value="2024-03-05"|value="2024-03-05"[^>]*name="due"/);
    const withTime = render(<DatePicker name="start" label="Start" granularity="minute" />, { locale: 'en-US' });
    expect(withTime).not.toMatch(/AM|PM/);
    expect(withTime).toContain('aria-label="Open calendar"');
  });

  it('one notice once: the same message twice at once shows once, moved last; at most five', () => {
    const saved = { kind: 'success' as const, message: 'Saved' };
    let q = queueToast([], { ...saved, id: 1 });
    q = queueToast(q, { kind: 'error', message: 'Oops', id: 2 });
    q = queueToast(q, { ...saved, id: 3 });
    expect(q.map((t) => t.id)).toEqual([2, 3]);
    q = queueToast(q, { kind: 'error', message: 'Saved', id: 4 });
    expect(q.map((t) => t.id)).toEqual([2, 3, 4]);
    for (let i = 5; i < 10; i++) q = queueToast(q, { kind: 'info', message: `n${i}`, id: i });
    expect(q.map((t) => t.id)).toEqual([5, 6, 7, 8, 9]);
  });

  it('ToastProvider renders an empty live region from the start', () => {
    const html = render(
      <ToastProvider>
        <main>page</main>
      </ToastProvider>,
      { lang: 'sv' },
    );
    expect(html).toContain('role="status"');
    expect(html).toContain('aria-live="polite"');
    expect(html).toContain('aria-label="Aviseringar"');
  });
});
