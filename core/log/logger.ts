import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

/** Request-scoped fields (request id, tenant, user) that every log line inside the request carries. */
export const logContext = new AsyncLocalStorage<Record<string, unknown>>();

export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  base: { service: 'ordo' },
  timestamp: pino.stdTimeFunctions.isoTime,
  mixin: () => logContext.getStore() ?? {},
  redact: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password', 'token'],
});

export type Logger = typeof logger;
