import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, dataDirSecret, parseConfig } from './env';

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

  it('requires SECRET_KEY in production on PostgreSQL only', () => {
    expect(() => parseConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/ordo' })).toThrow(/SECRET_KEY/);
    expect(() => parseConfig({ NODE_ENV: 'production' })).not.toThrow();
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
