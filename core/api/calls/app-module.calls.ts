import type { ApiCall } from '../define-call';

export const appModuleCalls: ApiCall[] = [];
