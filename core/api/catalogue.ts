import type { ApiCall } from './define-call';
import { accessLevelCalls } from './calls/access-level.calls';
import { appModuleCalls } from './calls/app-module.calls';
import { oidcCalls } from './calls/oidc.calls';
import { recoveryCalls } from './calls/recovery.calls';
import { authenticateCall, authenticateMfaCall, keepaliveCall, logoutCall, userConfCall } from './calls/session.calls';
import { userCalls } from './calls/user.calls';

/** Every call the REST API serves, in the catalogue's paths (spec/api-calls.md). */
export const API_CALLS: ApiCall[] = [
  authenticateCall,
  authenticateMfaCall,
  keepaliveCall,
  logoutCall,
  userConfCall,
  ...recoveryCalls,
  ...userCalls,
  ...accessLevelCalls,
  ...appModuleCalls,
  ...oidcCalls,
];
