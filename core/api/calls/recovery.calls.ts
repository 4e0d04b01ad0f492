import type { ApiCall } from '../define-call';

export const recoveryCalls: ApiCall[] = [];
