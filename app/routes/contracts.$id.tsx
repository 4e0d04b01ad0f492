import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Link, redirect, useActionData, useNavigation, useSearchParams, useSubmit } from 'react-router';
import type { Route } from './+types/contracts.$id';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { ContractForm, contractFromForm } from '~/app/components/contracts/contract-form';
import {
  DateTime,
  formErrorOf,
  useFieldErrors,
  useResultToast,
  type ActionResult,
} from '~/app/components/objects/shared';
import { Button, ConfirmDialog } from '~/app/components/ui';
import {
  closeContract,
  contractAbilities,
  contractOptions,
  deleteContract,
  getContract,
  reopenContract,
  updateContract,
} from '~/core/contracts/contract.service';
import { isAppError } from '~/core/errors/app-error';
import { pageTitle } from '~/app/lib/page-title';

/**
 * One contract (spec section 3): its fields and services with live totals, saved together and
 * naming the version it edited (someone else's save in between is refused, not overwritten);
 * close and reopen, delete after a confirmation. A contract the user may not see is not found.
 */
export const middleware = guard({ permission: 'contracts:read', module: 'contracts' });

export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    return await run(context, async (ctx) => {
      const { contract } = await getContract(ctx, params.id);
      const { users } = await contractOptions(ctx);
      return { contract, users, can: contractAbilities(ctx, contract) };
    });
  } catch (e) {
    // Another tenant's id, someone else's contract, or none at all: the not-found page.
    if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
    throw e;
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'save');
  const id = params.id;
  try {
    switch (intent) {
      case 'close':
        await run(context, (ctx) => closeContract(ctx, id));
        return data<ActionResult>({ ok: true, intent, message: 'closed.toast' });
      case 'reopen':
        await run(context, (ctx) => reopenContract(ctx, id));
        return data<ActionResult>({ ok: true, intent, message: 'reopened.toast' });
      case 'delete':
        await run(context, (ctx) => deleteContract(ctx, id));
        return redirect('/contracts?deleted=1');
      default:
        await run(context, (ctx) =>
          updateContract(ctx, { contract: { ...contractFromForm(form), id, version: String(form.get('version')) } }),
        );
        return data<ActionResult>({ ok: true, intent: 'save' });
    }
  } catch (e) {
    return actionError<ActionResult>(e, { intent });
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.contract', (d: Route.ComponentProps['loaderData']) => d.contract.number);

export default function ContractPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('contracts');
  const { t: tc } = useTranslation();
  const result = useActionData<ActionResult>();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { contract, users, can } = loaderData;
  const busyIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null;
  const errors = useFieldErrors(result?.intent === 'save' ? result : undefined, 'contract');
  const open = contract.status === 'open';

  useResultToast(result, { ns: 'contracts', saveBar: true });
  const formError = formErrorOf(result);

  return (
    <section className="max-w-4xl rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <Link to="/contracts" className="text-sm text-brand-700 underline">
        ← {t('back')}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold break-words">
        {contract.number} · {contract.title}
      </h1>
      <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
        <span
          className={`inline-block rounded-full px-3 py-0.5 ${open ? 'bg-green-100 text-green-900' : 'bg-slate-200 text-slate-900'}`}
        >
          {t(`status.${contract.status}`)}
        </span>
        {!open && contract.closedAt ? (
          <span>
            {t('closedAt')} <DateTime iso={contract.closedAt} withTime={false} />
          </span>
        ) : null}
        {contract.createUserName ? <span>{t('createdBy', { name: contract.createUserName })}</span> : null}
      </p>
      {params.get('created') ? (
        <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
          {t('created')}
        </p>
      ) : null}
      {!open ? (
        <p className="mt-3 rounded-md bg-slate-50 p-3 text-sm text-slate-800">
          {can.close ? t('closed.help') : t('closed.readOnly')}
        </p>
      ) : null}
      <div className="mt-6">
        <ContractForm
          // a successful save is a new version: the form starts again from what was saved
          key={contract.version}
          contract={{ ...contract, services: contract.services ?? [] }}
          users={users}
          errors={errors}
          canEdit={can.edit && open}
          submitLabel={t('save')}
          formError={formError ? tc(formError) : null}
        >
          {can.close && open ? (
            <Button
              variant="secondary"
              onPress={() => void submit({ intent: 'close' }, { method: 'post' })}
              isPending={busyIntent === 'close'}
            >
              {t('close')}
            </Button>
          ) : null}
          {can.close && !open ? (
            <Button
              variant="secondary"
              onPress={() => void submit({ intent: 'reopen' }, { method: 'post' })}
              isPending={busyIntent === 'reopen'}
            >
              {t('reopen')}
            </Button>
          ) : null}
          {can.delete ? (
            <Button variant="danger" onPress={() => setConfirmDelete(true)} isPending={busyIntent === 'delete'}>
              {t('delete')}
            </Button>
          ) : null}
        </ContractForm>
      </div>
      <ConfirmDialog
        isOpen={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t('delete')}
        message={t('delete.confirm', { name: `${contract.number} · ${contract.title}` })}
        confirmLabel={t('delete')}
        variant="danger"
        onConfirm={() => {
          void submit({ intent: 'delete' }, { method: 'post' });
          setConfirmDelete(false);
        }}
      />
    </section>
  );
}
