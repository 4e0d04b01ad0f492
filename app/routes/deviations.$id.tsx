import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, Link, redirect, useActionData, useNavigation, useSubmit } from 'react-router';
import type { Route } from './+types/deviations.$id';
import { DeviationField, INPUT, relationHref } from '~/app/components/deviations/deviation-fields';
import { DeviationsNav } from '~/app/components/deviations/deviations-nav';
import { RecordFiles } from '~/app/components/files/record-files';
import { useResultToast } from '~/app/components/objects/shared';
import { Button, ConfirmDialog, DateTime } from '~/app/components/ui';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { pageTitle } from '~/app/lib/page-title';
import { hasAccess } from '~/core/permissions/access';
import {
  closeDeviation,
  deleteDeviation,
  DEVIATION_ACCESS,
  deviationAssignees,
  deviationHistory,
  getDeviation,
  listDeviationCategories,
  patchDeviation,
  reopenDeviation,
  setDeviationRelations,
} from '~/core/deviations/deviation.service';
import type { ChangeState } from '~/core/deviations/deviation-rules';

/**
 * One deviation (issue 34 items 1–2): its fields, who is responsible and by when, the short- and
 * long-term solution, the change and its approval, what it is about, its photos and files, its
 * history; closed with a comment, reopened, deleted (deviations:delete, after a confirmation).
 */
export const middleware = guard(DEVIATION_ACCESS.read);

export async function loader({ params, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  return run(context, async (ctx) => ({
    ...(await getDeviation(ctx, params.id)),
    history: await deviationHistory(ctx, params.id),
    categories: await listDeviationCategories(ctx),
    people: await deviationAssignees(ctx),
    can: {
      edit: hasAccess(auth, DEVIATION_ACCESS.edit),
      close: hasAccess(auth, DEVIATION_ACCESS.close),
      delete: hasAccess(auth, DEVIATION_ACCESS.delete),
    },
  }));
}

type ActionResult = { ok?: boolean; intent?: string; message?: string; code?: string; fields?: Record<string, string[]> };

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  const text = (k: string) => (form.has(k) ? String(form.get(k)) : undefined);
  const id = params.id;
  try {
    if (intent === 'delete') {
      await run(context, (ctx) => deleteDeviation(ctx, id));
      throw redirect('/deviations/list?deleted=1');
    }
    const message = await run(context, async (ctx) => {
      switch (intent) {
        case 'save':
          await patchDeviation(ctx, {
            id,
            title: text('title'),
            description: text('description'),
            categoryId: text('categoryId'),
            occurredOn: text('occurredOn'),
            responsibleUserId: text('responsibleUserId'),
            dueDate: text('dueDate'),
            shortTermSolution: text('shortTermSolution'),
            longTermSolution: text('longTermSolution'),
          });
          return 'saved';
        case 'change':
          await patchDeviation(ctx, {
            id,
            ...(form.has('changeNeeded') ? { changeNeeded: text('changeNeeded') } : {}),
            ...(form.has('changeState') ? { changeState: text('changeState') } : {}),
          });
          return 'saved';
        case 'relations':
          await setDeviationRelations(ctx, { id, relations: JSON.parse(text('relations') ?? '[]') });
          return 'relation.removed';
        case 'close':
          await closeDeviation(ctx, { id, comment: text('comment') ?? '' });
          return 'close.done';
        case 'reopen':
          await reopenDeviation(ctx, id);
          return 'reopened';
        default:
          return 'saved';
      }
    });
    return { ok: true, intent, message } satisfies ActionResult;
  } catch (e) {
    if (e instanceof Response) throw e;
    return actionError<ActionResult>(e, { intent });
  }
}

export const handle = pageTitle('title.deviation', (d: Route.ComponentProps['loaderData']) => d.deviation.number);

const NEXT: Record<ChangeState, ChangeState[]> = {
  started: ['defined'],
  defined: ['needs_work', 'approved'],
  needs_work: ['defined'],
  approved: [],
};

export default function DeviationPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('deviations');
  const { t: tc } = useTranslation();
  const result = useActionData<ActionResult>();
  const nav = useNavigation();
  const submit = useSubmit();
  const busy = (intent: string) => nav.state === 'submitting' && nav.formData?.get('intent') === intent;
  const [confirmDelete, setConfirmDelete] = useState(false);
  useResultToast(result, { ns: 'deviations' });
  const { deviation: d, relations, history, can } = loaderData;
  const open = d.status === 'open';
  const editable = open && can.edit;
  const f = result?.intent === 'save' ? (result.fields ?? {}) : {};
  const closeErrors = result?.intent === 'close' ? result.fields?.comment : undefined;
  return (
    <section className="grid min-w-0 gap-4">
      <div className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <DeviationsNav />
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <p className="text-sm text-slate-600">
              {tc('title.deviation')} {d.number}
            </p>
            <h1 className="text-2xl font-semibold break-words">{d.title}</h1>
            <p className="mt-1 text-sm" data-testid="deviation-status">
              <span className={open ? 'font-medium text-amber-800' : 'font-medium text-green-800'}>{t(`status.${d.status}`)}</span>
              {d.overdue ? <span className="ml-2 font-medium text-red-700">{t('overdue')}</span> : null}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <a href={`/deviations/${d.id}/pdf`} download className="inline-flex min-h-11 items-center text-sm text-brand-700 underline">
              {t('pdf')}
            </a>
            {can.delete ? (
              <Button variant="danger" onPress={() => setConfirmDelete(true)}>
                {t('delete')}
              </Button>
            ) : null}
          </div>
        </div>
        {can.delete ? (
          <ConfirmDialog
            isOpen={confirmDelete}
            onOpenChange={setConfirmDelete}
            title={t('delete')}
            message={t('deleteConfirm', { number: d.number })}
            confirmLabel={t('delete')}
            variant="danger"
            onConfirm={() => submit({ intent: 'delete' }, { method: 'post' })}
          />
        ) : null}
        {result && !result.ok && result.code && !result.fields ? (
          <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-800">
            {tc(result.code)}
          </p>
        ) : null}

        <Form method="post" className="mt-4 grid max-w-3xl gap-4" noValidate>
          <input type="hidden" name="intent" value="save" />
          <fieldset disabled={!editable} className="grid min-w-0 gap-4">
            <DeviationField id="dv-title" label={t('field.title')} errors={f.title}>
              {(p) => <input {...p} name="title" defaultValue={d.title} maxLength={200} className={INPUT} />}
            </DeviationField>
            <DeviationField id="dv-description" label={t('field.description')} errors={f.description}>
              {(p) => (
                <textarea {...p} name="description" rows={3} defaultValue={d.description ?? ''} className={`${INPUT} py-2`} />
              )}
            </DeviationField>
            <div className="grid gap-4 sm:grid-cols-2">
              <DeviationField id="dv-category" label={t('field.category')} errors={f.categoryId}>
                {(p) => (
                  <select {...p} name="categoryId" defaultValue={d.categoryId ?? ''} className={INPUT}>
                    <option value="">{t('dashboard.noCategory')}</option>
                    {loaderData.categories.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                )}
              </DeviationField>
              <DeviationField id="dv-occurred" label={t('field.occurredOn')} errors={f.occurredOn}>
                {(p) => <input {...p} type="date" name="occurredOn" defaultValue={d.occurredOn} className={INPUT} />}
              </DeviationField>
              <DeviationField id="dv-responsible" label={t('field.responsible')} errors={f.responsibleUserId}>
                {(p) => (
                  <select {...p} name="responsibleUserId" defaultValue={d.responsibleUserId ?? ''} className={INPUT}>
                    <option value="">{t('none')}</option>
                    {loaderData.people.map((u) => (
                      <option key={u.id} value={u.id}>
                        {u.name}
                      </option>
                    ))}
                  </select>
                )}
              </DeviationField>
              <DeviationField id="dv-due" label={t('field.dueDate')} errors={f.dueDate}>
                {(p) => <input {...p} type="date" name="dueDate" defaultValue={d.dueDate ?? ''} className={INPUT} />}
              </DeviationField>
            </div>
            <DeviationField id="dv-short" label={t('field.shortTerm')} errors={f.shortTermSolution}>
              {(p) => (
                <textarea {...p} name="shortTermSolution" rows={2} defaultValue={d.shortTermSolution ?? ''} className={`${INPUT} py-2`} />
              )}
            </DeviationField>
            <DeviationField id="dv-long" label={t('field.longTerm')} errors={f.longTermSolution}>
              {(p) => (
                <textarea {...p} name="longTermSolution" rows={2} defaultValue={d.longTermSolution ?? ''} className={`${INPUT} py-2`} />
              )}
            </DeviationField>
            {editable ? (
              <div>
                <Button type="submit" isPending={busy('save')}>
                  {t('save')}
                </Button>
              </div>
            ) : null}
          </fieldset>
        </Form>
      </div>

      <div className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 className="text-lg font-semibold">{t('change.title')}</h2>
        {d.changeNeeded ? (
          <p className="mt-2 text-sm" data-testid="change-state">
            {t('field.changeState')}: <strong>{t(`change.${d.changeState}`)}</strong>
            {d.approvedAt ? (
              <>
                {' — '}
                {t('change.approvedBy', { name: d.approvedByName ?? '', at: '' })}
                <DateTime iso={d.approvedAt} />
              </>
            ) : null}
          </p>
        ) : (
          <p className="mt-2 text-sm text-slate-700">{t('change.none')}</p>
        )}
        {editable ? (
          <div className="mt-3 flex flex-wrap gap-2">
            {!d.changeNeeded ? (
              <Form method="post">
                <input type="hidden" name="intent" value="change" />
                <input type="hidden" name="changeNeeded" value="true" />
                <Button type="submit" variant="secondary">
                  {t('change.mark')}
                </Button>
              </Form>
            ) : null}
            {d.changeState
              ? NEXT[d.changeState].map((next) => (
                  <Form method="post" key={next}>
                    <input type="hidden" name="intent" value="change" />
                    <input type="hidden" name="changeState" value={next} />
                    <Button type="submit" variant={next === 'approved' ? 'primary' : 'secondary'}>
                      {t(`change.to.${next}`)}
                    </Button>
                  </Form>
                ))
              : null}
            {d.changeNeeded && d.changeState !== 'approved' ? (
              <Form method="post">
                <input type="hidden" name="intent" value="change" />
                <input type="hidden" name="changeNeeded" value="false" />
                <Button type="submit" variant="secondary">
                  {t('change.unmark')}
                </Button>
              </Form>
            ) : null}
          </div>
        ) : null}
      </div>

      <div className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 className="text-lg font-semibold">{t('field.relations')}</h2>
        {relations.length ? (
          <ul className="mt-2 grid gap-2">
            {relations.map((r, i) => {
              const href = relationHref(r);
              const label = `${t(`relation.${r.kind}`)}: ${r.label}${r.field ? ` (${r.fieldLabel ?? r.field})` : ''}`;
              return (
                <li key={`${r.kind}:${r.targetId}:${r.field ?? ''}`} className="flex flex-wrap items-center gap-2 text-sm">
                  {href ? (
                    <Link to={href} className="text-brand-700 underline">
                      {label}
                    </Link>
                  ) : (
                    <span>{label}</span>
                  )}
                  {editable ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="relations" />
                      <input
                        type="hidden"
                        name="relations"
                        value={JSON.stringify(
                          relations.filter((_, j) => j !== i).map((o) => ({ kind: o.kind, targetId: o.targetId, field: o.field })),
                        )}
                      />
                      <Button type="submit" variant="secondary" size="sm" aria-label={t('relation.remove', { label })}>
                        ×
                      </Button>
                    </Form>
                  ) : null}
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="mt-2 text-sm text-slate-700">{t('relation.none')}</p>
        )}
      </div>

      <div className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 className="text-lg font-semibold">{open ? t('close.title') : t('field.closeComment')}</h2>
        {open ? (
          can.close ? (
            <Form method="post" className="mt-2 grid max-w-2xl gap-3" noValidate>
              <input type="hidden" name="intent" value="close" />
              <DeviationField id="dv-close" label={t('field.closeComment')} errors={closeErrors}>
                {(p) => <textarea {...p} name="comment" rows={2} className={`${INPUT} py-2`} />}
              </DeviationField>
              <div>
                <Button type="submit" isPending={busy('close')}>
                  {t('close.submit')}
                </Button>
              </div>
            </Form>
          ) : null
        ) : (
          <>
            <p className="mt-2 text-sm whitespace-pre-wrap">{d.closeComment}</p>
            {d.closedAt ? (
              <p className="mt-1 text-sm text-slate-600">
                {t('close.info', { name: d.closedByName ?? '', at: '' })}
                <DateTime iso={d.closedAt} />
              </p>
            ) : null}
            {can.close ? (
              <Form method="post" className="mt-3">
                <input type="hidden" name="intent" value="reopen" />
                <Button type="submit" variant="secondary" isPending={busy('reopen')}>
                  {t('reopen')}
                </Button>
              </Form>
            ) : null}
          </>
        )}
      </div>

      <div className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 className="text-lg font-semibold">{t('files')}</h2>
        <RecordFiles kind="deviation" ownerId={d.id} />
      </div>

      <div className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 className="text-lg font-semibold">{t('history.title')}</h2>
        {history.length ? (
          <ol className="mt-2 grid gap-1 text-sm">
            {history.map((h, i) => (
              <li key={i}>
                <DateTime iso={h.at} /> · {t(`history.${h.action}`, { defaultValue: h.action })}
                {h.userName ? ` · ${h.userName}` : ''}
              </li>
            ))}
          </ol>
        ) : (
          <p className="mt-2 text-sm text-slate-700">{t('history.empty')}</p>
        )}
      </div>
    </section>
  );
}
