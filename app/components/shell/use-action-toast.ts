import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
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
