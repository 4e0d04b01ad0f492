import { describe, expect, it } from 'vitest';
import { isAppError } from '~/core/errors/app-error';
import {
  isFlagged,
  missingRequired,
  parseFieldValue,
  parsePageValues,
  ZReportField,
  ZSaveTemplate,
  type ReportField,
  type ReportPage,
} from './service-report.schema';
import { builtInServiceReports } from './built-in-templates';

const field = (kind: ReportField['kind'], spec: Partial<ReportField> = {}): ReportField => ({
  id: '00000000-0000-4000-8000-000000000001',
  kind,
  label: 'F',
  required: false,
  unit: null,
  min: null,
  max: null,
  options: [],
  ...spec,
});

/** The first error key zod gives a field definition, or 'ok'. */
function fieldRule(input: Record<string, unknown>) {
  const r = ZReportField.safeParse({ label: 'Fält', ...input });
  return r.success ? 'ok' : `${r.error.issues[0]!.path.join('.')}:${r.error.issues[0]!.message}`;
}

describe('[service reports] template field rules', () => {
  it.each([
    [{ kind: 'text' }, 'ok'],
    [{ kind: 'nope' }, 'kind:ERROR_INVALID_VALUE'],
    [{ kind: 'text', label: '  ' }, 'label:ERROR_REQUIRED_FIELD'],
    [{ kind: 'text', label: 'x'.repeat(201) }, 'label:ERROR_MAX_LENGTH'],
    [{ kind: 'heading', required: true }, 'required:ERROR_HEADING_NOT_REQUIRED'],
    [{ kind: 'number', unit: 'kg' }, 'ok'],
    [{ kind: 'number', unit: 'x'.repeat(21) }, 'unit:ERROR_MAX_LENGTH'],
    [{ kind: 'measure', unit: 'V' }, 'min:ERROR_MEASURE_NEEDS_LIMIT'],
    [{ kind: 'measure', min: 12 }, 'ok'],
    [{ kind: 'measure', max: 150 }, 'ok'],
    [{ kind: 'measure', min: 14, max: 12 }, 'max:ERROR_MIN_ABOVE_MAX'],
    [{ kind: 'measure', min: 'a' }, 'min:ERROR_NOT_A_NUMBER'],
    [{ kind: 'choice', options: ['A'] }, 'options:ERROR_AT_LEAST_TWO_OPTIONS'],
    [{ kind: 'choice', options: ['A', 'a'] }, 'options:ERROR_DUPLICATE_OPTION'],
    [{ kind: 'choice', options: ['A', 'B'] }, 'ok'],
    [{ kind: 'choice', options: Array.from({ length: 31 }, (_, i) => `o${i}`) }, 'options:ERROR_MAX_LENGTH'],
    [{ kind: 'yesno', required: true }, 'ok'],
    [{ kind: 'photo' }, 'ok'],
    [{ kind: 'signature', required: true }, 'ok'],
    [{ kind: 'date' }, 'ok'],
  ])('%j → %s', (input, expected) => {
    expect(fieldRule(input)).toBe(expected);
  });

  it('drops the settings a kind does not use', () => {
    const text = ZReportField.parse({ label: 'T', kind: 'text', unit: 'V', min: 1, max: 2, options: ['a', 'b'] });
    expect([text.unit, text.min, text.max, text.options]).toEqual([null, null, null, []]);
    const measure = ZReportField.parse({ label: 'M', kind: 'measure', unit: 'V', min: 1, max: 2, options: ['a', 'b'] });
    expect([measure.unit, measure.min, measure.max, measure.options]).toEqual(['V', 1, 2, []]);
  });
});

describe('[service reports] template rules', () => {
  const page = { title: 'Sida', fields: [{ kind: 'text', label: 'A' }] };
  it.each([
    [{ title: 'Mall', onDemand: true, pages: [page] }, 'ok'],
    [{ title: 'Mall', pages: [page] }, 'workTypeIds:ERROR_AT_LEAST_ONE_WORK_TYPE'],
    [{ title: 'Mall', workTypeIds: ['00000000-0000-4000-8000-000000000009'], pages: [page] }, 'ok'],
    [{ title: 'M', onDemand: true, pages: [page] }, 'title:ERROR_MIN_LENGTH_2'],
    [{ title: 'Mall', onDemand: true, pages: [] }, 'pages:ERROR_AT_LEAST_ONE_PAGE'],
    [
      { title: 'Mall', onDemand: true, pages: [{ title: 'Tom', fields: [] }] },
      'pages.0.fields:ERROR_AT_LEAST_ONE_FIELD',
    ],
    [{ title: 'Mall', onDemand: true, pages: Array.from({ length: 21 }, () => page) }, 'pages:ERROR_MAX_LENGTH'],
    [
      {
        title: 'Mall',
        onDemand: true,
        pages: [{ title: 'S', fields: Array.from({ length: 61 }, () => page.fields[0]) }],
      },
      'pages.0.fields:ERROR_MAX_LENGTH',
    ],
  ])('%j → %s', (input, expected) => {
    const r = ZSaveTemplate.safeParse(input);
    const got = r.success ? 'ok' : `${r.error.issues[0]!.path.join('.')}:${r.error.issues[0]!.message}`;
    expect(got).toBe(expected);
  });

  it('the built-in templates follow the rules', () => {
    for (const t of builtInServiceReports()) {
      const r = ZSaveTemplate.safeParse({ title: t.title, description: t.description, onDemand: true, pages: t.pages });
      expect(r.success, `${t.key}: ${JSON.stringify(r.error?.issues)}`).toBe(true);
    }
  });
});

describe('[service reports] values by field kind', () => {
  const choice = field('choice', { options: ['Skjutdörr', 'Slagdörr'] });
  const measure = field('measure', { min: 12, max: 13.9, unit: 'V' });
  it.each<[ReportField, unknown, string]>([
    [field('heading'), 'x', 'error:ERROR_INVALID_VALUE'],
    [field('heading'), '', 'null'],
    [field('text'), '  hej ', '"hej"'],
    [field('text'), 'x'.repeat(501), 'error:ERROR_MAX_LENGTH'],
    [field('longtext'), 'x'.repeat(501), `"${'x'.repeat(501)}"`],
    [field('text'), { a: 1 }, 'error:ERROR_INVALID_VALUE'],
    [field('number'), '3,5', '3.5'],
    [field('number'), 'tre', 'error:ERROR_NOT_A_NUMBER'],
    [measure, 11.2, '11.2'],
    [measure, '14,1', '14.1'],
    [field('yesno'), 'yes', '"yes"'],
    [field('yesno'), 'na', '"na"'],
    [field('yesno'), 'kanske', 'error:ERROR_INVALID_VALUE'],
    [choice, 'Slagdörr', '"Slagdörr"'],
    [choice, 'Vikdörr', 'error:ERROR_INVALID_VALUE'],
    [field('date'), '2026-02-28', '"2026-02-28"'],
    [field('date'), '2026-02-30', 'error:ERROR_INVALID_DATE'],
    [field('photo'), ['00000000-0000-4000-8000-000000000002'], '["00000000-0000-4000-8000-000000000002"]'],
    [field('photo'), ['x'], 'error:ERROR_INVALID_VALUE'],
    [field('signature'), { name: 'Kund Kundsson' }, '{"name":"Kund Kundsson","image":null}'],
    [field('signature'), { name: 'K', image: 'data:image/jpeg;base64,AAA=' }, 'error:ERROR_INVALID_VALUE'],
    [field('signature'), { name: '' }, 'error:ERROR_REQUIRED_FIELD'],
    [field('number'), null, 'null'],
  ])('%s %j → %s', (f, raw, expected) => {
    const r = parseFieldValue(f, raw);
    expect(r.ok ? JSON.stringify(r.value) : `error:${r.error}`).toBe(expected);
  });

  it('flags a measure outside its limits and a yes/no answered "no", nothing else', () => {
    expect(isFlagged(measure, 11.9)).toBe(true);
    expect(isFlagged(measure, 14)).toBe(true);
    expect(isFlagged(measure, 13)).toBe(false);
    expect(isFlagged(field('measure', { max: 150 }), 151)).toBe(true);
    expect(isFlagged(field('measure', { max: 150 }), -5)).toBe(false);
    expect(isFlagged(field('yesno'), 'no')).toBe(true);
    expect(isFlagged(field('yesno'), 'na')).toBe(false);
    expect(isFlagged(field('number'), 1e6)).toBe(false);
  });
});

describe('[service reports] a page and the required fields', () => {
  const a = field('measure', { id: 'a', min: 0, max: 10, required: true });
  const b = field('text', { id: 'b' });
  const page: ReportPage = { id: 'p1', title: 'P', fields: [a, b] };

  it('keeps the page values, drops empties and refuses unknown fields and bad values together', () => {
    expect(parsePageValues(page, { a: '12', b: '' })).toEqual({ a: 12 });
    try {
      parsePageValues(page, { a: 'x', zz: 1 });
      expect.unreachable();
    } catch (e) {
      expect(isAppError(e) && e.details).toEqual({
        fields: { 'data.a': ['ERROR_NOT_A_NUMBER'], 'data.zz': ['ERROR_UNKNOWN_REPORT_FIELD'] },
      });
    }
  });

  it('names every required field left empty, page by page', () => {
    expect(missingRequired([page], {})).toEqual({ 'pages.p1.a': ['ERROR_REQUIRED_FIELD'] });
    expect(missingRequired([page], { p1: { a: 0 } })).toEqual({});
  });
});
