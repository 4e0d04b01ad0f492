import { z } from 'zod';
import {
  CONTRACT_ACCESS,
  closeContract,
  createContract,
  deleteContract,
  getContract,
  listContracts,
  proposeContractNumber,
  reopenContract,
  updateContract,
} from '~/core/contracts/contract.service';
import { ZContractList, ZCreateContract, ZUpdateContract } from '~/core/contracts/contract.schema';
import { ZProposeQuery } from '~/core/registers/propose-id';
import { asSent, defineCall, type ApiCall } from '../define-call';

const id = z.object({ id: z.string() });

/**
 * The contract calls (the CONTRACTS app module; spec sections 3 and 6). contracts:read shows one's
 * own contracts (sales user or creator), contracts:read_all everyone's; a contract one may not see
 * is 404 like another tenant's. Calls declare the services' schemas, which parse again. The fixed /contracts/id/propose
 * comes before /contracts/:id.
 */
export const contractCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/contracts',
    access: CONTRACT_ACCESS.read,
    input: asSent(ZContractList),
    summary:
      'Contracts {contracts, totalCount}, each with totalValue, totalCost and margin (sums of its services); ' +
      '?status=open|closed|all (open), ?scope=mine|all (all with contracts:read_all, else always mine), ' +
      '?q searches contract ID, title, invoice reference, contact and customer; ?customerId, ?salesUserId, ' +
      '?sort=stopDate|number|customer, ?desc, ?offset, ?limit',
    handler: (ctx, input) => listContracts(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/contracts/id/propose',
    access: CONTRACT_ACCESS.create,
    input: asSent(ZProposeQuery),
    summary: 'The next free all-digit contract ID {id}; ?length (5)',
    handler: (ctx, input) => proposeContractNumber(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/contracts/:id',
    access: CONTRACT_ACCESS.read,
    input: id,
    summary: 'One contract {contract} with its services (name, value, cost), totals and version; 404 when not visible',
    handler: (ctx, input) => getContract(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/contracts',
    access: CONTRACT_ACCESS.create,
    input: asSent(ZCreateContract),
    summary:
      'Creates an open contract {contract: {number?, title, customerId, contactName, contactEmail, contactPhone, ' +
      'salesUserId (the asker when left out), startDate, stopDate, invoiceReference, note, services: [{name, value, cost}]}}; ' +
      'the contract ID is proposed when left out; returns {contract}; 409 DUPLICATE_CONTRACT_ID',
    handler: (ctx, input) => createContract(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/contracts',
    access: CONTRACT_ACCESS.edit,
    input: asSent(ZUpdateContract),
    summary:
      'Changes an open contract {contract: {id, version, number, …, services}}, its services replaced as given; ' +
      'contracts:edit for one’s own, contracts:edit_all for others’; returns {contract}; ' +
      '409 CONTRACT_CHANGED (saved since that version), CONTRACT_CLOSED, DUPLICATE_CONTRACT_ID',
    handler: (ctx, input) => updateContract(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/contracts/:id/close',
    access: CONTRACT_ACCESS.close,
    input: id,
    summary: 'Closes a contract from now; returns {contract}; 409 CONTRACT_CLOSED when it is',
    handler: (ctx, input) => closeContract(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/contracts/:id/reopen',
    access: CONTRACT_ACCESS.close,
    input: id,
    summary: 'Opens a closed contract again; returns {contract}; 409 CONTRACT_NOT_CLOSED when it is open',
    handler: (ctx, input) => reopenContract(ctx, input.id),
  }),
  defineCall({
    method: 'DELETE',
    path: '/contracts/:id',
    access: CONTRACT_ACCESS.delete,
    input: id,
    summary: 'Deletes a contract and its services',
    async handler(ctx, input) {
      await deleteContract(ctx, input.id);
      return {};
    },
  }),
];
