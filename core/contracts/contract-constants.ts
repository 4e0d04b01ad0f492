/**
 * The contract register's fixed lists (spec sections 3 and 6), apart from the schemas so the pages
 * can use them without loading zod or the server's modules.
 */

export const CONTRACT_STATUSES = ['open', 'closed'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

/** The list's choices: whose contracts, in which state, in which order. */
export const CONTRACT_SCOPES = ['mine', 'all'] as const;
export type ContractScope = (typeof CONTRACT_SCOPES)[number];
export const CONTRACT_LIST_STATUSES = ['open', 'closed', 'all'] as const;
export type ContractListStatus = (typeof CONTRACT_LIST_STATUSES)[number];
export const CONTRACT_SORTS = ['stopDate', 'number', 'customer'] as const;
export type ContractSort = (typeof CONTRACT_SORTS)[number];

/** A contract covers at most this many services. */
export const MAX_CONTRACT_SERVICES = 200;
/** Contract IDs proposed when none is given are this many digits (10001, 10002, …). */
export const CONTRACT_NUMBER_LENGTH = 5;
