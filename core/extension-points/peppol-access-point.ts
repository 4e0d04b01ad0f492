import type { z } from 'zod';
import type { PluginBase } from './plugin';

/*
 * Delivery of a Peppol e-invoice through an access point (issue 15 item 4): the plug point only.
 * Ordo makes the Peppol BIS Billing 3.0 document itself (core/invoicing/peppol.ts) and offers it
 * as a download; sending it over the Peppol network takes a certified access point (a service with
 * its own contract and keys), so it is left to a plugin. None ships, and none is registered yet:
 * the core that would call one — an outbox row written with the invoice, as the ERP delivery does
 * (docs/decisions/025), and a history entry with the access point's message id — comes with the
 * first plugin.
 */

/** A participant on the Peppol network: its EAS scheme and id (`0007` + `5566778899`). */
export interface PeppolParticipant {
  scheme: string;
  id: string;
}

/** The document to send: the UBL XML exactly as the download has it. */
export interface PeppolOutgoingDocument {
  /** `Invoice` (UBL Invoice-2) or `CreditNote` (UBL CreditNote-2): decides the Peppol document type id. */
  kind: 'Invoice' | 'CreditNote';
  /** The invoice's number, for the access point's logs and the answer's correlation. */
  number: string;
  xml: string;
}

export interface PeppolSendResult {
  /** The access point's id of the message (SBDH instance id or its own): kept on the invoice. */
  messageId: string;
}

/**
 * What an access point plugin implements. `send` hands one document to the access point for the
 * receiver and resolves when the access point has accepted it (not when the buyer has read it).
 * It throws an Error with `retryable: true` for a failure worth retrying (timeout, 5xx, 429) and
 * anything else for a refusal of the content or of the receiver (not registered on the network,
 * the document type not in its capabilities), with the access point's own words in the message.
 * Sending the same invoice twice must not deliver it twice: the caller passes the same
 * `idempotencyKey` on every try (`ordo-<invoice id>`), as the ERP delivery does.
 */
export interface PeppolAccessPoint {
  send(
    document: PeppolOutgoingDocument,
    route: { sender: PeppolParticipant; receiver: PeppolParticipant; idempotencyKey: string },
    tenantOptions: unknown,
    signal: AbortSignal,
  ): Promise<PeppolSendResult>;
  /** Whether the receiver can take the document type (an SMP lookup); optional. */
  canReceive?(
    receiver: PeppolParticipant,
    kind: PeppolOutgoingDocument['kind'],
    tenantOptions: unknown,
  ): Promise<boolean>;
}

export type PeppolAccessPointDefinition<O = unknown> = PluginBase<'peppol-access-point', O, PeppolAccessPoint> & {
  displayName: string;
};

export function definePeppolAccessPoint<O>(def: {
  id: string;
  displayName: string;
  options: z.ZodType<O>;
  tenantOptions?: z.ZodType<unknown>;
  create(options: O): PeppolAccessPoint;
}): PeppolAccessPointDefinition<O> {
  return { kind: 'peppol-access-point', ...def };
}
