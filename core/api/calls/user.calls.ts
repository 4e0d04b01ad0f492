import type { ApiCall } from '../define-call';

export const userCalls: ApiCall[] = [];
