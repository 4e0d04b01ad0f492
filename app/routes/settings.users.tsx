import { useTranslation } from 'react-i18next';
import { useEffect } from 'react';
import { data, Form, useActionData, useFetcher, useNavigation, useSearchParams, useSubmit } from 'react-router';
import type { Route } from './+types/settings.users';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, LinkButton, ListFilters, ListPage, ListTable, TextField, useToast } from '~/app/components/ui';
import { useCan } from '~/app/lib/can';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { hasAccess } from '~/core/permissions/access';
import {
  deleteDepartment,
  listDepartments,
  listUsers,
  saveDepartment,
  type UserListItem,
} from '~/core/users/user.service';
import { invitationLink } from '~/core/users/invite.service';
import { getMailer } from '~/core/mail/mailer';
import { pageTitle } from '~/app/lib/page-title';

/**
 * An invited person's link, fetched anew (the older ones stop working) and copied to the
 * clipboard; shown in a field as well, for when the browser refuses the clipboard.
 */
function InvitationLink({ user }: { user: UserListItem }) {
  const { t } = useTranslation('users');
  const fetcher = useFetcher<ActionResult>();
  const toast = useToast();
  const link = fetcher.data?.link;
  useEffect(() => {
    if (!link) return;
    navigator.clipboard?.writeText(link).then(
      () => toast.show({ kind: 'success', message: t('invite.linkCopied', { name: user.name }) }),
      () => toast.show({ kind: 'info', message: t('invite.linkShown') }),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [link]);
  return (
    <>
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="invite-link" />
        <input type="hidden" name="id" value={user.id} />
        <Button type="submit" variant="secondary" size="sm" isDisabled={fetcher.state !== 'idle'}>
          {t('invite.copyLink')}
        </Button>
      </fetcher.Form>
      {link ? (
        <input
          readOnly
          value={link}
          aria-label={t('invite.linkLabel', { name: user.name })}
          onFocus={(e) => e.currentTarget.select()}
          className="w-full min-w-48 rounded border border-slate-300 px-2 py-1 text-xs"
        />
      ) : null}
      {fetcher.data?.code ? <span className="text-xs text-red-700">{t(`common:${fetcher.data.code}`)}</span> : null}
    </>
  );
}

/** Settings → users (spec section 2): who may sign in, filtered by status, and the departments. */
export const middleware = guard({ permission: 'users:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const [users, departments] = await run(
    context,
    async (ctx) => [await listUsers(ctx, params), await listDepartments(ctx)] as const,
  );
  return {
    ...users,
    departments,
    canEditInstance: hasAccess(auth, { permission: 'instance:edit' }),
    // without a mail relay, invitations wait in the operators' outbox: say so, and offer the link
    mailRelay: getMailer().kind === 'smtp',
  };
}

type ActionResult = { ok?: boolean; code?: string; fields?: Record<string, string[]>; link?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    if (form.get('intent') === 'invite-link') {
      const { link } = await run(context, (ctx) => invitationLink(ctx, form.get('id'), new URL(request.url).hostname));
      return data<ActionResult>({ link });
    }
    await run(context, async (ctx) => {
      if (form.get('intent') === 'delete-department') await deleteDepartment(ctx, form.get('id'));
      else await saveDepartment(ctx, { name: form.get('name') });
    });
    return data<ActionResult>({ ok: true });
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.users', null, { within: 'settings.title' });

export default function Users({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const can = useCan();
  const [params] = useSearchParams();
  const submit = useSubmit();
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state === 'submitting';
  useActionToast(result);
  // Each flag posts a hidden 'false' and, when ticked, a 'true' after it.
  const flag = (name: string, fallback: boolean) =>
    params.has(name) ? params.getAll(name).includes('true') : fallback;
  const columns = [
    { id: 'name', header: t('col.name'), isRowHeader: true, render: (u: UserListItem) => u.name },
    { id: 'email', header: t('col.email'), render: (u: UserListItem) => <span className="break-all">{u.email}</span> },
    { id: 'department', header: t('col.department'), render: (u: UserListItem) => u.department ?? '—' },
    { id: 'levels', header: t('col.accessLevels'), render: (u: UserListItem) => u.accessLevels.join(', ') || '—' },
    {
      id: 'status',
      header: t('col.status'),
      render: (u: UserListItem) =>
        u.status === 'registered' && can('users:edit') ? (
          <span className="flex flex-col items-start gap-1">
            {t(`status.${u.status}`)}
            <InvitationLink user={u} />
          </span>
        ) : (
          t(`status.${u.status}`)
        ),
    },
  ];
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
      <ListPage
        title={t('title')}
        actions={
          can('users:edit') ? (
            <LinkButton href="/settings/users/new" variant="primary">
              {t('invite.button')}
            </LinkButton>
          ) : null
        }
      >
        {params.get('invited') === 'smtp' ? (
          <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
            {t('invite.sent')}
          </p>
        ) : params.get('invited') === 'outbox' ? (
          <p role="status" className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-950">
            {t('invite.outbox')}
          </p>
        ) : null}
        {!loaderData.mailRelay && !params.get('invited') && can('users:edit') ? (
          <p className="mt-3 text-sm text-slate-600">{t('invite.noRelay')}</p>
        ) : null}
        <ListFilters
          keep={[]}
          submitLabel={t('filter.apply')}
          onChange={(e) => {
            if (e.target instanceof HTMLInputElement && e.target.type === 'checkbox')
              void submit(e.currentTarget, { replace: true });
          }}
        >
          {(['active', 'inactive', 'registered'] as const).map((name) => (
            <label key={name} className="flex min-h-10 items-center gap-2 text-sm">
              <input type="hidden" name={name} value="false" />
              <input
                type="checkbox"
                name={name}
                value="true"
                defaultChecked={flag(name, name === 'active')}
                className="size-4 accent-brand-600"
              />
              {t(`filter.${name}`)}
            </label>
          ))}
          <TextField
            name="q"
            type="search"
            label={t('filter.search')}
            defaultValue={params.get('q') ?? ''}
            className="min-w-48 flex-1"
          />
        </ListFilters>
        <ListTable
          aria-label={t('title')}
          columns={columns}
          rows={loaderData.users}
          getRowHref={(u) => `/settings/users/${u.id}`}
          count={t('count', { count: loaderData.totalCount })}
          empty={{ empty: t('empty'), filtered: t('empty'), isFiltered: false }}
          paged={false}
          totalCount={loaderData.totalCount}
          offset={0}
          limit={loaderData.totalCount}
        />
      </ListPage>
      <aside className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 className="text-lg font-medium">{t('departments.title')}</h2>
        {loaderData.departments.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500">{t('departments.empty')}</p>
        ) : null}
        <ul className="mt-2 divide-y divide-slate-100">
          {loaderData.departments.map((d) => (
            <li key={d.id} className="flex items-center justify-between gap-2 py-2 text-sm">
              <span>
                {d.name} <span className="text-slate-500">· {t('departments.users', { count: d.userCount })}</span>
              </span>
              {loaderData.canEditInstance && d.userCount === 0 ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="delete-department" />
                  <input type="hidden" name="id" value={d.id} />
                  <Button
                    type="submit"
                    variant="ghost"
                    size="sm"
                    aria-label={t('departments.delete', { name: d.name })}
                  >
                    ×
                  </Button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
        {loaderData.canEditInstance ? (
          <Form method="post" className="mt-4 flex items-end gap-2" key={loaderData.departments.length}>
            <TextField
              name="name"
              label={t('departments.name')}
              className="flex-1"
              errorMessage={result?.fields?.name?.map((k) => tc(k))}
            />
            <Button type="submit" variant="secondary" isPending={busy}>
              {t('departments.add')}
            </Button>
          </Form>
        ) : null}
      </aside>
    </div>
  );
}
