import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isTileTemplate } from '~/core/work-orders/map-tiles';

/**
 * The one schema for the process environment. Every entry point calls `loadConfig()` first, so a
 * bad or missing variable stops the process before anything else happens, with every problem named.
 */
const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine(
      (v) => {
        if (v === undefined) return true;
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      { message: `must be a URL starting with ${protocols.map((p) => p + '//').join(' or ')}` },
    );

export const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  DATA_DIR: z.string().min(1).default('./data'),
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  /** Where the server listens: this machine only on the embedded database unless given (issue 30). */
  HOST: z.string().min(1).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  BASE_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/, 'must be a lower-case domain name such as ordo.example')
    .optional(),
  DEFAULT_TENANT: z
    .string()
    .regex(/^[a-z][a-z0-9-]{1,39}$/, 'must be a tenant slug')
    .optional(),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The current key's id in sealed values; derived from the key when not given. */
  SECRET_KEY_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1–32 letters, digits, _ or -')
    .optional(),
  /** Retired keys that still open what they sealed: comma-separated `key` or `id:key`. */
  SECRET_KEYS_OLD: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const keys: SecretKey[] = [];
      for (const entry of (v ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean)) {
        const m = /^([A-Za-z0-9_-]{1,32}):(.+)$/.exec(entry);
        const key = m ? m[2]! : entry;
        if (key.length < 32) {
          ctx.addIssue({ code: 'custom', message: 'each key must be at least 32 characters' });
          return z.NEVER;
        }
        keys.push({ id: m ? m[1]! : keyId(key), key });
      }
      return keys;
    }),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: z.string().min(3).default('Ordo <no-reply@localhost>'),
  S3_ENDPOINT: optionalUrl(['http:', 'https:']),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  /** Start the document browser with the server and the worker, so the first PDF does not wait for it. */
  WARM_DOCUMENT_BROWSER: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool.default(false),
  RUN_WORKERS: bool.default(true),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  SESSION_ABSOLUTE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(12),
  PLUGIN_OPTIONS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return {} as Record<string, unknown>;
      try {
        const parsed: unknown = JSON.parse(v);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
      } catch {
        /* reported below */
      }
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object keyed by plugin id' });
      return z.NEVER;
    }),
  DEMO: bool.optional(),
  /** The map tab's tile server for tenants that set none (default OpenStreetMap's), and its attribution. */
  MAP_TILE_URL: z
    .string()
    .trim()
    .optional()
    .refine((v) => v === undefined || isTileTemplate(v), {
      message: 'must be an http(s) URL template with {z}, {x} and {y}',
    }),
  MAP_TILE_ATTRIBUTION: z.string().trim().max(300).optional(),
});

export type TEnv = z.infer<typeof ZEnv>;

/** One key that seals or opens secrets, and the id sealed values name it by. */
export interface SecretKey {
  id: string;
  key: string;
}

/** A key's id when none is given: the first 8 hex digits of its SHA-256 (names the key, reveals nothing). */
export function keyId(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export interface Config extends TEnv {
  /** HOST, or 127.0.0.1 on the embedded database and 0.0.0.0 on PostgreSQL. */
  HOST: string;
  /**
   * The current key that seals secrets: SECRET_KEY, or on the embedded database a key generated
   * once and kept in DATA_DIR (filled in by getConfig). Empty until known; there is no fallback,
   * so sealing or opening without a key fails (core/crypto/secret-box).
   */
  secretKey: string;
  /** The current key's id (SECRET_KEY_ID, or derived from the key). */
  secretKeyId: string;
  /** Retired keys that still open (SECRET_KEYS_OLD); `rotate-key` re-seals their values. */
  oldSecretKeys: SecretKey[];
  /** true when no DATABASE_URL is given: the app runs on embedded PGlite in DATA_DIR. */
  embedded: boolean;
  /** The demo tenant is created on the embedded database (a newcomer's `npm start`), or when DEMO=1. */
  demo: boolean;
  /**
   * A public deployment: production on PostgreSQL. Links are https, identity providers must be
   * https, HSTS is sent. `npm start` on the embedded database is production code on a local
   * machine, reached over plain http on localhost, so none of that applies there.
   */
  httpsOnly: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Ordo cannot start: the environment has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n` +
        problems.map((p) => `  - ${p}`).join('\n'),
    );
    this.name = 'ConfigError';
  }
}

/** Rules between variables, checked on the raw values so they are reported with every other problem. */
function crossChecks(env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  // On the embedded database the key is generated and kept in DATA_DIR; on PostgreSQL the server,
  // the workers and every command must be given the same key, whatever NODE_ENV says: there is no
  // fallback key (issue 30).
  if (env.DATABASE_URL && !env.SECRET_KEY)
    problems.push(
      'SECRET_KEY: is required on PostgreSQL (DATABASE_URL), the same for the server, the workers and the tenant CLI; make one with `openssl rand -base64 32`',
    );
  const s3 = [env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY];
  if (s3.some(Boolean) && !s3.every(Boolean))
    problems.push('S3_BUCKET: S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  return problems;
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  // An empty variable means "not set": compose files and shells often export empty strings.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = ZEnv.safeParse(cleaned);
  const problems = [
    ...(result.success ? [] : result.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`)),
    ...crossChecks(cleaned),
  ];
  if (!result.success || problems.length) throw new ConfigError(problems);
  const e = result.data;
  const embedded = !e.DATABASE_URL;
  const demo = e.DEMO ?? embedded;
  return {
    ...e,
    secretKey: e.SECRET_KEY ?? '',
    secretKeyId: e.SECRET_KEY_ID ?? (e.SECRET_KEY ? keyId(e.SECRET_KEY) : ''),
    oldSecretKeys: e.SECRET_KEYS_OLD,
    HOST: e.HOST ?? (embedded ? '127.0.0.1' : '0.0.0.0'),
    embedded,
    demo,
    httpsOnly: e.NODE_ENV === 'production' && !embedded,
    DEFAULT_TENANT: e.DEFAULT_TENANT ?? (demo || e.NODE_ENV !== 'production' ? 'demo' : undefined),
  };
}

const SECRET_FILE = 'secret-key';

/**
 * The embedded database's own SECRET_KEY: read from DATA_DIR, or generated there on first start
 * (256 random bits, readable by the owner only). It lives beside the data it protects, so the
 * server, the worker and the CLI on the same DATA_DIR agree, and deleting the data deletes both.
 */
export function dataDirSecret(dataDir: string): string {
  const file = path.join(dataDir, SECRET_FILE);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString('base64url') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (e) {
    // another process on the same DATA_DIR wrote it first: use theirs
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return fs.readFileSync(file, 'utf8').trim();
}

let current: Config | undefined;

/** The embedded database's kept key put in a configuration that has none (PostgreSQL always has one). */
export function withDataDirSecret(config: Config): Config {
  if (config.secretKey || !config.embedded) return config;
  const secretKey = dataDirSecret(config.DATA_DIR);
  return { ...config, secretKey, secretKeyId: config.SECRET_KEY_ID ?? keyId(secretKey) };
}

/** The process's configuration, read once (with the embedded database's kept key when none is given). */
export function getConfig(): Config {
  current ??= withDataDirSecret(parseConfig(process.env));
  return current;
}

/** For tests and the CLI: replace the configuration in use. */
export function setConfig(config: Config): Config {
  current = config;
  return config;
}

/** For tests: forget the configuration in use, so the next `getConfig()` reads the environment again. */
export function resetConfig(): void {
  current = undefined;
}
