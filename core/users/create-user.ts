import type { Trx } from '~/core/db/with-tenant';
import { hashPassword } from '~/core/auth/password';
import { UserModel } from './user.model';

export interface NewUser {
  email: string;
  name: string;
  shortName?: string;
  language?: string;
  userType?: 'normal' | 'super';
  password?: string;
  accessLevels: string[];
}

/**
 * Creates a user with access levels given by display name; an existing e-mail is left as it is
 * (so seeding twice is harmless). Returns the id and whether it was created now.
 */
export async function ensureUser(trx: Trx, input: NewUser): Promise<{ id: string; created: boolean }> {
  const existing = await UserModel.query(trx).whereRaw('lower(email) = lower(?)', [input.email]).first();
  if (existing) return { id: existing.id, created: false };
  const row = await UserModel.query(trx).insertAndFetch({
    email: input.email,
    name: input.name,
    shortName: input.shortName ?? null,
    language: input.language ?? null,
    userType: input.userType ?? 'normal',
    passwordHash: input.password ? await hashPassword(input.password) : null,
    configuration: {},
  });
  if (input.accessLevels.length) {
    const levels = await trx('access_levels').whereIn('display_name', input.accessLevels).select('id');
    if (levels.length !== input.accessLevels.length)
      throw new Error(`Unknown access level in ${input.accessLevels.join(', ')}`);
    await trx('user_access_levels').insert(
      levels.map((l: { id: string }) => ({ user_id: row.id, access_level_id: l.id })),
    );
  }
  return { id: row.id, created: true };
}
