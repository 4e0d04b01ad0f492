import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordFiles } from '~/app/components/files/record-files';
import {
  data,
  Link,
  redirect,
  useActionData,
  useSearchParams,
  useSubmit,
  useLoaderData,
  type LoaderFunctionArgs,
  type ActionFunctionArgs,
} from 'react-router';
import { actionError } from '~/app/lib/action-error.server';
import { pluginGuard } from '~/app/lib/plugin-links.server';
import { requireAuth, run } from '~/app/lib/guard.server';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { Button, ConfirmDialog } from '~/app/components/ui';
import { isAppError } from '~/core/errors/app-error';
import { hasAccess } from '~/core/permissions/access';
import { MODULE_ID } from '../constants';
import {
  deleteDoorAutomatic,
  getDoorAutomatic,
  listDoorAutomaticHistory,
  updateDoorAutomatic,
} from '../door-automatic.service';
import { DoorAutomaticForm, doorAutomaticFromForm } from '../components/door-automatic-form';
import { DoorAutomaticHistory } from '../components/door-automatic-history';
import { objectOption } from '../components/object-option';
import { pageTitle } from '~/app/lib/page-title';

/** One door automatic: its fields, the object it is installed at, and its history. */
export const middleware = pluginGuard(MODULE_ID, { permission: 'doorautomatics:read' });

export async function loader({ params, context }: LoaderFunctionArgs) {
  const auth = requireAuth(context);
  try {
    return await run(context, async (ctx) => {
      const doorAutomatic = await getDoorAutomatic(ctx, params.id);
      return {
        doorAutomatic,
        object: objectOption(doorAutomatic.businessObject),
        history: await listDoorAutomaticHistory(ctx, params.id, { size: 20 }),
        canEdit: hasAccess(auth, { permission: 'doorautomatics:edit', module: MODULE_ID }),
        canDelete: hasAccess(auth, { permission: 'doorautomatics:delete', module: MODULE_ID }),
      };
    });
  } catch (e) {
    // Another tenant's id, or none at all: the not-found page.
    if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
    throw e;
  }
}

type ActionResult = { ok?: boolean; code?: string; fields?: Record<string, string[]> };

export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const remove = form.get('intent') === 'delete';
  try {
    await run(context, async (ctx) => {
      if (remove) await deleteDoorAutomatic(ctx, params.id);
      else await updateDoorAutomatic(ctx, { id: params.id, ...doorAutomaticFromForm(form) });
    });
  } catch (e) {
    return actionError(e);
  }
  if (remove) throw redirect('/inventory/doorautomatics?deleted=1');
  return data<ActionResult>({ ok: true });
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle(
  'title.doorAutomatic',
  (d: Awaited<ReturnType<typeof loader>>) => d.doorAutomatic.number,
);

export default function DoorAutomaticPage() {
  const loaderData = useLoaderData<typeof loader>();
  const { t } = useTranslation('doorautomatics');
  const { t: tc } = useTranslation();
  const result = useActionData<ActionResult>();
  const submit = useSubmit();
  const [params] = useSearchParams();
  const [confirming, setConfirming] = useState(false);
  useActionToast(result);
  const { doorAutomatic: d } = loaderData;
  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <Link
          to={`/inventory/doorautomatics?businessObjectId=${d.businessObjectId}`}
          className="text-sm text-brand-700 underline"
        >
          ← {t('back.object', { serial: d.businessObject.serialCode })}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold break-words">
          {d.number} · {d.title}
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          <Link to={`/inventory/objects/${d.businessObjectId}`} className="underline">
            {t('installedAt', { serial: d.businessObject.serialCode })}
          </Link>
          {d.businessObject.customerName ? ` · ${d.businessObject.customerName}` : ''}
        </p>
        {params.get('created') ? (
          <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
            {t('created')}
          </p>
        ) : null}
        <div className="mt-6">
          <DoorAutomaticForm
            key={d.updatedAt}
            doorAutomatic={d}
            object={loaderData.object}
            errors={(field) => result?.fields?.[field]?.map((k) => tc(k))}
            canEdit={loaderData.canEdit}
            submitLabel={t('save')}
          >
            {loaderData.canDelete ? (
              <Button variant="danger" onPress={() => setConfirming(true)}>
                {t('delete')}
              </Button>
            ) : null}
          </DoorAutomaticForm>
        </div>
      </section>
      <RecordFiles kind="doorautomatic" ownerId={d.id} />
      <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <DoorAutomaticHistory {...loaderData.history} />
      </section>
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={t('delete')}
        message={t('delete.confirm', { name: `${d.number} ${d.title}` })}
        confirmLabel={t('delete')}
        variant="danger"
        onConfirm={() => {
          void submit({ intent: 'delete' }, { method: 'post' });
          setConfirming(false);
        }}
      />
    </div>
  );
}
