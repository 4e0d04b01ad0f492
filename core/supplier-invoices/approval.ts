/*
 * The two approvals of a supplier invoice as a pure state machine (issue 33 item 3; spec section 4:
 * "pending (to approve), approved, declined … Content and payment are approved separately; payment
 * approval sends the invoice to the ERP"; decision 054). The service reads the invoice and who is
 * asking, asks `decide`, and writes what it answers; the table test (approval.test.ts) walks every
 * state × action × actor.
 *
 * - Content: the person responsible for the invoice (its work order's or project's) says the goods
 *   or work were received as invoiced. When nobody is responsible, anyone with supplier_invoices:edit
 *   may. The supplier must be known (an unmatched invoice waits for a person first).
 * - Payment: finance (supplier_invoices:edit), after the content; the invoice is then approved.
 * - Decline: anyone who can see a pending invoice, with a comment (the schema asks for it).
 * - Nothing changes an approved or declined invoice.
 */

export type SupplierInvoiceStatus = 'pending' | 'approved' | 'declined';

export interface ApprovalState {
  status: SupplierInvoiceStatus;
  contentApproved: boolean;
  supplierMatched: boolean;
  /** Someone is responsible for the invoice (its responsibleUserId is set). */
  hasResponsible: boolean;
}

export interface ApprovalActor {
  /** The asker is the invoice's responsible person. */
  isResponsible: boolean;
  /** supplier_invoices:edit */
  canEdit: boolean;
}

export type ApprovalAction = 'approveContent' | 'approvePayment' | 'decline';

export type ApprovalRefusal =
  | 'SUPPLIER_INVOICE_NOT_PENDING'
  | 'SUPPLIER_INVOICE_CONTENT_ALREADY_APPROVED'
  | 'SUPPLIER_INVOICE_CONTENT_NOT_APPROVED'
  | 'SUPPLIER_INVOICE_SUPPLIER_NOT_MATCHED'
  | 'WARNING_PERMISSION_DENIED';

export type ApprovalDecision =
  | { ok: true; next: Pick<ApprovalState, 'status' | 'contentApproved'> }
  | { ok: false; code: ApprovalRefusal; status: 403 | 409 };

const refuse = (code: ApprovalRefusal): ApprovalDecision => ({
  ok: false,
  code,
  status: code === 'WARNING_PERMISSION_DENIED' ? 403 : 409,
});

/** May this actor approve the content (whatever the state)? The screen shows the button by it. */
export const mayApproveContent = (state: Pick<ApprovalState, 'hasResponsible'>, actor: ApprovalActor): boolean =>
  actor.isResponsible || (!state.hasResponsible && actor.canEdit);

export function decide(state: ApprovalState, action: ApprovalAction, actor: ApprovalActor): ApprovalDecision {
  if (state.status !== 'pending') return refuse('SUPPLIER_INVOICE_NOT_PENDING');
  switch (action) {
    case 'approveContent':
      if (!mayApproveContent(state, actor)) return refuse('WARNING_PERMISSION_DENIED');
      if (state.contentApproved) return refuse('SUPPLIER_INVOICE_CONTENT_ALREADY_APPROVED');
      if (!state.supplierMatched) return refuse('SUPPLIER_INVOICE_SUPPLIER_NOT_MATCHED');
      return { ok: true, next: { status: 'pending', contentApproved: true } };
    case 'approvePayment':
      if (!actor.canEdit) return refuse('WARNING_PERMISSION_DENIED');
      if (!state.contentApproved) return refuse('SUPPLIER_INVOICE_CONTENT_NOT_APPROVED');
      return { ok: true, next: { status: 'approved', contentApproved: true } };
    case 'decline':
      return { ok: true, next: { status: 'declined', contentApproved: state.contentApproved } };
  }
}
