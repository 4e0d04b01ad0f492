import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError, useRouteLoaderData } from 'react-router';

/**
 * The 403, 404 and unexpected-error pages share one calm layout with a way back to the start.
 * `inShell`: drawn inside the signed-in shell's `<main>` (the top bar stays), so not a `<main>` itself.
 */
export function ErrorPage({ title, body, inShell = false }: { title: string; body: string; inShell?: boolean }) {
  const { t } = useTranslation();
  const Tag = inShell ? 'div' : 'main';
  return (
    <Tag className="mx-auto flex min-h-[60dvh] max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      <p className="text-slate-600">{body}</p>
      <a
        href="/"
        className="rounded-md bg-brand-600 px-4 py-2.5 font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        {t('errors.backHome')}
      </a>
    </Tag>
  );
}

/**
 * A route's error as a page (the root's boundary, and the signed-in shell's inside its top bar).
 * Never a stack trace: 403 and 404 get their pages, anything else a reference to quote.
 */
export function RouteErrorPage({ inShell = false }: { inShell?: boolean }) {
  const error = useRouteError();
  const { t } = useTranslation();
  const root = useRouteLoaderData<{ requestId?: string }>('root');
  const page = (title: string, body: string) => <ErrorPage title={title} body={body} inShell={inShell} />;
  if (isRouteErrorResponse(error) && error.status === 403)
    return page(t('errors.permissionDenied.title'), t('errors.permissionDenied.body'));
  // A field holding a character PostgreSQL refuses (app/middleware/edge.server.ts).
  if (isRouteErrorResponse(error) && error.status === 400) {
    const fields = (error.data as { fields?: Record<string, string[]> } | null)?.fields ?? {};
    return page(
      t('errors.invalidCharacter.title'),
      t('errors.invalidCharacter.body', { field: Object.keys(fields)[0] ?? '—' }),
    );
  }
  if (isRouteErrorResponse(error) && error.status === 404)
    return page(t('errors.notFound.title'), t('errors.notFound.body'));
  // Spec section 8: a request that never got an answer (network down, timeout).
  if (error instanceof TypeError && /fetch|network/i.test(error.message))
    return page(t('errors.unexpected.title'), t('WARNING_NETWORK_ERROR_PLEASE_REFRESH'));
  return page(t('errors.unexpected.title'), t('errors.unexpected.body', { ref: root?.requestId ?? '—' }));
}
