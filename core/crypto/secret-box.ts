import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { getConfig, type Config, type SecretKey } from '~/core/config/env';

/**
 * Seals secrets at rest with AES-256-GCM (decision 040).
 *
 * `v2.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts): the key is derived from the named key
 * with HKDF, and the associated data binds the value to its tenant and its column or purpose, so a
 * value copied to another tenant's row or to another column does not open. The current key
 * (SECRET_KEY) seals; it and the retired keys (SECRET_KEYS_OLD) open. `v1.<iv>.<tag>.<ciphertext>`,
 * the format before key ids, still opens with any known key (each caller's old key derivation) and
 * is re-sealed by `npm run tenant -- rotate-key`.
 */

/** Where a sealed value belongs: its tenant (id) and its column or purpose, e.g. `user_mfa.secret_sealed`. */
export interface SealContext {
  tenant: string;
  purpose: string;
  /**
   * How the v1 format's caller made its secret from SECRET_KEY (some bound their own suffix to it);
   * the bare key when not given.
   */
  legacySecret?: (key: string) => string;
}

export interface KeyRing {
  current: SecretKey;
  /** Every key that opens, the current one first. */
  all: SecretKey[];
}

export class SecretKeyMissingError extends Error {
  constructor() {
    super('No SECRET_KEY: secrets can be neither sealed nor opened (set SECRET_KEY)');
    this.name = 'SecretKeyMissingError';
  }
}

/** The process's keys from its configuration. */
export function keyRing(config: Pick<Config, 'secretKey' | 'secretKeyId' | 'oldSecretKeys'> = getConfig()): KeyRing {
  if (!config.secretKey) throw new SecretKeyMissingError();
  const current = { id: config.secretKeyId, key: config.secretKey };
  return { current, all: [current, ...config.oldSecretKeys.filter((k) => k.key !== current.key)] };
}

const derived = new Map<string, Buffer>();
function aesKey(secret: string, info: string): Buffer {
  const cacheKey = `${info}\u0000${secret}`;
  let k = derived.get(cacheKey);
  if (!k) {
    k = Buffer.from(hkdfSync('sha256', secret, 'ordo', info, 32));
    derived.set(cacheKey, k);
  }
  return k;
}

const aad = (keyIdPart: string, ctx: SealContext) =>
  Buffer.from(`ordo.v2\u0000${keyIdPart}\u0000${ctx.tenant}\u0000${ctx.purpose}`, 'utf8');

function assertContext(ctx: SealContext) {
  if (!ctx.tenant || !ctx.purpose) throw new Error('A sealed value needs its tenant and purpose');
}

export function seal(plaintext: string, ctx: SealContext, ring: KeyRing = keyRing()): string {
  assertContext(ctx);
  const { id, key } = ring.current;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKey(key, 'sealed-secrets-v2'), iv);
  cipher.setAAD(aad(id, ctx));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v2', id, ...[iv, cipher.getAuthTag(), body].map((p) => p.toString('base64url'))].join('.');
}

function decrypt(key: Buffer, iv: string, tag: string, body: string, associated?: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  if (associated) decipher.setAAD(associated);
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** Opens a sealed value; throws when no known key opens it here (wrong tenant, column, key or a change). */
export function open(sealed: string, ctx: SealContext, ring: KeyRing = keyRing()): string {
  assertContext(ctx);
  const parts = sealed.split('.');
  if (parts[0] === 'v2' && parts.length === 5) {
    const [, id, iv, tag, body] = parts as [string, string, string, string, string];
    const key = ring.all.find((k) => k.id === id);
    if (!key) throw new Error(`Sealed with an unknown key (id ${id}): add it to SECRET_KEYS_OLD`);
    return decrypt(aesKey(key.key, 'sealed-secrets-v2'), iv, tag, body, aad(id, ctx));
  }
  if (parts[0] === 'v1' && parts.length === 4) {
    const [, iv, tag, body] = parts as [string, string, string, string];
    for (const k of ring.all) {
      try {
        return decrypt(aesKey(ctx.legacySecret?.(k.key) ?? k.key, 'integration-secrets'), iv, tag, body);
      } catch {
        /* the next key */
      }
    }
    throw new Error('No known key opens this sealed value (v1)');
  }
  throw new Error('Unknown sealed-secret format');
}

/** Whether a value is sealed otherwise than the current format with the current key. */
export function needsReseal(sealed: string, ring: KeyRing = keyRing()): boolean {
  return !sealed.startsWith(`v2.${ring.current.id}.`);
}

/** The value opened and sealed again under the current key, or itself when it already is. */
export function reseal(sealed: string, ctx: SealContext, ring: KeyRing = keyRing()): string {
  return needsReseal(sealed, ring) ? seal(open(sealed, ctx, ring), ctx, ring) : sealed;
}
