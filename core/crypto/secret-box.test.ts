import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyId } from '~/core/config/env';
import { keyRing, needsReseal, open, reseal, seal, SecretKeyMissingError } from './secret-box';

const OLD = 'o'.repeat(40);
const NEW = 'n'.repeat(40);
const ring = (current: string, ...old: string[]) =>
  keyRing({
    secretKey: current,
    secretKeyId: keyId(current),
    oldSecretKeys: old.map((k) => ({ id: keyId(k), key: k })),
  });
const ctx = { tenant: 'tenant-a', purpose: 'erp_connection.credentials' };

/** The format before key ids (v1), as the old secret-box wrote it. */
function sealV1(plaintext: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv(
    'aes-256-gcm',
    Buffer.from(hkdfSync('sha256', secret, 'ordo', 'integration-secrets', 32)),
    iv,
  );
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

describe('[platform] sealed secrets (decision 040)', () => {
  it('names the key that sealed and opens with it', () => {
    const sealed = seal('token', ctx, ring(NEW));
    expect(sealed.startsWith(`v2.${keyId(NEW)}.`)).toBe(true);
    expect(open(sealed, ctx, ring(NEW))).toBe('token');
  });

  it('refuses a value moved to another tenant or another column', () => {
    const sealed = seal('token', ctx, ring(NEW));
    expect(() => open(sealed, { ...ctx, tenant: 'tenant-b' }, ring(NEW))).toThrow();
    expect(() => open(sealed, { ...ctx, purpose: 'user_mfa.secret_sealed:u1' }, ring(NEW))).toThrow();
  });

  it('opens with a retired key while it is listed, and re-seals under the current one', () => {
    const sealed = seal('token', ctx, ring(OLD));
    expect(open(sealed, ctx, ring(NEW, OLD))).toBe('token');
    expect(() => open(sealed, ctx, ring(NEW))).toThrow(/unknown key/);
    expect(needsReseal(sealed, ring(NEW, OLD))).toBe(true);
    const again = reseal(sealed, ctx, ring(NEW, OLD));
    expect(needsReseal(again, ring(NEW))).toBe(false);
    expect(open(again, ctx, ring(NEW))).toBe('token');
    expect(reseal(again, ctx, ring(NEW))).toBe(again);
  });

  it('still opens the v1 format, with the caller’s old key derivation, and re-seals it', () => {
    const legacySecret = (k: string) => `${k}\u0000access-code\u0000c1`;
    const v1 = sealV1('1234', legacySecret(OLD));
    const codeCtx = { tenant: 'tenant-a', purpose: 'codes.value_sealed:c1', legacySecret };
    expect(open(v1, codeCtx, ring(NEW, OLD))).toBe('1234');
    expect(() => open(v1, { ...codeCtx, legacySecret: undefined }, ring(NEW, OLD))).toThrow();
    expect(open(reseal(v1, codeCtx, ring(NEW, OLD)), codeCtx, ring(NEW))).toBe('1234');
  });

  it('has no key to fall back on', () => {
    expect(() => keyRing({ secretKey: '', secretKeyId: '', oldSecretKeys: [] })).toThrow(SecretKeyMissingError);
  });
});
