import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';

// A tiny stand-in for the daemon's motion routes that records what an app
// sends. The daemon itself is tested by its own suite; this only lets an
// example app run with no daemon runtime in the loop.
export interface Call {
  method: string;
  path: string;
  body: unknown;
}

export interface Recorder {
  url: string;
  calls: Call[];
  count(path: string): number;
  /** Resolves when `path` was called `n` times. */
  waitFor(path: string, n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let raw = '';
    req.on('data', (d: Buffer) => { raw += d.toString(); });
    req.on('end', () => { resolve(raw ? JSON.parse(raw) as unknown : null); });
  });
}

export async function startRecorder(): Promise<Recorder> {
  const calls: Call[] = [];
  const running = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const answer = (path: string, body: unknown): unknown => {
    if (path === '/api/move/set_target') return { status: 'ok' };
    if (path === '/api/move/goto' || path.startsWith('/api/move/play/')) {
      const uuid = randomUUID();
      running.add(uuid);
      const ms = path === '/api/move/goto' ? Number((body as { duration?: number }).duration ?? 0.5) * 1000 : 100;
      const timer = setTimeout(() => { running.delete(uuid); timers.delete(timer); }, ms);
      timers.add(timer);
      return { uuid };
    }
    if (path === '/api/move/running') return [...running].map((uuid) => ({ uuid }));
    return undefined;
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then((body) => {
      const path = (req.url ?? '').split('?')[0]!;
      calls.push({ method: req.method ?? '', path, body });
      const value = answer(path, body);
      res.writeHead(value === undefined ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value === undefined ? { detail: 'Not Found' } : value));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const count = (path: string): number => calls.filter((c) => c.path === path).length;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    count,
    async waitFor(path, n, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (count(path) < n) {
        if (Date.now() > deadline) throw new Error(`${path} called ${count(path)} times, expected ${n}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
