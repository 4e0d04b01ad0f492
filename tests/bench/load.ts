/**
 * A closed-loop load: `clients` connections, each sending its next request as soon as the last one
 * is answered, for `seconds`. Requests per second and client-side latency percentiles. Kept small
 * and dependency-free so that the same client measures the bare node:http baseline and the app in
 * one run (the figures that count are the ratios, on a shared and noisy machine).
 */
import http from 'node:http';

export interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50ms: number;
  p95ms: number;
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;

export async function load(
  target: { host?: string; port: number; hostHeader?: string },
  make: () => LoadRequest,
  options: { clients: number; seconds: number; warmupSeconds?: number },
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.clients });
  const one = (req: LoadRequest) =>
    new Promise<number>((resolve) => {
      const r = http.request(
        {
          host: target.host ?? '127.0.0.1',
          port: target.port,
          method: req.method,
          path: req.path,
          headers: { host: target.hostHeader ?? 'localhost', ...req.headers },
          agent,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      r.on('error', () => resolve(0));
      r.end(req.body);
    });
  const run = async (seconds: number, record: boolean) => {
    const latencies: number[] = [];
    let errors = 0;
    const until = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.clients }, async () => {
        while (performance.now() < until) {
          const t = performance.now();
          const status = await one(make());
          if (!record) continue;
          latencies.push(performance.now() - t);
          if (status !== 200) errors++;
        }
      }),
    );
    return { latencies, errors, seconds: (performance.now() - started) / 1000 };
  };
  await run(options.warmupSeconds ?? 1, false);
  const { latencies, errors, seconds } = await run(options.seconds, true);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    rps: Math.round(latencies.length / seconds),
    p50ms: +pct(latencies, 50).toFixed(1),
    p95ms: +pct(latencies, 95).toFixed(1),
  };
}
