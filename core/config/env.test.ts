import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './env';

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

  it('never creates a demo in production', () => {
    const c = parseConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/ordo', SECRET_KEY: 'x'.repeat(40) });
    expect(c.demo).toBe(false);
    expect(c.embedded).toBe(false);
    expect(c.DEFAULT_TENANT).toBeUndefined();
  });

  it('treats empty variables as unset', () => {
    expect(parseConfig({ DATABASE_URL: '', REDIS_URL: '' }).embedded).toBe(true);
  });
});
