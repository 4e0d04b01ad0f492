/**
 * The states of an ERP delivery (erp_deliveries.status; decision 025, issue 31 item 8), apart from
 * erp-delivery.ts so the invoice store can name them without importing the delivery job.
 *
 * pending/sending: on its way; delivered; failed: refused or out of tries, retried by hand; skipped:
 * dropped (the invoice was voided or reopened); needs_checking: the plugin could not tell whether
 * the vendor already holds the invoice (ErpStop), so nothing is sent by itself until a person has
 * looked there (the vendor's reference is the row's external_id) and retries by hand.
 */
export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed' | 'skipped' | 'needs_checking';

/** A delivery the vendor may hold: its invoice is kept (not voided) and not reopened as a draft. */
export const MAYBE_AT_VENDOR: readonly DeliveryStatus[] = ['sending', 'delivered', 'needs_checking'];
