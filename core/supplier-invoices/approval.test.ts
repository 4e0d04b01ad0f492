import { describe, expect, it } from 'vitest';
import { decide, type ApprovalAction, type ApprovalActor, type ApprovalState } from './approval';

/*
 * The two approvals as a table (issue 33 item 3; spec section 4): every state an invoice can be in,
 * every action, every kind of asker, and what the machine answers.
 */

const state = (over: Partial<ApprovalState> = {}): ApprovalState => ({
  status: 'pending',
  contentApproved: false,
  supplierMatched: true,
  hasResponsible: true,
  ...over,
});

const responsible: ApprovalActor = { isResponsible: true, canEdit: false };
const finance: ApprovalActor = { isResponsible: false, canEdit: true };
const responsibleFinance: ApprovalActor = { isResponsible: true, canEdit: true };
const bystander: ApprovalActor = { isResponsible: false, canEdit: false };

type Expected = { next: { status: string; contentApproved: boolean } } | { code: string; status: number };

const TABLE: [string, ApprovalState, ApprovalAction, ApprovalActor, Expected][] = [
  // content approval
  [
    'the responsible person approves the content',
    state(),
    'approveContent',
    responsible,
    { next: { status: 'pending', contentApproved: true } },
  ],
  [
    'finance cannot approve the content of an invoice someone is responsible for',
    state(),
    'approveContent',
    finance,
    { code: 'WARNING_PERMISSION_DENIED', status: 403 },
  ],
  [
    'nobody responsible: finance approves the content',
    state({ hasResponsible: false }),
    'approveContent',
    finance,
    { next: { status: 'pending', contentApproved: true } },
  ],
  [
    'nobody responsible: a reader cannot',
    state({ hasResponsible: false }),
    'approveContent',
    bystander,
    { code: 'WARNING_PERMISSION_DENIED', status: 403 },
  ],
  [
    'a bystander cannot approve the content',
    state(),
    'approveContent',
    bystander,
    { code: 'WARNING_PERMISSION_DENIED', status: 403 },
  ],
  [
    'the content is approved once',
    state({ contentApproved: true }),
    'approveContent',
    responsible,
    { code: 'SUPPLIER_INVOICE_CONTENT_ALREADY_APPROVED', status: 409 },
  ],
  [
    'an unmatched supplier waits for a person first',
    state({ supplierMatched: false }),
    'approveContent',
    responsible,
    { code: 'SUPPLIER_INVOICE_SUPPLIER_NOT_MATCHED', status: 409 },
  ],
  [
    'approved: nothing more',
    state({ status: 'approved', contentApproved: true }),
    'approveContent',
    responsible,
    { code: 'SUPPLIER_INVOICE_NOT_PENDING', status: 409 },
  ],
  [
    'declined: nothing more',
    state({ status: 'declined' }),
    'approveContent',
    responsible,
    { code: 'SUPPLIER_INVOICE_NOT_PENDING', status: 409 },
  ],
  // payment approval
  [
    'finance approves the payment after the content: approved',
    state({ contentApproved: true }),
    'approvePayment',
    finance,
    { next: { status: 'approved', contentApproved: true } },
  ],
  [
    'not before the content',
    state(),
    'approvePayment',
    finance,
    { code: 'SUPPLIER_INVOICE_CONTENT_NOT_APPROVED', status: 409 },
  ],
  [
    'the responsible person without edit cannot approve the payment',
    state({ contentApproved: true }),
    'approvePayment',
    responsible,
    { code: 'WARNING_PERMISSION_DENIED', status: 403 },
  ],
  [
    'a responsible person with edit may do both',
    state({ contentApproved: true }),
    'approvePayment',
    responsibleFinance,
    { next: { status: 'approved', contentApproved: true } },
  ],
  [
    'the payment is approved once',
    state({ status: 'approved', contentApproved: true }),
    'approvePayment',
    finance,
    { code: 'SUPPLIER_INVOICE_NOT_PENDING', status: 409 },
  ],
  [
    'a declined invoice is not paid',
    state({ status: 'declined', contentApproved: true }),
    'approvePayment',
    finance,
    { code: 'SUPPLIER_INVOICE_NOT_PENDING', status: 409 },
  ],
  // decline
  [
    'anyone who sees a pending invoice may decline it',
    state(),
    'decline',
    bystander,
    { next: { status: 'declined', contentApproved: false } },
  ],
  [
    'also after the content approval, before payment',
    state({ contentApproved: true }),
    'decline',
    finance,
    { next: { status: 'declined', contentApproved: true } },
  ],
  [
    'an unmatched invoice may be declined',
    state({ supplierMatched: false }),
    'decline',
    responsible,
    { next: { status: 'declined', contentApproved: false } },
  ],
  [
    'an approved invoice is not declined',
    state({ status: 'approved', contentApproved: true }),
    'decline',
    finance,
    { code: 'SUPPLIER_INVOICE_NOT_PENDING', status: 409 },
  ],
  [
    'declined once',
    state({ status: 'declined' }),
    'decline',
    bystander,
    { code: 'SUPPLIER_INVOICE_NOT_PENDING', status: 409 },
  ],
];

describe('[supplier invoices] the approval state machine', () => {
  it.each(TABLE)('%s', (_what, s, action, actor, expected) => {
    const decision = decide(s, action, actor);
    if ('next' in expected) expect(decision).toEqual({ ok: true, next: expected.next });
    else expect(decision).toEqual({ ok: false, ...expected });
  });

  it('no path reaches approved without both approvals, in order', () => {
    // every sequence of up to three actions by any actor, from a new invoice
    const actions: ApprovalAction[] = ['approveContent', 'approvePayment', 'decline'];
    const actors = [responsible, finance, responsibleFinance, bystander];
    const walk = (s: ApprovalState, log: string[], depth: number) => {
      if (s.status === 'approved') expect(log.indexOf('approveContent')).toBeLessThan(log.indexOf('approvePayment'));
      if (!depth) return;
      for (const a of actions)
        for (const who of actors) {
          const d = decide(s, a, who);
          if (d.ok) walk({ ...s, ...d.next }, [...log, a], depth - 1);
        }
    };
    walk(state(), [], 3);
    walk(state({ hasResponsible: false }), [], 3);
  });
});
