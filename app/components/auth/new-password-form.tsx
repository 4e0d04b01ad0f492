import { useTranslation } from 'react-i18next';
import { Form } from 'react-router';
import { Button, TextField } from '~/app/components/ui';

export interface NewPasswordFormProps {
  /** Hidden fields the action needs (intent, token). */
  hidden: Record<string, string>;
  /** The account's e-mail, so password managers save the new password under the right name. */
  username: string;
  /** Message keys per field from the action's result (spec keys, in `common`). */
  fields?: Record<string, string[]>;
  submitLabel: string;
  busy: boolean;
}

/** New password and its repeat, as registration, recovery and the welcome link ask for them. */
export function NewPasswordForm({ hidden, username, fields, submitLabel, busy }: NewPasswordFormProps) {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation('common');
  const fieldError = (name: string) => fields?.[name]?.map((key) => tc(key));
  return (
    <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="username" autoComplete="username" value={username} />
      <TextField
        name="password"
        type="password"
        label={t('password.new')}
        description={t('password.hint')}
        autoComplete="new-password"
        isRequired
        autoFocus
        errorMessage={fieldError('password')}
      />
      <TextField
        name="repeat"
        type="password"
        label={t('password.repeat')}
        autoComplete="new-password"
        isRequired
        errorMessage={fieldError('repeat')}
      />
      <Button type="submit" variant="primary" isPending={busy}>
        {submitLabel}
      </Button>
    </Form>
  );
}
