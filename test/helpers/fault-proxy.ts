import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';

// A fault-injecting HTTP proxy, started on port 0 in front of a real server
// (the embedded hub, a daemon). For each request, `decide` picks a fault or
// null (forward untouched). Faults:
// - status: answer with it without forwarding (500, 503, 429 with Retry-After)
// - reset: destroy the connection without forwarding
// - lost: forward (the server does the work), then drop the answer
// - late500: forward, then answer 500 instead of the real answer
// - hang: never answer (until the proxy closes)

export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string; message?: string }
  | { kind: 'reset' }
  | { kind: 'lost' }
  | { kind: 'late500' }
  | { kind: 'hang' };

export interface Seen {
  method: string;
  url: string;
  body: string;
  auth: string | undefined;
  ua: string | undefined;
  fault: Fault['kind'] | null;
}

export interface FaultProxy {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** A fault for the request, or null; a promise holds the request until it settles (a gate). */
export type Decide = (req: IncomingMessage, body: string) => Fault | null | Promise<Fault | null>;

export async function startFaultProxy(target: string, decide: Decide): Promise<FaultProxy> {
  const seen: Seen[] = [];
  const upstream = new Agent({ connections: 32 });
  const forward = async (req: IncomingMessage, body: string) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'connection') headers[k] = v;
    const up = await request(`${target}${req.url ?? ''}`, { dispatcher: upstream, method: req.method as 'GET', headers, body: body === '' ? undefined : body });
    return { status: up.statusCode, headers: up.headers, body: Buffer.from(await up.body.arrayBuffer()) };
  };
  const handle = async (req: IncomingMessage, res: ServerResponse, body: string): Promise<void> => {
    const fault = await decide(req, body);
    seen.push({ method: req.method ?? '', url: req.url ?? '', body, auth: req.headers.authorization, ua: req.headers['user-agent'], fault: fault?.kind ?? null });
    if (fault?.kind === 'reset') { req.socket.destroy(); return; }
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'status') {
      res.writeHead(fault.status, { 'content-type': 'application/json', ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}), ...(fault.message ? { 'x-error-message': fault.message } : {}) });
      res.end(JSON.stringify({ error: fault.message ?? `injected ${fault.status}` }));
      return;
    }
    const answer = await forward(req, body);
    if (fault?.kind === 'lost') { req.socket.destroy(); return; }
    if (fault?.kind === 'late500') { res.writeHead(500, { 'content-type': 'application/json' }); res.end('{"error":"injected 500 after the work was done"}'); return; }
    const type = answer.headers['content-type'];
    res.writeHead(answer.status, { 'content-type': typeof type === 'string' ? type : 'application/json' });
    res.end(answer.body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch(() => {
        if (!res.headersSent) { res.statusCode = 502; res.end(); }
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await upstream.close();
    },
  };
}

/** A small seeded generator (mulberry32): the same faults on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fail `rate` of requests, spread evenly over 500, reset, lost answer, late 500 and 429. */
export function randomFaults(rate: number, random: () => number): Decide {
  const kinds: Fault[] = [
    { kind: 'status', status: 500 }, { kind: 'reset' }, { kind: 'lost' }, { kind: 'late500' },
    { kind: 'status', status: 429, retryAfter: '1' },
  ];
  return () => {
    if (random() >= rate) return null;
    return kinds[Math.floor(random() * kinds.length)] ?? null;
  };
}
