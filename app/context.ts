import { createContext } from 'react-router';
import type { Auth, ZoneAuth } from '~/core/context';
import type { Lang } from '~/core/i18n/languages';
import type { Tenant } from '~/core/tenancy/tenant';

/** Set by the Express server before React Router runs: the tenant the Host header named. */
export const tenantContext = createContext<Tenant>();
/** Request facts from the server: address, request id, the raw session token if any. */
export const requestContext = createContext<{
  ip: string | null;
  requestId: string;
  token: string | null;
  /** The customer zone's session cookie, read only on /zone pages (decision 061). */
  zoneToken?: string | null;
}>();
/** Set by the session middleware: who is signed in, or null. */
export const authContext = createContext<Auth | null>(null);
/** Set by the session middleware on /zone pages: the zone user signed in there, or null. */
export const zoneAuthContext = createContext<ZoneAuth | null>(null);
/** Set by the i18n middleware. */
export const langContext = createContext<Lang>('sv');
