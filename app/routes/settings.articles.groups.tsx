import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Form, Link, useActionData, useNavigation, useSubmit } from 'react-router';
import type { Route } from './+types/settings.articles.groups';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, ConfirmDialog, Dialog, SortableTable, TextField, useToast } from '~/app/components/ui';
import {
  createArticleGroup,
  deleteArticleGroup,
  GROUPS_EDIT,
  GROUPS_READ,
  listArticleGroups,
  updateArticleGroup,
  type TArticleGroup,
} from '~/core/articles/article-group.service';

import { hasAccess } from '~/core/permissions/access';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → article groups (spec: articles:read and the article-groups module; editing with
 * articles:settings): the groups with their article counts; add, rename, delete an unused one.
 */
export const middleware = guard(GROUPS_READ);

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const groups = await run(context, (ctx) => listArticleGroups(ctx));
  return { groups, canEdit: hasAccess(auth, GROUPS_EDIT) };
}

type ActionResult = {
  ok?: boolean;
  intent?: string;
  code?: string;
  fields?: Record<string, string[]>;
  usedBy?: Record<string, number>;
};

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'create');
  try {
    await run(context, async (ctx) => {
      if (intent === 'delete') await deleteArticleGroup(ctx, form.get('id'));
      else if (intent === 'update')
        await updateArticleGroup(ctx, {
          id: form.get('id'),
          title: form.get('title'),
          displayName: form.get('displayName'),
        });
      else await createArticleGroup(ctx, { title: form.get('title'), displayName: form.get('displayName') });
    });
    return data<ActionResult>({ ok: true, intent });
  } catch (e) {
    // The answer says which form it belongs to (create, the edit dialog, delete).
    return actionError<ActionResult>(e, { intent });
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.articleGroups', null, { within: 'settings.title' });

export default function ArticleGroups({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('articles');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const result = useActionData<ActionResult>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [editing, setEditing] = useState<TArticleGroup | null>(null);
  const [deleting, setDeleting] = useState<TArticleGroup | null>(null);
  const busy = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null;
  const { groups, canEdit } = loaderData;

  useEffect(() => {
    if (!result) return;
    if (result.ok) {
      toast.show({
        kind: 'success',
        message: tc(result.intent === 'delete' ? 'SUCCESSFULLY_DELETED' : 'SUCCESSFULLY_SAVED'),
      });
      if (result.intent === 'update') setEditing(null);
    } else if (result.code && !(result.fields && result.intent !== 'delete'))
      toast.show({ kind: 'error', message: tc(result.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);
  const err = (intent: string, name: string) =>
    result?.intent === intent ? result.fields?.[name]?.map((k) => tc(k)) : undefined;

  const columns = [
    { id: 'title', header: t('groups.col.title'), isRowHeader: true, render: (g: TArticleGroup) => g.title },
    { id: 'displayName', header: t('groups.col.displayName'), render: (g: TArticleGroup) => g.displayName },
    {
      id: 'articles',
      header: t('groups.col.articles'),
      align: 'end' as const,
      render: (g: TArticleGroup) =>
        g.articleCount ? (
          <Link className="text-brand-700 underline" to={`/inventory/articles?groupId=${g.id}&status=all`}>
            {g.articleCount}
          </Link>
        ) : (
          '0'
        ),
    },
    {
      id: 'priceLists',
      header: t('groups.col.priceLists'),
      align: 'end' as const,
      render: (g: TArticleGroup) => g.priceListCount,
    },
    ...(canEdit
      ? [
          {
            id: 'actions',
            header: t('groups.col.actions'),
            render: (g: TArticleGroup) => (
              <span className="flex gap-1">
                <Button
                  size="sm"
                  variant="ghost"
                  onPress={() => setEditing(g)}
                  aria-label={t('groups.edit', { name: g.title })}
                >
                  {t('groups.editShort')}
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  onPress={() => setDeleting(g)}
                  aria-label={t('groups.delete', { name: g.title })}
                >
                  {t('groups.deleteShort')}
                </Button>
              </span>
            ),
          },
        ]
      : []),
  ];

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <Link to="/settings/articles" className="text-sm text-brand-700 underline">
          ← {t('settings.title')}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">{t('groups.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('groups.intro')}</p>
        <SortableTable
          aria-label={t('groups.title')}
          className="mt-4"
          columns={columns}
          rows={groups}
          emptyState={t('groups.empty')}
        />
      </section>
      {canEdit ? (
        <aside className="h-fit rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
          <h2 className="text-lg font-medium">{t('groups.new')}</h2>
          <Form method="post" className="mt-3 grid gap-3" key={groups.length} noValidate>
            <input type="hidden" name="intent" value="create" />
            <TextField
              name="title"
              label={t('groups.field.title')}
              description={t('groups.field.title.help')}
              isRequired
              errorMessage={err('create', 'title')}
            />
            <TextField
              name="displayName"
              label={t('groups.field.displayName')}
              errorMessage={err('create', 'displayName')}
            />
            <div>
              <Button type="submit" variant="primary" isPending={busy === 'create'}>
                {t('groups.add')}
              </Button>
            </div>
          </Form>
        </aside>
      ) : null}
      <Dialog
        title={t('groups.editTitle')}
        isOpen={editing !== null}
        onOpenChange={(open) => (open ? null : setEditing(null))}
      >
        {editing ? (
          <Form method="post" className="grid gap-3" noValidate>
            <input type="hidden" name="intent" value="update" />
            <input type="hidden" name="id" value={editing.id} />
            <TextField
              name="title"
              label={t('groups.field.title')}
              defaultValue={editing.title}
              isRequired
              autoFocus
              errorMessage={err('update', 'title')}
            />
            <TextField
              name="displayName"
              label={t('groups.field.displayName')}
              defaultValue={editing.displayName}
              errorMessage={err('update', 'displayName')}
            />
            <div className="flex justify-end">
              <Button type="submit" variant="primary" isPending={busy === 'update'}>
                {t('save')}
              </Button>
            </div>
          </Form>
        ) : null}
      </Dialog>
      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => (open ? null : setDeleting(null))}
        title={t('groups.deleteTitle')}
        message={deleting ? t('groups.deleteConfirm', { name: deleting.title }) : undefined}
        confirmLabel={t('delete')}
        variant="danger"
        onConfirm={() => {
          if (deleting) void submit({ intent: 'delete', id: deleting.id }, { method: 'post' });
          setDeleting(null);
        }}
      />
    </div>
  );
}
