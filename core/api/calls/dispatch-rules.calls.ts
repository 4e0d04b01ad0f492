import { z } from 'zod';
import {
  DISPATCH_RULES_EDIT,
  DISPATCH_RULES_READ,
  listDispatchRules,
  replaceDispatchRules,
} from '~/core/work-orders/dispatch-rules.service';
import { ZDispatchRuleSet } from '~/core/work-orders/dispatch-rules.rules';
import { defineCall, shownOnly, type ApiCall } from '../define-call';

export const listDispatchRulesCall = defineCall({
  method: 'GET',
  path: '/instance/wo/dispatchrule',
  access: DISPATCH_RULES_READ,
  input: z.object({}),
  summary:
    'The dispatch rules {dispatchRules: [{id, day (1 Monday … 7 Sunday), startTime, endTime ("HH:MM"), userId, ' +
    'userName}]} in order; a new work order created without assignees inside a window goes to its user',
  handler: (ctx) => listDispatchRules(ctx),
});

export const replaceDispatchRulesCall = defineCall({
  method: 'PUT',
  path: '/instance/wo/dispatchrule',
  access: DISPATCH_RULES_EDIT,
  // Shown, but checked by the service alone (dispatch-rules.rules.ts): its 400 names a row's own errors
  // (dispatchRules.2.startTime) together with the overlaps across rows (and lists them), so the form marks every row.
  input: shownOnly(ZDispatchRuleSet),
  summary:
    'Replaces the whole set {dispatchRules: [{day, startTime, endTime, userId}]}; an end before the start runs past ' +
    'midnight; 400 DISPATCH_RULE_EMPTY_RANGE (start = end) or DISPATCH_RULES_OVERLAP (a start or end inside ' +
    'another range, checked across midnight, marked on each overlapping row); users must be active',
  handler: (ctx, input) => replaceDispatchRules(ctx, input),
});

/** The dispatch-rule calls of the catalogue: GET and PUT /instance/wo/dispatchrule (PUT replaces the set). */
export const dispatchRuleCalls: ApiCall[] = [listDispatchRulesCall, replaceDispatchRulesCall];
