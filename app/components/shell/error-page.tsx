import { useTranslation } from 'react-i18next';

/** The 403, 404 and unexpected-error pages share one calm layout with a way back to the start. */
export function ErrorPage({ title, body }: { title: string; body: string }) {
  const { t } = useTranslation();
  return (
    <main className="mx-auto flex min-h-[60dvh] max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      <p className="text-slate-600">{body}</p>
      <a
        href="/"
        className="rounded-md bg-brand-600 px-4 py-2.5 font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        {t('errors.backHome')}
      </a>
    </main>
  );
}
