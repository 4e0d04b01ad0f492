import { describe, expect, it } from 'vitest';
import { ErpError, isErpError, withAccessToken } from './erp-http';
import type { ErpCredentials, ErpSession } from './erp-provider';

describe('[erp] isErpError', () => {
  it('knows an ErpError from this module and one made by a plugin’s own copy of it, and nothing else', () => {
    expect(isErpError(new ErpError('ERP_AUTH_FAILED', { vendorMessage: 'no' }))).toBe(true);
    // what a plugin imported outside the server bundle throws: the same shape, another class
    class ForeignErpError extends Error {
      readonly code = 'ERP_AUTH_FAILED';
      readonly retryable = false;
      constructor() {
        super('ERP_AUTH_FAILED: Login failed.');
        this.name = 'ErpError';
      }
    }
    const foreign = new ForeignErpError();
    expect(foreign instanceof ErpError).toBe(false);
    expect(isErpError(foreign)).toBe(true);
    expect(isErpError(new Error('ERP_AUTH_FAILED'))).toBe(false);
    expect(isErpError(Object.assign(new Error('x'), { name: 'ErpError' }))).toBe(false);
    expect(isErpError({ name: 'ErpError', code: 'ERP_AUTH_FAILED', retryable: false })).toBe(false);
    expect(isErpError(null)).toBe(false);
  });
});

describe('[erp] withAccessToken under the refresh lock (issue 31 item 6)', () => {
  const NOW = Date.parse('2026-03-02T10:00:00Z');
  const at = (ms: number) => new Date(NOW + ms).toISOString();

  /** A session whose store other processes may have written, its refresh lock counted. */
  function sessionOver(store: { credentials: ErpCredentials | null }, initial: ErpCredentials) {
    const log: string[] = [];
    const session: ErpSession = {
      tenantId: 't',
      credentials: initial,
      accounts: { sales: {} },
      async saveCredentials(next) {
        log.push(`save ${next.accessToken}`);
        store.credentials = next;
      },
      async reloadCredentials() {
        log.push('reload');
        return store.credentials;
      },
      async withRefreshLock(fn) {
        log.push('lock');
        try {
          return await fn();
        } finally {
          log.push('unlock');
        }
      },
    };
    return { session, log };
  }

  it('uses the token another process stored meanwhile instead of refreshing with a used-up refresh token', async () => {
    const mine = { accessToken: 'A1', refreshToken: 'R1', expiresAt: at(30_000) };
    const store = { credentials: { accessToken: 'A2', refreshToken: 'R2', expiresAt: at(3_600_000) } };
    const { session, log } = sessionOver(store, mine);
    const refreshed: string[] = [];
    const used = await withAccessToken(
      session,
      async (r) => (refreshed.push(r), { accessToken: 'A3', refreshToken: 'R3', expiresAt: at(3_600_000) }),
      async (token) => token,
      () => NOW,
    );
    expect(used).toBe('A2');
    expect(refreshed).toEqual([]);
    expect(log).toEqual(['lock', 'reload', 'unlock']);
    expect(session.credentials).toEqual(store.credentials);
  });

  it('refreshes under the lock, with the stored refresh token, when nobody did', async () => {
    const mine = { accessToken: 'A1', refreshToken: 'R1', expiresAt: at(30_000), realmId: '42' };
    const store = { credentials: { ...mine } as ErpCredentials };
    const { session, log } = sessionOver(store, mine);
    const refreshed: string[] = [];
    const used = await withAccessToken(
      session,
      async (r) => (refreshed.push(r), { accessToken: 'A2', refreshToken: 'R2', expiresAt: at(3_600_000) }),
      async (token) => token,
      () => NOW,
    );
    expect(used).toBe('A2');
    expect(refreshed).toEqual(['R1']);
    expect(log).toEqual(['lock', 'reload', 'save A2', 'unlock']);
    // what the plugin added to the credentials (QuickBooks' realm) is kept
    expect(store.credentials).toMatchObject({ accessToken: 'A2', refreshToken: 'R2', realmId: '42' });
  });

  it('after a 401, takes a newer stored token even when it is not expiring; refreshes when the refused one is still stored', async () => {
    const mine = { accessToken: 'A1', refreshToken: 'R1', expiresAt: at(3_600_000) };
    const refused = (status: number) => new ErpError('ERP_AUTH_FAILED', { status });
    const calls: string[] = [];
    const call = async (token: string) => {
      calls.push(token);
      if (token === 'A1') throw refused(401);
      return token;
    };
    const newer = { accessToken: 'A2', refreshToken: 'R2', expiresAt: at(3_600_000) };
    const a = sessionOver({ credentials: newer }, mine);
    expect(
      await withAccessToken(
        a.session,
        async () => ({ accessToken: 'X' }),
        call,
        () => NOW,
      ),
    ).toBe('A2');
    expect(calls).toEqual(['A1', 'A2']);

    const b = sessionOver({ credentials: { ...mine } }, mine);
    const refreshed: string[] = [];
    const used = await withAccessToken(
      b.session,
      async (r) => (refreshed.push(r), { accessToken: 'A3', refreshToken: 'R3', expiresAt: at(3_600_000) }),
      call,
      () => NOW,
    );
    expect(used).toBe('A3');
    expect(refreshed).toEqual(['R1']);
  });

  it('stops as not connected when the tenant disconnected meanwhile', async () => {
    const { session } = sessionOver({ credentials: null }, { accessToken: 'A1', refreshToken: 'R1', expiresAt: at(0) });
    await expect(
      withAccessToken(
        session,
        async () => ({ accessToken: 'A2' }),
        async (t) => t,
        () => NOW,
      ),
    ).rejects.toMatchObject({ code: 'ERP_NOT_CONNECTED' });
  });
});
