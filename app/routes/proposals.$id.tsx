import { data, redirect, useLocation } from 'react-router';
import type { Route } from './+types/proposals.$id';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { ProposalScreen, type ProposalActionResult } from '~/app/components/proposals/proposal-screen';
import { isSameRecord } from '~/app/components/proposals/use-autosave';
import { GROUPS_READ, listArticleGroups } from '~/core/articles/article-group.service';
import { isAppError } from '~/core/errors/app-error';
import { hasAccess } from '~/core/permissions/access';
import { proposalLists } from '~/core/proposals/proposal-configuration.service';
import { createAgreementFromProposal } from '~/core/proposals/proposal-agreement.service';
import { agreementTypeOptions } from '~/core/agreements/agreement-type.service';
import { refuseNul } from '~/core/http/edge';
import {
  closeProposal,
  copyProposal,
  deleteProposal,
  draftProposal,
  getProposal,
  proposalAbilities,
  proposalSettings,
  reopenProposal,
  saveNewProposal,
  saveProposal,
  type Proposal,
  proposalTagOptions,
} from '~/core/proposals/proposal.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * One proposal (spec section 2, the proposal detail screen): its fields and rows, saved 2.5 s after
 * the last change; accept, accept into a work order, decline, reopen, copy and delete. The action
 * takes JSON (`intent` and what it needs) and answers the proposal as saved, or the refusal.
 */
export const middleware = guard({ permission: 'proposal:read', module: 'crm' });

const NEW = 'new';

export async function loader({ params, context }: Route.LoaderArgs) {
  return run(context, async (ctx) => {
    try {
      // `/proposals/new`: the screen of one not yet created; its first save creates it
      const proposal = params.id === NEW ? await draftProposal(ctx) : await getProposal(ctx, params.id);
      const tags = await proposalTagOptions(ctx);
      const settings = await proposalSettings(ctx);
      const lists = await proposalLists(ctx);
      const groups = hasAccess(ctx.auth, GROUPS_READ) ? await listArticleGroups(ctx) : [];
      const can = proposalAbilities(ctx);
      // the types an agreement made from the monthly rows may have (issue 28 item 3)
      const agreementTypes =
        can.createAgreement && Number(proposal.totalMonthlyPrice) > 0 && !proposal.objectAgreementId
          ? (await agreementTypeOptions(ctx, {})).options
          : [];
      return {
        proposal,
        settings,
        lists,
        can,
        agreementTypes,
        tags,
        groups: groups.map((g) => ({ id: g.id, title: g.title })),
      };
    } catch (e) {
      if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
      // a new proposal needs proposal:edit: one who may only read gets the 403 page
      if (isAppError(e) && e.status === 403) throw data('permission denied', { status: 403 });
      throw e;
    }
  });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const body = (await request.json().catch(() => ({}))) as {
    intent?: string;
    proposal?: Proposal;
    status?: string;
    ignoreArticlesForWorkOrder?: boolean;
    agreementId?: string;
    validFrom?: string;
  };
  try {
    refuseNul(body);
    switch (body.intent) {
      case 'save': {
        // a new proposal's first save creates it; a save sent before the screen's address moved to
        // the id carries that id
        const proposal = await run(context, (ctx) =>
          params.id !== NEW
            ? saveProposal(ctx, { ...body.proposal, id: params.id })
            : body.proposal?.id
              ? saveProposal(ctx, body.proposal)
              : saveNewProposal(ctx, body.proposal),
        );
        return data<ProposalActionResult>({ ok: true, intent: 'save', proposal });
      }
      case 'close': {
        const closed = await run(context, (ctx) =>
          closeProposal(ctx, {
            proposalId: params.id,
            status: body.status,
            ignoreArticlesForWorkOrder: body.ignoreArticlesForWorkOrder,
          }),
        );
        return data<ProposalActionResult>({ ok: true, intent: 'close', ...closed });
      }
      case 'reopen': {
        const proposal = await run(context, (ctx) => reopenProposal(ctx, params.id));
        return data<ProposalActionResult>({ ok: true, intent: 'reopen', proposal });
      }
      case 'agreement': {
        const proposal = await run(context, async (ctx) => {
          await createAgreementFromProposal(ctx, params.id, {
            agreementId: body.agreementId,
            validFrom: body.validFrom,
          });
          return getProposal(ctx, params.id);
        });
        return data<ProposalActionResult>({ ok: true, intent: 'agreement', proposal });
      }
      case 'copy': {
        const copy = await run(context, (ctx) => copyProposal(ctx, params.id));
        return redirect(`/proposals/${copy.id}`);
      }
      case 'delete': {
        await run(context, (ctx) => deleteProposal(ctx, params.id));
        return redirect('/proposals?deleted=1');
      }
      default:
        return data<ProposalActionResult>({ code: 'BAD_REQUEST', intent: body.intent ?? '' }, { status: 400 });
    }
  } catch (e) {
    if (isAppError(e) && e.code === 'PROPOSAL_CHANGED')
      return data<ProposalActionResult>(
        { code: e.code, intent: 'save', current: e.details?.current as Proposal },
        { status: 409 },
      );
    return actionError<ProposalActionResult>(e, { intent: body.intent ?? '' });
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle(
  'title.proposal',
  (d: Route.ComponentProps['loaderData']) => d.proposal.sequenceNumber,
  { orElse: 'title.newProposal' },
);

export default function ProposalPage({ loaderData }: Route.ComponentProps) {
  // a new proposal's move to its id keeps the screen (and what is typed meanwhile)
  const location = useLocation();
  const key = isSameRecord(location.state) ? NEW : loaderData.proposal.id || NEW;
  return <ProposalScreen key={key} {...loaderData} />;
}
