import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useToast } from '~/app/components/ui';

/** Shows the outcome of a form action once: success (3 s) or the error's message key (5 s). */
export function useActionToast(result: { ok?: boolean; code?: string } | undefined) {
  const { t } = useTranslation();
  const toast = useToast();
  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.show({ kind: 'success', message: t('SUCCESSFULLY_SAVED') });
    else if (result.code) toast.show({ kind: 'error', message: t(result.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);
}

/**
 * Shows a success toast once for an outcome an action redirected with (`?created=1`, `?deleted=1`):
 * the action answers with a redirect (so nothing is left to load on a deleted record's page, and
 * the page works without JavaScript), the page it lands on says what happened.
 */
export function useRedirectToast(messages: Record<string, string>) {
  const [params] = useSearchParams();
  const toast = useToast();
  const said = Object.keys(messages).find((key) => params.get(key));
  useEffect(() => {
    if (said) toast.show({ kind: 'success', message: messages[said]! });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [said, params]);
}
