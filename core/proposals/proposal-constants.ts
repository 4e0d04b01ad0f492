/** The proposal statuses (spec section 4), apart from the service so that pages can import them. */
export const PROPOSAL_STATUSES = ['active', 'accepted', 'accepted-wo', 'declined'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];
