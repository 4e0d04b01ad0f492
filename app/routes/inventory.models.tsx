import { useEffect, useState } from 'react';
import { actionError } from '~/app/lib/action-error.server';
import { useTranslation } from 'react-i18next';
import { RecordFiles } from '~/app/components/files/record-files';
import { data, useFetcher } from 'react-router';
import type { Route } from './+types/inventory.models';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import {
  Button,
  ConfirmDialog,
  Dialog,
  ListFilters,
  ListPage,
  ListTable,
  pageFromUrl,
  Select,
  TextField,
  useListUrl,
} from '~/app/components/ui';
import { useFieldErrors, useResultToast, type ActionResult } from '~/app/components/objects/shared';

import { hasAccess } from '~/core/permissions/access';
import { createModel, deleteModel, listModels, updateModel, type Model } from '~/core/models/model.service';
import { pageTitle } from '~/app/lib/page-title';

/** Inventory → models (spec section 3): the product types objects are instances of. */
export const middleware = guard({ permission: 'models:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const url = new URL(request.url).searchParams;
  const params = Object.fromEntries(url);
  const { offset, limit } = pageFromUrl(url);
  const list = await run(context, (ctx) =>
    listModels(ctx, { q: params.q || undefined, status: params.status || undefined, offset, limit }),
  );
  return {
    ...list,
    offset,
    limit,
    canEdit: hasAccess(auth, { permission: 'models:edit' }),
    canDelete: hasAccess(auth, { permission: 'models:delete' }),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent'));
  const model = { code: form.get('code'), name: form.get('name'), status: form.get('status') ?? undefined };
  try {
    await run(context, async (ctx) => {
      if (intent === 'create') await createModel(ctx, { model });
      else if (intent === 'update') await updateModel(ctx, { model: { ...model, id: form.get('id') } });
      else if (intent === 'delete') await deleteModel(ctx, form.get('id'));
    });
    return data<ActionResult>({ ok: true, intent, message: intent === 'delete' ? 'deleted' : undefined });
  } catch (e) {
    return actionError<ActionResult>(e, { intent });
  }
}

type Editing = Model | 'new' | null;

function ModelDialog({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const { t } = useTranslation('objects');
  const fetcher = useFetcher<ActionResult>();
  const err = useFieldErrors(fetcher.data, 'model');
  useResultToast(fetcher.state === 'idle' ? fetcher.data : undefined);
  const model = editing && editing !== 'new' ? editing : null;
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.ok) onClose();
  }, [fetcher.state, fetcher.data, onClose]);
  return (
    <Dialog
      title={model ? t('models.edit') : t('models.new')}
      isOpen={editing !== null}
      onOpenChange={(open) => (open ? null : onClose())}
    >
      <fetcher.Form method="post" className="grid gap-4" noValidate>
        <input type="hidden" name="intent" value={model ? 'update' : 'create'} />
        {model ? <input type="hidden" name="id" value={model.id} /> : null}
        <TextField
          name="code"
          label={t('models.code')}
          defaultValue={model?.code}
          isRequired
          autoFocus
          errorMessage={err('code')}
        />
        <TextField
          name="name"
          label={t('models.name')}
          defaultValue={model?.name}
          isRequired
          errorMessage={err('name')}
        />
        {model ? (
          <Select
            name="status"
            label={t('field.status')}
            defaultSelectedKey={model.status}
            items={[
              { id: 'active', label: t('status.active') },
              { id: 'inactive', label: t('status.inactive') },
            ]}
          />
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onPress={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" variant="primary" isPending={fetcher.state !== 'idle'}>
            {t('save')}
          </Button>
        </div>
      </fetcher.Form>
      {model ? (
        <div className="mt-6">
          <RecordFiles kind="model" ownerId={model.id} />
        </div>
      ) : null}
    </Dialog>
  );
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.models');

export default function Models({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('objects');
  const list = useListUrl();
  const deleter = useFetcher<ActionResult>();
  useResultToast(deleter.state === 'idle' ? deleter.data : undefined);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Model | null>(null);
  const columns = [
    { id: 'code', header: t('models.code'), isRowHeader: true, render: (m: Model) => m.code },
    { id: 'name', header: t('models.name'), render: (m: Model) => m.name },
    { id: 'status', header: t('field.status'), render: (m: Model) => t(`status.${m.status}`) },
    { id: 'objects', header: t('models.objectCount'), align: 'end' as const, render: (m: Model) => m.objectCount },
    ...(loaderData.canEdit || loaderData.canDelete
      ? [
          {
            id: 'actions',
            header: t('actions'),
            render: (m: Model) => (
              <div className="flex gap-1">
                {loaderData.canEdit ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    onPress={() => setEditing(m)}
                    aria-label={t('models.editNamed', { name: m.name })}
                  >
                    {t('edit')}
                  </Button>
                ) : null}
                {loaderData.canDelete ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    onPress={() => setDeleting(m)}
                    aria-label={t('models.deleteNamed', { name: m.name })}
                  >
                    {t('delete')}
                  </Button>
                ) : null}
              </div>
            ),
          },
        ]
      : []),
  ];
  return (
    <ListPage
      title={t('models.title')}
      actions={
        loaderData.canEdit ? (
          <Button variant="primary" onPress={() => setEditing('new')}>
            {t('models.new')}
          </Button>
        ) : null
      }
    >
      <ListFilters submitLabel={t('filter.apply')}>
        <TextField
          name="q"
          type="search"
          label={t('models.search')}
          defaultValue={list.params.get('q') ?? ''}
          className="min-w-48 flex-1"
        />
        <Select
          name="status"
          label={t('field.status')}
          className="w-40"
          defaultSelectedKey={list.params.get('status') ?? ''}
          onSelectionChange={(key) => list.setFilter('status', String(key ?? ''))}
          items={[
            { id: '', label: t('status.all') },
            { id: 'active', label: t('status.active') },
            { id: 'inactive', label: t('status.inactive') },
          ]}
        />
      </ListFilters>
      <ListTable
        aria-label={t('models.title')}
        columns={columns}
        rows={loaderData.models}
        count={t('models.count', { count: loaderData.totalCount })}
        empty={{ empty: t('models.empty'), filtered: t('empty.search'), isFiltered: list.isFiltered({ q: '' }) }}
        totalCount={loaderData.totalCount}
        offset={loaderData.offset}
        limit={loaderData.limit}
      />
      {editing ? (
        <ModelDialog key={editing === 'new' ? 'new' : editing.id} editing={editing} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => (open ? null : setDeleting(null))}
        title={t('models.delete')}
        message={t('models.deleteConfirm', { name: deleting?.name ?? '' })}
        confirmLabel={t('delete')}
        variant="danger"
        isPending={deleter.state !== 'idle'}
        onConfirm={() => {
          if (deleting) void deleter.submit({ intent: 'delete', id: deleting.id }, { method: 'post' });
          setDeleting(null);
        }}
      />
    </ListPage>
  );
}
