import { useTranslation } from 'react-i18next';
import { AuthCard, AuthLink, AuthNotice } from './auth-card';
import { NewPasswordForm } from './new-password-form';
import { RecoveryRequestForm } from './recovery-request-form';

/** What the login route's loader found for a mailed link. */
export type LinkCheck = { valid: true; token: string; email: string; name: string } | { valid: false; code: string };

/** What the login route's actions answer for these screens. */
export type LinkActionResult =
  { done: 'forgot' | 'recovered' | 'registered' } | { code: string; fields?: Record<string, string[]> };

function errorOf(result: LinkActionResult | undefined) {
  return result && 'code' in result ? result : undefined;
}

/** The link no longer works: say so, and offer the way on. */
function ExpiredLink({ code, askAgain }: { code: string; askAgain: boolean }) {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation('common');
  return (
    <>
      <AuthNotice kind="error">{tc(code)}</AuthNotice>
      <div className="mt-4 flex flex-col items-start">
        {askAgain ? <AuthLink href="/login?forgot">{t('askAgain')}</AuthLink> : null}
        <AuthLink href="/login">{t('backToLogin')}</AuthLink>
      </div>
    </>
  );
}

function FormError({ result }: { result: LinkActionResult | undefined }) {
  const { t: tc } = useTranslation('common');
  const error = errorOf(result);
  return error && !error.fields ? <AuthNotice kind="error">{tc(error.code)}</AuthNotice> : null;
}

/** Spec: password-recovery request, reached by the can't-log-in link. */
export function ForgotPasswordScreen({ result, busy }: { result?: LinkActionResult; busy: boolean }) {
  const { t } = useTranslation('auth');
  const sent = result && 'done' in result && result.done === 'forgot';
  return (
    <AuthCard title={t('forgot.title')}>
      {sent ? (
        <AuthNotice kind="success">{t('forgot.sent')}</AuthNotice>
      ) : (
        <>
          <FormError result={result} />
          <RecoveryRequestForm fields={errorOf(result)?.fields} busy={busy} />
        </>
      )}
      <div className="mt-4">
        <AuthLink href="/login">{t('backToLogin')}</AuthLink>
      </div>
    </AuthCard>
  );
}

/** Spec: password recovery (query t and lang): token check, new password, success message. */
export function RecoveryScreen({ link, result, busy }: { link: LinkCheck; result?: LinkActionResult; busy: boolean }) {
  const { t } = useTranslation('auth');
  if (result && 'done' in result)
    return (
      <AuthCard title={t('recovery.title')}>
        <AuthNotice kind="success">{t('recovery.done')}</AuthNotice>
        <div className="mt-4">
          <AuthLink href="/login">{t('signIn')}</AuthLink>
        </div>
      </AuthCard>
    );
  return (
    <AuthCard title={t('recovery.title')}>
      {!link.valid ? (
        <ExpiredLink code={link.code} askAgain />
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-600">{t('recovery.intro', { email: link.email })}</p>
          <FormError result={result} />
          <NewPasswordForm
            hidden={{ intent: 'recover', token: link.token }}
            username={link.email}
            fields={errorOf(result)?.fields}
            submitLabel={t('recovery.submit')}
            busy={busy}
          />
        </>
      )}
    </AuthCard>
  );
}

/** Spec: registration (query rt and lang): token check, name and e-mail, new password, success message. */
export function RegistrationScreen({
  link,
  result,
  busy,
}: {
  link: LinkCheck;
  result?: LinkActionResult;
  busy: boolean;
}) {
  const { t } = useTranslation('auth');
  if (result && 'done' in result)
    return (
      <AuthCard title={t('registration.title')}>
        <AuthNotice kind="success">{t('registration.done')}</AuthNotice>
        <div className="mt-4">
          <AuthLink href="/login">{t('signIn')}</AuthLink>
        </div>
      </AuthCard>
    );
  return (
    <AuthCard title={t('registration.title')}>
      {!link.valid ? (
        <ExpiredLink code={link.code} askAgain={false} />
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-600">{t('registration.intro')}</p>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">{t('registration.name')}</dt>
            <dd className="font-medium break-words">{link.name}</dd>
            <dt className="text-slate-600">{t('registration.email')}</dt>
            <dd className="font-medium break-all">{link.email}</dd>
          </dl>
          <FormError result={result} />
          <NewPasswordForm
            hidden={{ intent: 'register', token: link.token }}
            username={link.email}
            fields={errorOf(result)?.fields}
            submitLabel={t('registration.submit')}
            busy={busy}
          />
        </>
      )}
    </AuthCard>
  );
}
