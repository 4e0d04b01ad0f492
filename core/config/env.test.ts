import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, dataDirSecret, keyId, parseConfig } from './env';

describe('[platform] configuration', () => {
  it('defaults to the embedded database with a demo outside production', () => {
    const c = parseConfig({});
    expect(c.embedded).toBe(true);
    expect(c.demo).toBe(true);
    expect(c.DATA_DIR).toBe('./data');
    expect(c.PORT).toBe(3000);
    expect(c.DEFAULT_TENANT).toBe('demo');
  });

  it('names every bad or missing variable in one message', () => {
    let error: ConfigError | undefined;
    try {
      parseConfig({
        NODE_ENV: 'production',
        DATABASE_URL: 'mysql://db/ordo',
        PORT: 'eighty',
        REDIS_URL: 'http://x',
        LOG_LEVEL: 'loud',
        PLUGIN_OPTIONS: '[1]',
      });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const msg = error!.message;
    for (const name of ['PORT', 'REDIS_URL', 'LOG_LEVEL', 'PLUGIN_OPTIONS', 'DATABASE_URL', 'SECRET_KEY'])
      expect(msg).toContain(name);
    expect(error!.problems).toHaveLength(6);
  });

  it('never creates a demo in production on PostgreSQL, and is https-only there', () => {
    const c = parseConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/ordo', SECRET_KEY: 'x'.repeat(40) });
    expect(c.demo).toBe(false);
    expect(c.embedded).toBe(false);
    expect(c.httpsOnly).toBe(true);
    expect(c.DEFAULT_TENANT).toBeUndefined();
  });

  it("runs `npm start`'s production on the embedded database with the demo, over plain http", () => {
    const c = parseConfig({ NODE_ENV: 'production' });
    expect(c.embedded).toBe(true);
    expect(c.demo).toBe(true);
    expect(c.httpsOnly).toBe(false);
    expect(c.DEFAULT_TENANT).toBe('demo');
  });

  it('requires SECRET_KEY on PostgreSQL whatever NODE_ENV says, and has no fallback key', () => {
    for (const NODE_ENV of ['production', 'development', 'test'])
      expect(() => parseConfig({ NODE_ENV, DATABASE_URL: 'postgres://db/ordo' })).toThrow(/SECRET_KEY: is required/);
    expect(() => parseConfig({ NODE_ENV: 'production' })).not.toThrow();
    // the embedded database's key comes from DATA_DIR (getConfig), never from the source
    expect(parseConfig({}).secretKey).toBe('');
  });

  it('names each key by an id (given, or the first 8 hex digits of its SHA-256) and reads retired keys', () => {
    const current = 'c'.repeat(40);
    const c = parseConfig({
      DATABASE_URL: 'postgres://db/ordo',
      SECRET_KEY: current,
      SECRET_KEYS_OLD: ` 2025:${'a'.repeat(32)} , ${'b'.repeat(32)}`,
    });
    expect(c.secretKeyId).toBe(keyId(current));
    expect(c.secretKeyId).toMatch(/^[0-9a-f]{8}$/);
    expect(c.oldSecretKeys).toEqual([
      { id: '2025', key: 'a'.repeat(32) },
      { id: keyId('b'.repeat(32)), key: 'b'.repeat(32) },
    ]);
    expect(parseConfig({ SECRET_KEY: current, SECRET_KEY_ID: 'k2026' }).secretKeyId).toBe('k2026');
    expect(() => parseConfig({ SECRET_KEYS_OLD: 'old:short' })).toThrow(/SECRET_KEYS_OLD/);
  });

  it("keeps the embedded database's generated key in DATA_DIR, readable by its owner only", () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-secret-')), 'data');
    const first = dataDirSecret(dir);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(dataDirSecret(dir)).toBe(first);
    expect(fs.statSync(path.join(dir, 'secret-key')).mode & 0o777).toBe(0o600);
    expect(dataDirSecret(fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-secret-')))).not.toBe(first);
  });

  it('treats empty variables as unset', () => {
    expect(parseConfig({ DATABASE_URL: '', REDIS_URL: '' }).embedded).toBe(true);
  });
});
