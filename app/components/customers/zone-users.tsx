import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, TextField } from '~/app/components/ui';
import { useSectionFetcher } from './customer-pricing';
import { TrashIcon } from './icons';
import { useConfirm } from './use-confirm';
import { useDateFormat } from '~/app/components/objects/shared';
import { formatDate } from '~/core/i18n/number-format';

export interface ZoneUserRow {
  id: string;
  email: string;
  name: string;
  status: 'STATUS_REGISTERED' | 'STATUS_ACTIVE' | 'STATUS_INACTIVE';
  lastSignInAt?: string | null;
}

/**
 * The customer's people in the customer zone: invite one (they get an e-mail with a link to
 * choose a password), send the invitation again, change name or address, remove.
 */
export function ZoneUsers({ users }: { users: readonly ZoneUserRow[] }) {
  const { t } = useTranslation('customers');
  const dateFormat = useDateFormat();
  const { t: tc } = useTranslation();
  const invite = useSectionFetcher();
  const act = useSectionFetcher();
  const [ask, dialog] = useConfirm();
  const [editing, setEditing] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const errors = invite.data && !invite.data.ok ? invite.data.fields : undefined;
  const editErrors = act.data && !act.data.ok ? act.data.fields : undefined;
  useEffect(() => {
    if (invite.state === 'idle' && invite.data?.ok) formRef.current?.reset();
  }, [invite.state, invite.data]);
  useEffect(() => {
    if (act.state === 'idle' && act.data?.ok) setEditing(null);
  }, [act.state, act.data]);

  return (
    <div className="grid gap-3">
      {users.length === 0 ? (
        <p className="text-sm text-slate-600">{t('zone.empty')}</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {users.map((u) =>
            editing === u.id ? (
              <li key={u.id} className="py-2">
                <act.Form method="post" className="grid gap-2">
                  <input type="hidden" name="intent" value="zone.edit" />
                  <input type="hidden" name="userId" value={u.id} />
                  <TextField
                    name="name"
                    label={t('zone.name')}
                    defaultValue={u.name}
                    autoFocus
                    isRequired
                    errorMessage={editErrors?.name?.map((k) => tc(k))}
                  />
                  <TextField
                    name="email"
                    type="email"
                    label={t('zone.email')}
                    defaultValue={u.email}
                    isRequired
                    description={u.status === 'STATUS_REGISTERED' ? t('zone.emailChangeHelp') : undefined}
                    errorMessage={editErrors?.email?.map((k) => tc(k))}
                  />
                  <div className="flex gap-2">
                    <Button type="submit" variant="primary" size="sm" isPending={act.state !== 'idle'}>
                      {t('zone.saveUser')}
                    </Button>
                    <Button variant="secondary" size="sm" onPress={() => setEditing(null)}>
                      {t('cancel')}
                    </Button>
                  </div>
                </act.Form>
              </li>
            ) : (
              <li key={u.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0">
                  <span className="block font-medium">{u.name}</span>
                  <span className="block break-all text-slate-700">{u.email}</span>
                  <span className="block text-slate-500">{t(`zone.status.${u.status}`)}</span>
                  <span className="block text-slate-500">
                    {u.lastSignInAt
                      ? t('zone.lastSignIn', { date: formatDate(u.lastSignInAt, dateFormat) })
                      : t('zone.neverSignedIn')}
                  </span>
                </span>
                <span className="flex flex-wrap gap-1">
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={t('zone.resendTo', { name: u.name })}
                    isPending={
                      act.state !== 'idle' &&
                      act.formData?.get('userId') === u.id &&
                      act.formData?.get('intent') === 'zone.resend'
                    }
                    onPress={() => void act.submit({ intent: 'zone.resend', userId: u.id }, { method: 'post' })}
                  >
                    {t('zone.resend')}
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={t('zone.editUser', { name: u.name })}
                    onPress={() => setEditing(u.id)}
                  >
                    {t('zone.edit')}
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    isIconOnly
                    aria-label={t('zone.remove', { name: u.name })}
                    onPress={() =>
                      ask({
                        title: t('zone.remove', { name: u.name }),
                        message: t('zone.removeConfirm', { name: u.name }),
                        confirmLabel: t('remove'),
                        run: () => void act.submit({ intent: 'zone.delete', userId: u.id }, { method: 'post' }),
                      })
                    }
                  >
                    <TrashIcon />
                  </Button>
                </span>
              </li>
            ),
          )}
        </ul>
      )}
      <invite.Form method="post" ref={formRef} className="grid gap-3 rounded-lg bg-slate-50 p-3">
        <input type="hidden" name="intent" value="zone.invite" />
        <h3 className="text-sm font-semibold">{t('zone.invite')}</h3>
        <TextField name="name" label={t('zone.name')} isRequired errorMessage={errors?.name?.map((k) => tc(k))} />
        <TextField
          name="email"
          type="email"
          label={t('zone.email')}
          isRequired
          errorMessage={errors?.email?.map((k) => tc(k))}
        />
        <p className="text-sm text-slate-600">{t('zone.inviteHelp')}</p>
        <div>
          <Button type="submit" variant="primary" isPending={invite.state !== 'idle'}>
            {t('zone.send')}
          </Button>
        </div>
      </invite.Form>
      {dialog}
    </div>
  );
}
