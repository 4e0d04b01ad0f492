import { useTranslation } from 'react-i18next';
import { Form, redirect, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/deviations.new';
import { DeviationField, INPUT } from '~/app/components/deviations/deviation-fields';
import { Button } from '~/app/components/ui';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { pageTitle } from '~/app/lib/page-title';
import {
  createDeviation,
  DEVIATION_ACCESS,
  deviationAssignees,
  listDeviationCategories,
  relationsFrom,
  type DeviationRelation,
} from '~/core/deviations/deviation.service';
import { RELATION_KINDS, type RelationKind } from '~/core/deviations/deviation.schema';

/**
 * Raising a deviation (issue 34 item 1): from the deviation pages, or in one tap from a record —
 * `?from=<kind>&id=<id>[&field=<pageId.fieldId>]` — which starts it with that record and what it
 * belongs to (a work order's customer and object, a failed report field's order). The relations
 * can be changed on the deviation afterwards.
 */
export const middleware = guard(DEVIATION_ACCESS.create);

function fromOf(url: URL): { kind: RelationKind; id: string; field: string | null } | null {
  const kind = url.searchParams.get('from') ?? '';
  const id = url.searchParams.get('id') ?? '';
  if (!(RELATION_KINDS as readonly string[]).includes(kind) || !id) return null;
  return { kind: kind as RelationKind, id, field: url.searchParams.get('field') || null };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const from = fromOf(new URL(request.url));
  return run(context, async (ctx) => {
    const relations = from ? await relationsFrom(ctx, from) : ([] as DeviationRelation[]);
    return {
      relations,
      categories: await listDeviationCategories(ctx),
      people: await deviationAssignees(ctx),
      // raised from a failed report field: the field's label is where the title starts
      title: relations.find((r) => r.field && r.field === from?.field)?.fieldLabel ?? '',
    };
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const text = (k: string) => String(form.get(k) ?? '');
  let relations: unknown = [];
  try {
    relations = JSON.parse(text('relations') || '[]');
  } catch {
    relations = null;
  }
  let id: string;
  try {
    ({ id } = await run(context, (ctx) =>
      createDeviation(ctx, {
        title: text('title'),
        description: text('description'),
        categoryId: text('categoryId'),
        occurredOn: text('occurredOn'),
        responsibleUserId: text('responsibleUserId'),
        dueDate: text('dueDate'),
        relations,
      }),
    ));
  } catch (e) {
    return actionError<ActionError>(e);
  }
  throw redirect(`/deviations/${id}?created=1`);
}

export const handle = pageTitle('title.newDeviation');

export default function NewDeviation({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('deviations');
  const { t: tc } = useTranslation();
  const result = useActionData<ActionError>();
  const busy = useNavigation().state === 'submitting';
  const f = result?.fields ?? {};
  const d = loaderData;
  return (
    <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h1 className="text-2xl font-semibold">{t('new')}</h1>
      {d.relations.length ? (
        <div className="mt-3">
          <h2 className="text-sm font-medium text-slate-700">{t('field.relations')}</h2>
          <ul className="mt-1 flex flex-wrap gap-2" data-testid="raised-from">
            {d.relations.map((r) => (
              <li key={`${r.kind}:${r.targetId}:${r.field ?? ''}`} className="rounded-full bg-slate-100 px-3 py-1 text-sm">
                {t(`relation.${r.kind}`)}: {r.label}
                {r.field ? ` (${r.fieldLabel ?? r.field})` : ''}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {result?.code && !result.fields ? (
        <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-800">
          {tc(result.code)}
        </p>
      ) : null}
      <Form method="post" className="mt-4 grid max-w-2xl gap-4" noValidate>
        <input
          type="hidden"
          name="relations"
          value={JSON.stringify(d.relations.map((r) => ({ kind: r.kind, targetId: r.targetId, field: r.field })))}
        />
        <DeviationField id="dv-title" label={t('field.title')} errors={f.title}>
          {(p) => <input {...p} name="title" required maxLength={200} defaultValue={d.title} className={INPUT} />}
        </DeviationField>
        <DeviationField id="dv-description" label={t('field.description')} errors={f.description}>
          {(p) => <textarea {...p} name="description" rows={4} maxLength={4000} className={`${INPUT} py-2`} />}
        </DeviationField>
        <div className="grid gap-4 sm:grid-cols-2">
          <DeviationField id="dv-category" label={t('field.category')} errors={f.categoryId}>
            {(p) => (
              <select {...p} name="categoryId" defaultValue="" className={INPUT}>
                <option value="">{t('dashboard.noCategory')}</option>
                {d.categories.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </DeviationField>
          <DeviationField id="dv-occurred" label={t('field.occurredOn')} errors={f.occurredOn}>
            {(p) => <input {...p} type="date" name="occurredOn" className={INPUT} />}
          </DeviationField>
          <DeviationField id="dv-responsible" label={t('field.responsible')} errors={f.responsibleUserId}>
            {(p) => (
              <select {...p} name="responsibleUserId" defaultValue="" className={INPUT}>
                <option value="">{t('none')}</option>
                {d.people.map((u) => (
                  <option key={u.id} value={u.id}>
                    {u.name}
                  </option>
                ))}
              </select>
            )}
          </DeviationField>
          <DeviationField id="dv-due" label={t('field.dueDate')} errors={f.dueDate}>
            {(p) => <input {...p} type="date" name="dueDate" className={INPUT} />}
          </DeviationField>
        </div>
        <div>
          <Button type="submit" isPending={busy}>
            {t('create')}
          </Button>
        </div>
      </Form>
    </section>
  );
}
