import fs from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';
import { formatDate, formatDateTime, type DateFormat } from '~/core/i18n/number-format';
import { documentTranslator, type DocumentT } from './i18n';
import type { Lang } from '~/core/i18n/languages';
import { formatHours, formatMoney, formatQuantity } from './format';

/**
 * Where the document templates live: `templates/<name>.hbs`, partials in `templates/partials/`,
 * under the working directory (the repository; `/app` in the image, which copies the whole tree).
 */
export const TEMPLATES_DIR = path.resolve(process.cwd(), 'templates');

export interface RenderOptions {
  /** The document language's words (`documentTranslator(lang)`). */
  t: DocumentT;
  /** BCP 47 locale of the document language, for the `lang` attribute. */
  locale: string;
  /** The tenant's date format; YYYY-MM-DD unless told. */
  dateFormat?: DateFormat;
  /** The tenant's country, for the zone of date-times (Stockholm unless told). */
  country?: string;
}

type Template = Handlebars.TemplateDelegate<unknown>;

const compiled = new Map<string, Template>();
let env: typeof Handlebars | null = null;

/**
 * Values must be escaped by handlebars: a template with a triple-stash (`{{{…}}}`, unescaped
 * output) is refused, so no user text can reach the page as markup.
 */
function checkTemplate(name: string, source: string): string {
  if (source.includes('{{{')) throw new Error(`template "${name}": triple-stash (unescaped output) is not allowed`);
  return source;
}

function environment(): typeof Handlebars {
  if (env) return env;
  const hb = Handlebars.create();
  const partials = path.join(TEMPLATES_DIR, 'partials');
  if (fs.existsSync(partials))
    for (const file of fs.readdirSync(partials).filter((f) => f.endsWith('.hbs'))) {
      const name = file.slice(0, -'.hbs'.length);
      hb.registerPartial(name, checkTemplate(name, fs.readFileSync(path.join(partials, file), 'utf8')));
    }
  env = hb;
  return hb;
}

const NAME = /^[a-z0-9][a-z0-9-]*$/;

function template(name: string): Template {
  let tpl = compiled.get(name);
  if (!tpl) {
    if (!NAME.test(name)) throw new Error(`bad template name "${name}"`);
    const source = checkTemplate(name, fs.readFileSync(path.join(TEMPLATES_DIR, `${name}.hbs`), 'utf8'));
    tpl = environment().compile(source, { strict: false, noEscape: false });
    compiled.set(name, tpl);
  }
  return tpl;
}

/** The helpers a document template may call; each answers plain text that handlebars escapes. */
function helpers(options: RenderOptions): Record<string, Handlebars.HelperDelegate> {
  const dateFormat = options.dateFormat ?? 'YYYY-MM-DD';
  const country = options.country ?? 'SE';
  const opts = (args: unknown[]) => args[args.length - 1] as Handlebars.HelperOptions;
  return {
    /** `{{t "field.title"}}`, `{{t "doc.printed" date=x}}` */
    t: (...args: unknown[]) => options.t(String(args[0]), opts(args).hash as Record<string, unknown>),
    /** A date (plain or instant) in the tenant's format. */
    date: (value: unknown) => (value ? formatDate(value as string, dateFormat) : ''),
    /** An instant with its time in the tenant's zone. */
    datetime: (value: unknown) => (value ? formatDateTime(value as string, { dateFormat, country }) : ''),
    money: (value: unknown) => formatMoney(value),
    quantity: (value: unknown) => formatQuantity(value),
    hours: (minutes: unknown) => formatHours(minutes),
    /** `{{#if (any a b c)}}`: whether any value is present. */
    any: (...args: unknown[]) => args.slice(0, -1).some((v) => (Array.isArray(v) ? v.length > 0 : Boolean(v))),
    /** `(array a b)`: a list for `join`. */
    array: (...args: unknown[]) => args.slice(0, -1),
    /** `{{join list ", "}}`: the non-empty items. */
    join: (list: unknown, sep: unknown) =>
      Array.isArray(list) ? list.filter(Boolean).join(typeof sep === 'string' ? sep : ', ') : '',
  };
}

/**
 * Renders `templates/<templateName>.hbs` with `data` to an HTML document. Templates are compiled
 * once and cached; the helpers (translation, dates, money) are per call, so one compiled template
 * serves every language and tenant.
 */
export function renderHtml(templateName: string, data: unknown, options: RenderOptions): string {
  return template(templateName)(data, { helpers: helpers(options), allowProtoPropertiesByDefault: false });
}

/**
 * Renders a document model (one that knows its language and the tenant's way with dates and
 * numbers) with the document translations: what every printed document does.
 */
export function renderDocument(
  templateName: string,
  model: { lang: Lang; locale: RenderOptions['locale']; dateFormat: DateFormat; country: string },
): string {
  return renderHtml(templateName, model, {
    t: documentTranslator(model.lang),
    locale: model.locale,
    dateFormat: model.dateFormat,
    country: model.country,
  });
}

/** For tests: forget compiled templates (after changing a file). */
export function clearTemplateCache(): void {
  compiled.clear();
  env = null;
}
