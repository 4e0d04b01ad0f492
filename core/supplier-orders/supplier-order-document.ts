import type { Seller } from '~/core/supplier-invoices/matching';

/**
 * A supplier's order confirmation as read from either format Ordo takes (decision 055): a Peppol
 * Order Response (ubl-order-response.ts) or a wholesaler's CSV (order-csv.ts).
 */
export interface SupplierOrderLine {
  /** The confirmation's line id (Peppol LineItem/ID; the CSV's line number). */
  lineId: string;
  description: string;
  /** The seller's article number (ours, or the supplier's number for one of ours). */
  articleNumber: string | null;
  /** Quantity, up to 4 decimals. */
  amount: string;
  /** UN/ECE rec 20 unit code or the CSV's unit. */
  unit: string | null;
  /** The confirmed net price of one unit (the purchase price), up to 4 decimals. */
  price: string;
}

export interface SupplierOrderDocument {
  source: 'peppol' | 'csv';
  /** The seller's order number (Peppol SalesOrderID, else the response's ID); with the supplier, unique. */
  orderNumber: string;
  /** The Peppol response's own ID (null for CSV). */
  responseId: string | null;
  /** YYYY-MM-DD */
  orderDate: string | null;
  currency: string;
  /** Peppol OrderResponseCode (AB, RE, AP, CA; BIS 28A: 12, 27, 29, 30). */
  responseCode: string | null;
  /** The buyer's order reference: the work order's number when the technician ordered for one. */
  workOrderReference: string | null;
  /** Peppol CustomerReference: a second reference the buyer gave. */
  otherReference: string | null;
  /** Who confirmed, as the document states it (a CSV names none: the uploader picks the supplier). */
  seller: Seller | null;
  lines: SupplierOrderLine[];
  /** Lines that cannot become rows, and why. */
  skipped: { lineId: string; reason: 'notAccepted' | 'noQuantityOrPrice' }[];
}
