import { useTranslation } from 'react-i18next';
import { data, Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/settings.notifications';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button } from '~/app/components/ui';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { hasAccess, SIGNED_IN } from '~/core/permissions/access';
import { MAILED_NOTIFICATION_TYPES, NOTIFICATION_TYPES } from '~/core/notifications/notification-types';
import {
  readMyNotifications,
  readNotificationDefaults,
  saveMyNotifications,
  saveNotificationDefaults,
} from '~/core/notifications/notifications.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → notifications (issue 36 item 5; decision 066): every signed-in person chooses which
 * of the spec's notification types they get by mail; admins (instance:read sees, instance:edit
 * changes) set the company's defaults that everyone follows until they choose otherwise.
 */
export const middleware = guard(SIGNED_IN);

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const showDefaults = hasAccess(auth, { permission: 'instance:read' });
  return run(context, async (ctx) => ({
    mine: (await readMyNotifications(ctx)).types,
    defaults: showDefaults ? (await readNotificationDefaults(ctx)).types : null,
    canEditDefaults: hasAccess(auth, { permission: 'instance:edit' }),
  }));
}

type ActionResult = { ok?: boolean; intent?: string; code?: string; fields?: Record<string, string[]> };

/** A checkbox form as the services' {TYPE: boolean}: every type is on the form, so an unticked one is false. */
function choicesOf(form: FormData) {
  return Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, form.get(type) === 'on']));
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'mine');
  try {
    await run(context, async (ctx) => {
      if (intent === 'defaults') await saveNotificationDefaults(ctx, choicesOf(form));
      else await saveMyNotifications(ctx, choicesOf(form));
    });
    return data<ActionResult>({ ok: true, intent });
  } catch (e) {
    return actionError<ActionResult>(e, { intent });
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.notifications', null, { within: 'settings.title' });

export default function NotificationSettings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('notifications');
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state === 'submitting';
  useActionToast(result);
  const onOff = (on: boolean) => (on ? t('on') : t('off'));
  return (
    <div className="max-w-2xl space-y-4">
      <h1 className="text-2xl font-semibold">{t('title')}</h1>
      <section aria-labelledby="mine" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 id="mine" className="text-lg font-medium">
          {t('mine')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t('mineHelp')}</p>
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="mine" />
          <fieldset>
            <legend className="sr-only">{t('byMail')}</legend>
            <ul className="divide-y divide-slate-100">
              {loaderData.mine.map((c) => (
                <li key={c.type} className="py-2">
                  <label className="flex min-h-10 items-start gap-3">
                    <input
                      type="checkbox"
                      name={c.type}
                      defaultChecked={c.mail}
                      className="mt-1 size-5 shrink-0 accent-brand-600"
                      aria-describedby={`mine-${c.type}-help`}
                    />
                    <span>
                      <span className="font-medium">{t(`type.${c.type}`)}</span>
                      <span id={`mine-${c.type}-help`} className="block text-sm text-slate-600">
                        {t(`help.${c.type}`)} {t('companyDefault', { value: onOff(c.default) })}
                        {MAILED_NOTIFICATION_TYPES.includes(c.type) ? null : ` ${t('notYet')}`}
                      </span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <Button type="submit" variant="primary" isPending={busy} className="mt-3">
            {t('saveMine')}
          </Button>
        </Form>
      </section>
      {loaderData.defaults ? (
        <section aria-labelledby="defaults" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
          <h2 id="defaults" className="text-lg font-medium">
            {t('defaults')}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{t('defaultsHelp')}</p>
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="defaults" />
            <fieldset disabled={!loaderData.canEditDefaults}>
              <legend className="sr-only">{t('defaults')}</legend>
              <ul className="divide-y divide-slate-100">
                {loaderData.defaults.map((d) => (
                  <li key={d.type} className="py-2">
                    <label className="flex min-h-10 items-center gap-3">
                      <input
                        type="checkbox"
                        name={d.type}
                        defaultChecked={d.mail}
                        className="size-5 shrink-0 accent-brand-600"
                      />
                      <span className="font-medium">{t(`type.${d.type}`)}</span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
            {loaderData.canEditDefaults ? (
              <Button type="submit" variant="secondary" isPending={busy} className="mt-3">
                {t('saveDefaults')}
              </Button>
            ) : null}
          </Form>
        </section>
      ) : null}
    </div>
  );
}
