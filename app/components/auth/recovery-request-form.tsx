import { useTranslation } from 'react-i18next';
import { Form } from 'react-router';
import { Button, TextField } from '~/app/components/ui';
import { AuthLink } from './auth-card';

/** The login screen's way into password recovery (spec: a can't-log-in link). */
export function ForgotPasswordLink() {
  const { t } = useTranslation('auth');
  return (
    <p className="mt-4 text-center">
      <AuthLink href="/login?forgot">{t('forgot.link')}</AuthLink>
    </p>
  );
}

/** E-mail in, "a message is on its way" out: the same for every address (the server says no more). */
export function RecoveryRequestForm({ fields, busy }: { fields?: Record<string, string[]>; busy: boolean }) {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation('common');
  return (
    <>
      <p className="mt-2 text-sm text-slate-600">{t('forgot.intro')}</p>
      <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
        <input type="hidden" name="intent" value="forgot" />
        <TextField
          name="email"
          type="email"
          label={t('forgot.email')}
          autoComplete="username"
          isRequired
          autoFocus
          errorMessage={fields?.email?.map((key) => tc(key))}
        />
        <Button type="submit" variant="primary" isPending={busy}>
          {t('forgot.submit')}
        </Button>
      </Form>
    </>
  );
}
