import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, UUID_PATTERN } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import { formatDecimal, mul } from '~/core/pricing';
import type { AgreementInterval } from '~/core/agreements/agreement-constants';
import { zPlainDate } from '~/core/agreements/agreement-schema';
import { putObjectAgreement, saveAgreementRow, type ObjectAgreement } from '~/core/agreements/object-agreement.service';
import { INTERVAL_MONTHS } from '~/core/agreements/periods';

/*
 * Issue 28 item 3 (decision 037): an accepted proposal's monthly prices are billed by the object
 * agreement made from it. One transaction: the agreement on the proposal's object (putObjectAgreement),
 * one invoice row per monthly row (saveAgreementRow: the monthly price × the months of the type's
 * invoice interval, the row's amount and monthly discount), and the proposal linked to it.
 */

const EDIT = { permission: 'bo:agreements:edit' } as const;
type Row = Record<string, unknown>;

export const ZCreateProposalAgreement = z.object({
  agreementId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).regex(UUID_PATTERN, 'ERROR_REQUIRED_FIELD'),
  validFrom: zPlainDate(),
});

/** POST /proposals/{id}/agreement {agreementId, validFrom} → {agreement, rows}. */
export async function createAgreementFromProposal(
  ctx: Ctx,
  proposalId: unknown,
  raw: unknown,
): Promise<{ agreement: ObjectAgreement; businessObjectId: string; rows: number }> {
  requireAccess(ctx.auth, EDIT);
  if (!isUuid(proposalId)) throw notFound();
  const input = parseInput(ZCreateProposalAgreement, raw);
  const proposal: Row | undefined = await ctx
    .trx('proposals')
    .where({ id: proposalId })
    .forUpdate()
    .first('id', 'status', 'business_object_id', 'object_agreement_id');
  if (!proposal) throw notFound();
  if (proposal.status !== 'accepted' && proposal.status !== 'accepted-wo')
    throw new AppError('PROPOSAL_AGREEMENT_NOT_ACCEPTED', 409);
  if (!proposal.business_object_id) throw new AppError('PROPOSAL_AGREEMENT_OBJECT_MISSING', 409);
  const boId = proposal.business_object_id as string;
  const existing: Row | undefined = await ctx.trx('object_agreements').where({ business_object_id: boId }).first('id');
  if (existing || proposal.object_agreement_id)
    throw new AppError('PROPOSAL_AGREEMENT_OBJECT_HAS_AGREEMENT', 409, { businessObjectId: boId });
  const type: Row | undefined = await ctx
    .trx('agreements')
    .where({ id: input.agreementId })
    .first('price_model', 'invoice_interval');
  if (!type) throw new AppError('VALIDATION_FAILED', 400, { fields: { agreementId: ['ERROR_INVALID_VALUE'] } });
  if (type.price_model !== 'articles' || !type.invoice_interval)
    throw new AppError('PROPOSAL_AGREEMENT_TYPE_NOT_ARTICLES', 409);
  const months = INTERVAL_MONTHS[type.invoice_interval as AgreementInterval];
  const monthly = (await ctx
    .trx('proposal_rows')
    .where({ proposal_id: proposal.id })
    .whereNotNull('article_id')
    .whereNotNull('monthly_price')
    .where('monthly_price', '<>', 0)
    .orderBy('sort_order')
    .select(
      'article_id',
      'article_title',
      'amount',
      'monthly_price',
      'monthly_discount_type',
      'monthly_discount_value',
    )) as Row[];
  if (!monthly.length) throw new AppError('PROPOSAL_AGREEMENT_NO_MONTHLY_ROWS', 409);

  const { agreement } = await putObjectAgreement(ctx, boId, {
    agreement: { agreementId: input.agreementId, validFrom: input.validFrom },
  });
  for (const r of monthly) {
    const discountType = (r.monthly_discount_type as string | null) ?? 'NONE';
    // an amount off per month is that much off per invoice period too
    const perPeriod = (v: unknown) => formatDecimal(mul(String(v), months));
    await saveAgreementRow(ctx, boId, 'invoice', {
      row: {
        articleId: r.article_id,
        title: r.article_title ?? undefined,
        amount: String(r.amount ?? '1'),
        price: perPeriod(r.monthly_price),
        discountType,
        discountValue:
          discountType === 'REGULAR' ? perPeriod(r.monthly_discount_value ?? 0) : String(r.monthly_discount_value ?? 0),
      },
    });
  }
  await ctx.trx('proposals').where({ id: proposal.id }).update({ object_agreement_id: agreement.id });
  return { agreement, businessObjectId: boId, rows: monthly.length };
}
