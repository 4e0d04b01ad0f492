/**
 * The two kinds of people who sign in on a tenant's host (ARCHITECTURE §5, decision 061): staff,
 * and the customers' people in the customer zone. Both use the same sign-in machinery (password
 * policy and hashing, throttling, sessions, one-time links, TOTP); what differs is where their rows
 * live. Each kind has its own tables, so a token or link of one kind is never found by the other's
 * checks: a zone session cannot reach a staff call, nor a staff session a zone call.
 */
export type PrincipalKind = 'staff' | 'zone';

export interface Principal {
  kind: PrincipalKind;
  /** The people: `users`, `customer_zone_users`. */
  users: string;
  /** Their status values: who may sign in, who never may. */
  active: string;
  inactive: string;
  sessions: string;
  /** One-time links (recovery); `user_id` names the person. */
  tokens: string;
  mfa: string;
  mfaRecoveryCodes: string;
  mfaChallenges: string;
  /** The sealing purpose of a TOTP secret (decision 040): a secret opens only for its kind and person. */
  mfaSealPurpose: string;
  /** Failed sign-ins by e-mail are counted per kind (by address, across both). */
  throttleEmailKey: string;
}

export const STAFF: Principal = {
  kind: 'staff',
  users: 'users',
  active: 'active',
  inactive: 'inactive',
  sessions: 'sessions',
  tokens: 'user_tokens',
  mfa: 'user_mfa',
  mfaRecoveryCodes: 'mfa_recovery_codes',
  mfaChallenges: 'mfa_challenges',
  mfaSealPurpose: 'user_mfa.secret_sealed',
  throttleEmailKey: 'email',
};

export const ZONE: Principal = {
  kind: 'zone',
  users: 'customer_zone_users',
  active: 'STATUS_ACTIVE',
  inactive: 'STATUS_INACTIVE',
  sessions: 'zone_sessions',
  tokens: 'zone_user_tokens',
  mfa: 'zone_user_mfa',
  mfaRecoveryCodes: 'zone_mfa_recovery_codes',
  mfaChallenges: 'zone_mfa_challenges',
  mfaSealPurpose: 'zone_user_mfa.secret_sealed',
  throttleEmailKey: 'zone-email',
};
