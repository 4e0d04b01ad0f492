import type { Trx } from '~/core/db/with-tenant';

export interface UserChoice {
  id: string;
  name: string;
}

/**
 * The tenant's active users by name: whom time can be reported for, a reminder sent to, a dispatch
 * rule or a plan given to. The caller checks who may see the list.
 */
export async function activeUserChoices(trx: Trx): Promise<UserChoice[]> {
  return trx('users').where('status', 'active').orderByRaw('lower(name), id').select('id', 'name');
}
