import client from 'prom-client';

/** Prometheus metrics: Node defaults plus request timing. Labels never name a tenant or user. */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

export const httpDuration = new client.Histogram({
  name: 'ordo_http_request_duration_seconds',
  help: 'HTTP request duration',
  labelNames: ['method', 'kind', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

export const sqlStatements = new client.Histogram({
  name: 'ordo_http_request_sql_statements',
  help: 'SQL statements run per HTTP request',
  labelNames: ['kind'] as const,
  buckets: [0, 1, 2, 4, 8, 16, 32, 64],
  registers: [registry],
});
