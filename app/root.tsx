import { useEffect } from 'react';
import { I18nProvider, RouterProvider } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useHref,
  useMatches,
  useNavigate,
  useRouteLoaderData,
} from 'react-router';
import type { Route } from './+types/root';
import { requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware, getLocale } from '~/app/middleware/i18n.server';
import { sessionMiddleware } from '~/app/middleware/session.server';
import { formEdgeMiddleware } from '~/app/middleware/edge.server';
import { useNonce } from '~/app/lib/nonce';
import { documentTitle, titleOfMatches } from '~/app/lib/page-title';
import { formattingLocale, isLang, DEFAULT_LANG } from '~/core/i18n/languages';
import { RouteErrorPage } from '~/app/components/shell/error-page';
import { ToastProvider } from '~/app/components/ui';
import { restoreTypedInput } from '~/app/lib/pre-hydration-input';
import { switchLanguage } from '~/app/locales/load';
import { TranslationsUsed } from '~/app/locales/usage';
import stylesheet from './app.css?url';

export const middleware: Route.MiddlewareFunction[] = [sessionMiddleware, i18nextMiddleware, formEdgeMiddleware];

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
];

export async function loader({ context }: Route.LoaderArgs) {
  const tenant = context.get(tenantContext);
  const locale = getLocale(context);
  return {
    lang: isLang(locale) ? locale : DEFAULT_LANG,
    company: tenant.displayName,
    dateFormat: tenant.config.dateFormat,
    country: tenant.config.country,
    currency: tenant.config.currency.symbol,
    logoUrl: tenant.config.logoUrl,
    requestId: context.get(requestContext).requestId,
  };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  const lang = data?.lang ?? DEFAULT_LANG;
  const navigate = useNavigate();
  const nonce = useNonce();
  const { t } = useTranslation();
  // the deepest route that names its page (its `handle`, app/lib/page-title.ts) titles the document
  const page = titleOfMatches(useMatches());
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>
          {documentTitle(
            page ? [t(page.key, page.values), ...(page.within ? [t(page.within)] : [])].join(' – ') : null,
            data?.company,
          )}
        </title>
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh">
        {/* react-aria links (menus, tabs, link buttons) navigate through the router, not a reload. */}
        <RouterProvider navigate={navigate} useHref={useHref}>
          <I18nProvider locale={formattingLocale(lang)}>
            <ToastProvider>{children}</ToastProvider>
          </I18nProvider>
        </RouterProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
        <TranslationsUsed />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { i18n } = useTranslation();
  // After the language switch the root loader answers the new language; follow it.
  useEffect(() => {
    restoreTypedInput();
    // Marks the page interactive (browser tests wait for it before using menus and dialogs).
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  useEffect(() => {
    if (i18n.language !== loaderData.lang) void switchLanguage(i18n, loaderData.lang);
  }, [i18n, loaderData.lang]);
  return <Outlet />;
}

/** Never a stack trace: 403 and 404 get their pages, anything else a reference to quote. */
export function ErrorBoundary() {
  return <RouteErrorPage />;
}
