import type { Trx } from '~/core/db/with-tenant';
import { formatDecimal } from '~/core/pricing';
import { proposalFigures, type ProposalRowValues } from '~/core/proposals/proposal-rows';

/**
 * The demo company's proposals (issue 13): a handful in every status for its first customers, with
 * article rows at the articles' prices, a comment and a subtotal, so the list and the screen have
 * something to show; the accepted one has its sales order, open, with the same rows. Idempotent: a
 * tenant that has proposals is left alone.
 */
const DEMO_PROPOSALS = [
  { title: 'Inbrottslarm trapphus', status: 'active', days: 3 },
  { title: 'Kameraövervakning garage', status: 'active', days: 9 },
  { title: 'Passagesystem entré', status: 'active', days: 15 },
  { title: 'Utökning brandlarm', status: 'active', days: 24 },
  { title: 'Larmpaket kontor', status: 'accepted', days: 30 },
  { title: 'Dörrautomatik källare', status: 'accepted-wo', days: 40 },
  { title: 'Service avtal larm', status: 'declined', days: 60 },
] as const;

/** The demo company's proposal terms: what a Swedish security installer writes (AB 04 / ABT 06 style). */
export const DEMO_GENERAL_TERMS = [
  'Offerten gäller i 30 dagar från offertdatum.',
  'Arbetet utförs enligt Allmänna bestämmelser AB 04 och SSF:s regler för inbrottslarm och passersystem.',
  'Arbete utförs vardagar 07–16. Arbete på annan tid, väntetid och tillkommande arbete debiteras enligt gällande prislista.',
  'Priserna förutsätter fri framkomlighet och att kabelvägar finns. Håltagning i betong ingår inte.',
  'Garantitid 2 år på material och arbete. Levererat material förblir vår egendom tills full betalning skett.',
].join('\n');
export const DEMO_PAYMENT_TERMS =
  '30 dagar netto från fakturadatum. Vid försenad betalning debiteras dröjsmålsränta enligt räntelagen.';

export async function seedDemoProposals(trx: Trx): Promise<void> {
  if (await trx('proposals').first('id')) return;
  const customers = (await trx('customers')
    .whereNotNull('customer_id')
    .orderBy('customer_id')
    .limit(DEMO_PROPOSALS.length)
    .select('id', 'name')) as {
    id: string;
  }[];
  const articles = (await trx('articles')
    .where({ status: 'active', line_type: 'regular' })
    .orderBy('article_id')
    .limit(3)
    .select('id', 'title', 'unit', 'price', 'purchase_price')) as {
    id: string;
    title: string;
    unit: string | null;
    price: string;
    purchase_price: string | null;
  }[];
  if (!customers.length || !articles.length) return;
  const admin = await trx('users').orderBy('created_at').first('id');
  for (const [i, d] of DEMO_PROPOSALS.entries()) {
    const rows: (ProposalRowValues & { title?: string; unit?: string | null })[] = [
      ...articles.map((a, n) => ({
        articleId: a.id,
        title: a.title,
        unit: a.unit,
        amount: String(n + 1 + (i % 3)),
        price: formatDecimal(a.price),
        purchasePrice: a.purchase_price == null ? null : formatDecimal(a.purchase_price),
      })),
      { comment: 'Montage och driftsättning ingår.' },
      { isSummaryRow: true },
    ];
    const figures = proposalFigures(rows);
    const created = new Date(Date.now() - d.days * 86_400_000);
    const [p] = (await trx('proposals')
      .insert({
        sequence_number: i + 1,
        sort_order: i,
        title: d.title,
        status: d.status,
        customer_id: customers[i % customers.length]!.id,
        description_intro: 'Tack för förfrågan. Här är vårt förslag.',
        general_terms: DEMO_GENERAL_TERMS,
        payment_terms: DEMO_PAYMENT_TERMS,
        total_price: figures.totalPrice,
        total_purchase_price: figures.totalPurchasePrice,
        create_ts: created,
        update_ts: created,
        create_user_id: admin?.id ?? null,
        close_ts: d.status === 'active' ? null : created,
        close_user_id: d.status === 'active' ? null : (admin?.id ?? null),
      })
      .returning('id')) as { id: string }[];
    let salesOrderId: string | null = null;
    if (d.status === 'accepted') {
      const [so] = (await trx('sales_orders')
        .insert({
          number: 1,
          title: d.title,
          customer_id: customers[i % customers.length]!.id,
          reference_user_id: admin?.id ?? null,
          proposal_id: p!.id,
          total_price: figures.totalPrice,
          total_purchase_price: figures.totalPurchasePrice,
          create_ts: created,
          update_ts: created,
          create_user_id: admin?.id ?? null,
        })
        .returning('id')) as { id: string }[];
      salesOrderId = so!.id;
      await trx('proposals').where({ id: p!.id }).update({ sales_order_id: salesOrderId });
      await trx('sales_order_settings').update({ next_number: 2 });
    }
    const owners = salesOrderId ? [{ proposal_id: p!.id }, { sales_order_id: salesOrderId }] : [{ proposal_id: p!.id }];
    await trx('proposal_rows').insert(
      owners.flatMap((owner) =>
        rows.map((r, n) => ({
          ...owner,
          sort_order: n + 1,
          comment: r.comment ?? null,
          is_summary_row: Boolean(r.isSummaryRow),
          article_id: r.articleId ?? null,
          article_title: r.title ?? null,
          article_unit: r.unit ?? null,
          amount: r.amount ?? null,
          price: r.price ?? null,
          purchase_price: r.purchasePrice ?? null,
          total_price: figures.rows[n]!.totalPrice,
        })),
      ),
    );
  }
  // the demo shows monthly prices (service subscriptions) beside the one-off ones; a new proposal
  // starts with the company's terms (Settings → Proposals), as a real security installer's would
  await trx('proposal_settings').update({
    next_sequence: DEMO_PROPOSALS.length + 1,
    monthly_price: true,
    general_terms: DEMO_GENERAL_TERMS,
    payment_terms: DEMO_PAYMENT_TERMS,
  });
}
