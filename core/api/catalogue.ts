import type { ApiCall } from './define-call';
import { getAccessLevelCall } from './calls/access-level.calls';
import { authenticateCall, keepaliveCall, logoutCall, userConfCall } from './calls/session.calls';

/** Every call the REST API serves, in the catalogue's paths (spec/api-calls.md). */
export const API_CALLS: ApiCall[] = [authenticateCall, keepaliveCall, logoutCall, userConfCall, getAccessLevelCall];
