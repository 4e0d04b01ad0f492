import { resetConfig } from '~/core/config/env';

// Test files share their worker's modules (vitest.config.ts `isolate: false`): a file starts from the
// environment's configuration, not from whatever the worker's previous file set with setConfig()
// (another SECRET_KEY, no REDIS_URL, another DATA_DIR).
resetConfig();
