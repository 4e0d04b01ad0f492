import type { Lang } from '~/core/i18n/languages';
import svCommon from './sv/common.json';
import svUi from './sv/ui.json';
import enCommon from './en/common.json';
import enUi from './en/ui.json';
import etCommon from './et/common.json';
import etUi from './et/ui.json';
import lvCommon from './lv/common.json';
import lvUi from './lv/ui.json';
import ruCommon from './ru/common.json';
import ruUi from './ru/ui.json';

/**
 * Every translation, by language and namespace. `common` holds the shell, sign-in and the spec's
 * message keys (errors and notices); `ui` the design system's own words.
 */
export const resources = {
  sv: { common: svCommon, ui: svUi },
  en: { common: enCommon, ui: enUi },
  et: { common: etCommon, ui: etUi },
  lv: { common: lvCommon, ui: lvUi },
  ru: { common: ruCommon, ui: ruUi },
} satisfies Record<Lang, Record<string, Record<string, string>>>;

export const NAMESPACES = ['common', 'ui'] as const;
