import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

/** Request-scoped fields (request id, tenant, user) that every log line inside the request carries. */
export const logContext = new AsyncLocalStorage<Record<string, unknown>>();

export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  base: { service: 'ordo' },
  timestamp: pino.stdTimeFunctions.isoTime,
  // the context's fields a child logger already binds are left out, so no line names a key twice
  mixin: (_object, _level, log) => {
    const store = logContext.getStore();
    if (!store) return {};
    const bound = log.bindings();
    return Object.fromEntries(Object.entries(store).filter(([key]) => !(key in bound)));
  },
  redact: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password', 'token'],
});

export type Logger = typeof logger;
