import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from '../helpers/wait.js';

// A tiny webhook receiver (node:http) that records what the hub delivers.

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Status to answer for the next requests, consumed in order; then 200. */
  script: number[];
  close(): Promise<void>;
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const script: number[] = [];
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (d: Buffer) => { data += d.toString(); });
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(data || '{}') as Record<string, unknown> });
      res.statusCode = script.shift() ?? 200;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
    waitFor: async (n, timeoutMs = 5000) => {
      await until(() => received.length >= n, timeoutMs, `${n} deliveries`);
      return received;
    },
  };
}

export const ALICE = { name: 'alice', token: 'hf_alice_token_1234567890' };
export const BOB = { name: 'bob', token: 'hf_bob_token_0987654321' };

export async function raw(url: string, method: string, token: string | null, body?: unknown): Promise<{ status: number; json: unknown; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: unknown = null;
  try { json = JSON.parse(text); } catch { json = text; }
  return { status: res.status, json, headers: res.headers };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder under os.tmpdir(), removed when the test ends (after servers close). */
export function tempDir(t: { teardown(fn: () => unknown): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-hub-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
