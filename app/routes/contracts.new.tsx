import { useTranslation } from 'react-i18next';
import { Link, redirect, useActionData } from 'react-router';
import type { Route } from './+types/contracts.new';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { ContractForm, contractFromForm, emptyContract } from '~/app/components/contracts/contract-form';
import { useFieldErrors } from '~/app/components/objects/shared';
import {
  CONTRACT_ACCESS,
  contractOptions,
  createContract,
  proposeContractNumber,
} from '~/core/contracts/contract.service';
import { hasAccess } from '~/core/permissions/access';
import { pageTitle } from '~/app/lib/page-title';

/** A new contract: its fields and services; the contract ID is proposed when left empty. */
export const middleware = guard({ permission: 'contracts:create', module: 'contracts' });

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  return run(context, async (ctx) => ({
    // the list of people needs contracts:read; without it the sales user is the creator
    users: hasAccess(auth, CONTRACT_ACCESS.read) ? (await contractOptions(ctx)).users : [],
    proposal: (await proposeContractNumber(ctx)).id,
    me: auth.user.id,
  }));
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  let id: string;
  try {
    id = await run(
      context,
      async (ctx) => (await createContract(ctx, { contract: contractFromForm(form) })).contract.id,
    );
  } catch (e) {
    return actionError(e);
  }
  throw redirect(`/contracts/${id}?created=1`);
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.newContract');

export default function NewContract({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('contracts');
  const result = useActionData<ActionError>();
  useActionToast(result);
  const errors = useFieldErrors(result, 'contract');
  return (
    <section className="max-w-4xl rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <Link to="/contracts" className="text-sm text-brand-700 underline">
        ← {t('back')}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold">{t('new.title')}</h1>
      <div className="mt-6">
        <ContractForm
          contract={emptyContract(loaderData.me)}
          users={loaderData.users.length ? loaderData.users : [{ id: loaderData.me, name: t('field.salesUser.me') }]}
          errors={errors}
          canEdit
          proposal={loaderData.proposal}
          submitLabel={t('create')}
        />
      </div>
    </section>
  );
}
