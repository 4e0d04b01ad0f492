import type { Trx } from '~/core/db/with-tenant';

/**
 * Failed sign-ins are counted per address and per e-mail (ASVS 2.2.1). Past the limit within the
 * window, further attempts are refused for the block time, right password or not.
 */
export const THROTTLE = { maxFailures: 10, windowMinutes: 15, blockMinutes: 15 } as const;

export function throttleKeys(ip: string | null | undefined, email: string): string[] {
  return [`ip:${ip ?? 'unknown'}`, `email:${email.toLowerCase()}`];
}

export async function isBlocked(trx: Trx, keys: string[], now: Date): Promise<boolean> {
  const row = await trx('login_throttle').whereIn('key', keys).where('blocked_until', '>', now).first('key');
  return Boolean(row);
}

export async function recordFailure(trx: Trx, keys: string[], now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - THROTTLE.windowMinutes * 60_000);
  const blockUntil = new Date(now.getTime() + THROTTLE.blockMinutes * 60_000);
  for (const key of keys) {
    await trx.raw(
      `insert into login_throttle (key, failures, window_started_at) values (?, 1, ?)
       on conflict (key) do update set
         failures = case when login_throttle.window_started_at < ? then 1 else login_throttle.failures + 1 end,
         window_started_at = case when login_throttle.window_started_at < ? then excluded.window_started_at
                                  else login_throttle.window_started_at end,
         blocked_until = case when login_throttle.window_started_at >= ? and login_throttle.failures + 1 >= ?
                              then ?::timestamptz else login_throttle.blocked_until end`,
      [key, now, windowStart, windowStart, windowStart, THROTTLE.maxFailures, blockUntil],
    );
  }
}

export async function clearFailures(trx: Trx, key: string): Promise<void> {
  await trx('login_throttle').where({ key }).delete();
}
