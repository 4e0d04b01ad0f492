import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, Spinner, WidgetBoundary } from '~/app/components/ui';

/*
 * What the project screen's tab panels share: each loads its own resource route once per URL (so
 * the project page's loader stays small), shows a spinner until the answer, and a translated error
 * with "Try again" when the route answers `{error}`; and each is a card with a heading.
 */

/** The panel's data once its route answered without an error; the spinner or error until then. */
export function usePanelData<T extends object>(
  url: string,
  labels: { loading: string; retry: string },
): { data: T | null; pending: ReactNode } {
  const { t: tc } = useTranslation();
  const loader = useFetcher<T | { error: string }>();
  useEffect(() => {
    void loader.load(url);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);
  const answer = loader.data;
  // the routes answer plain JSON: what arrives is the loader's type
  if (answer && !('error' in answer)) return { data: answer as unknown as T, pending: null };
  const failed = answer && 'error' in answer && loader.state === 'idle';
  return {
    data: null,
    pending: failed ? (
      <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-red-700">
        {tc(answer.error)}
        <Button size="sm" variant="secondary" onPress={() => void loader.load(url)}>
          {labels.retry}
        </Button>
      </p>
    ) : (
      <Spinner label={labels.loading} className="mt-2" />
    ),
  };
}

/** A panel's card: its heading (named for the section) and an action beside it. */
export function PanelSection({
  headingId,
  title,
  action,
  children,
}: {
  headingId: string;
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-base font-semibold">
          {title}
        </h2>
        {action}
      </div>
      <WidgetBoundary>{children}</WidgetBoundary>
    </section>
  );
}
