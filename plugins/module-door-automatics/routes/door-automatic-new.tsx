import { useTranslation } from 'react-i18next';
import {
  Link,
  redirect,
  useActionData,
  useLoaderData,
  type LoaderFunctionArgs,
  type ActionFunctionArgs,
} from 'react-router';
import { actionError } from '~/app/lib/action-error.server';
import { pluginGuard } from '~/app/lib/plugin-links.server';
import { run } from '~/app/lib/guard.server';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { MODULE_ID } from '../constants';
import { createDoorAutomatic, doorAutomaticObject } from '../door-automatic.service';
import { DoorAutomaticForm, doorAutomaticFromForm, EMPTY_DOOR_AUTOMATIC } from '../components/door-automatic-form';
import { objectOption } from '../components/object-option';
import { pageTitle } from '~/app/lib/page-title';

/** A new door automatic, at the object given by ?businessObjectId or one picked here. */
export const middleware = pluginGuard(MODULE_ID, { permission: 'doorautomatics:edit' });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const businessObjectId = new URL(request.url).searchParams.get('businessObjectId');
  const object = businessObjectId ? await run(context, (ctx) => doorAutomaticObject(ctx, businessObjectId)) : null;
  return { object: object ? objectOption(object) : null };
}

type ActionResult = { code?: string; fields?: Record<string, string[]> };

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  let id: string;
  try {
    id = (await run(context, (ctx) => createDoorAutomatic(ctx, doorAutomaticFromForm(form)))).id;
  } catch (e) {
    return actionError(e);
  }
  throw redirect(`/inventory/doorautomatics/${id}?created=1`);
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.newDoorAutomatic');

export default function NewDoorAutomatic() {
  const loaderData = useLoaderData<typeof loader>();
  const { t } = useTranslation('doorautomatics');
  const { t: tc } = useTranslation();
  const result = useActionData<ActionResult>();
  useActionToast(result);
  return (
    <section className="max-w-3xl rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <Link to="/inventory/doorautomatics" className="text-sm text-brand-700 underline">
        ← {t('back')}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold">{t('new.title')}</h1>
      <div className="mt-6">
        <DoorAutomaticForm
          doorAutomatic={EMPTY_DOOR_AUTOMATIC}
          object={loaderData.object}
          errors={(field) => result?.fields?.[field]?.map((k) => tc(k))}
          canEdit
          submitLabel={t('create')}
        />
      </div>
    </section>
  );
}
