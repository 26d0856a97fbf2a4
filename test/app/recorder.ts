import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDaemon } from '../../runtime/daemon/server.js';
import { until } from '../helpers/wait.js';

// The real simulated daemon (runtime/daemon, on port 0) with a log of the
// requests it answered, so a test can see what an app sent and the daemon
// still decides what is valid (a request it rejects fails the app, as on a
// robot).

export interface Call {
  method: string;
  path: string;
  body: unknown;
  status: number;
  /** performance.now() when the answer was sent. */
  at: number;
}

export interface Recorder {
  url: string;
  calls: Call[];
  count(path: string): number;
  /** Resolves when `path` was answered `n` times. */
  waitFor(path: string, n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startRecorder(): Promise<Recorder> {
  const appsDir = mkdtempSync(join(tmpdir(), 'robotctl-recorder-'));
  const daemon = await buildDaemon({ appsDir, sim: true, port: 0 });
  const calls: Call[] = [];
  daemon.addHook('onResponse', async (req, reply) => {
    calls.push({ method: req.method, path: req.url.split('?', 1)[0] ?? '', body: req.body ?? null, status: reply.statusCode, at: performance.now() });
  });
  const url = await daemon.listen({ host: '127.0.0.1', port: 0 });
  const count = (path: string): number => calls.filter((c) => c.path === path).length;
  return {
    url,
    calls,
    count,
    async waitFor(path, n, timeoutMs = 20_000) {
      await until(() => count(path) >= n, timeoutMs, `${n} × ${path}`);
    },
    async close() {
      await daemon.close();
      rmSync(appsDir, { recursive: true, force: true });
    },
  };
}
