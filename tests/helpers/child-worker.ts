import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * A test's worker process (a second "server" or "worker"): it prints `ready` once set up, waits
 * for `go` on stdin, and prints its outcome as JSON on its last line before exiting 0.
 */
export interface ChildWorker<T> {
  child: ChildProcessWithoutNullStreams;
  /** Resolves on `ready`, or when the process ends first (its outcome then says why). */
  ready: Promise<void>;
  outcome: Promise<T>;
  go(): void;
}

export function startChildWorker<T>(script: string, env: Record<string, string | undefined>): ChildWorker<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (b: Buffer) => {
    stdout += b.toString();
    if (stdout.startsWith('ready\n')) markReady();
  });
  const outcome = new Promise<T>((resolve, reject) =>
    child.on('exit', (code) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('{')) reject(new Error(`${script} exited ${code}: ${stderr || stdout}`));
      else resolve(JSON.parse(last) as T);
    }),
  );
  return {
    child,
    ready: Promise.race([ready, outcome.then(() => undefined)]),
    outcome,
    go: () => void child.stdin.write('go\n'),
  };
}
