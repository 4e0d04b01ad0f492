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
import svAccess from './sv/access.json';
import svAuth from './sv/auth.json';
import svUsers from './sv/users.json';
import enAccess from './en/access.json';
import enAuth from './en/auth.json';
import enUsers from './en/users.json';
import etAccess from './et/access.json';
import etAuth from './et/auth.json';
import etUsers from './et/users.json';
import lvAccess from './lv/access.json';
import lvAuth from './lv/auth.json';
import lvUsers from './lv/users.json';
import ruAccess from './ru/access.json';
import ruAuth from './ru/auth.json';
import ruUsers from './ru/users.json';

/**
 * Every translation, by language and namespace. `common` holds the shell, sign-in and the spec's
 * message keys (errors and notices); `ui` the design system's own words; `access` permissions,
 * access levels and app modules; `auth` the sign-in screens and mails; `users` user administration.
 */
export const resources = {
  sv: { common: svCommon, ui: svUi, access: svAccess, auth: svAuth, users: svUsers },
  en: { common: enCommon, ui: enUi, access: enAccess, auth: enAuth, users: enUsers },
  et: { common: etCommon, ui: etUi, access: etAccess, auth: etAuth, users: etUsers },
  lv: { common: lvCommon, ui: lvUi, access: lvAccess, auth: lvAuth, users: lvUsers },
  ru: { common: ruCommon, ui: ruUi, access: ruAccess, auth: ruAuth, users: ruUsers },
} satisfies Record<Lang, Record<string, Record<string, string>>>;

export const NAMESPACES = ['common', 'ui', 'access', 'auth', 'users'] as const;
