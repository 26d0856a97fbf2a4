import { createHash } from 'node:crypto';
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
// - cut: (from `cutAfter`) the connection is destroyed once that many bytes
//   of the request body arrived: an upload that fails mid-way
// Bodies are forwarded byte for byte (LFS uploads are binary). With
// `keepHost`, the server sees the proxy's Host, so links it builds from
// Host (the LFS batch API's upload links) lead back through the proxy.

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
  fault: Fault['kind'] | 'cut' | null;
  /** Bytes of the request body received. */
  bytes: number;
}

export interface FaultProxy {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** A fault for the request, or null; a promise holds the request until it settles (a gate). */
export type Decide = (req: IncomingMessage, body: string) => Fault | null | Promise<Fault | null>;

export interface ProxyOptions {
  /** Forward the client's Host header (default: the target's). */
  keepHost?: boolean;
  /** Bytes of the body after which to destroy the connection, or null to let it through. */
  cutAfter?: (req: IncomingMessage) => number | null;
}

export async function startFaultProxy(target: string, decide: Decide, opts: ProxyOptions = {}): Promise<FaultProxy> {
  const seen: Seen[] = [];
  const upstream = new Agent({ connections: 32 });
  const forward = async (req: IncomingMessage, raw: Buffer) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && (k !== 'host' || opts.keepHost) && k !== 'connection') headers[k] = v;
    const up = await request(`${target}${req.url ?? ''}`, { dispatcher: upstream, method: req.method as 'GET', headers, body: raw.length === 0 ? undefined : raw });
    return { status: up.statusCode, headers: up.headers, body: Buffer.from(await up.body.arrayBuffer()) };
  };
  const record = (req: IncomingMessage, body: string, bytes: number, fault: Seen['fault']): void => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', body, auth: req.headers.authorization, ua: req.headers['user-agent'], fault, bytes });
  };
  const handle = async (req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> => {
    const body = raw.toString('utf8');
    const fault = await decide(req, body);
    record(req, body, raw.length, fault?.kind ?? null);
    if (fault?.kind === 'reset') { req.socket.destroy(); return; }
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'status') {
      res.writeHead(fault.status, { 'content-type': 'application/json', ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}), ...(fault.message ? { 'x-error-message': fault.message } : {}) });
      res.end(JSON.stringify({ error: fault.message ?? `injected ${fault.status}` }));
      return;
    }
    const answer = await forward(req, raw);
    if (fault?.kind === 'lost') { req.socket.destroy(); return; }
    if (fault?.kind === 'late500') { res.writeHead(500, { 'content-type': 'application/json' }); res.end('{"error":"injected 500 after the work was done"}'); return; }
    const type = answer.headers['content-type'];
    res.writeHead(answer.status, { 'content-type': typeof type === 'string' ? type : 'application/json' });
    res.end(answer.body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const cut = opts.cutAfter?.(req) ?? null;
    let bytes = 0;
    req.on('data', (d: Buffer) => {
      chunks.push(d);
      bytes += d.length;
      if (cut !== null && bytes >= cut && !req.socket.destroyed) {
        record(req, '', bytes, 'cut');
        req.socket.destroy();
      }
    });
    req.on('end', () => {
      if (req.socket.destroyed) return;
      handle(req, res, Buffer.concat(chunks)).catch(() => {
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

/**
 * Fail about `rate` of the distinct requests, spread evenly over 500, reset,
 * lost answer, late 500 and 429; each distinct request (method, path, body)
 * at most once. Which requests fail is a hash of the seed and the request,
 * not of the order requests arrive in: the client sends several at once, so
 * a schedule drawn in arrival order fell on different requests from run to
 * run, and now and then on one action five times in a row, past the bounded
 * retry every action has (lib/retry.ts). Once per request, every
 * action meets at most one fault per request it makes and converges in one
 * run; a repeated fault is the persistent-503 test's subject.
 */
export function faultsOncePerRequest(rate: number, seed: number): Decide {
  const kinds: Fault[] = [
    { kind: 'status', status: 500 }, { kind: 'reset' }, { kind: 'lost' }, { kind: 'late500' },
    { kind: 'status', status: 429, retryAfter: '1' },
  ];
  const seen = new Set<string>();
  return (req, body) => {
    const request = `${req.method ?? ''} ${req.url ?? ''}\n${body}`;
    if (seen.has(request)) return null;
    seen.add(request);
    const h = createHash('sha256').update(`${seed}\n${request}`).digest();
    if (h.readUInt32BE(0) / 2 ** 32 >= rate) return null;
    return kinds[h.readUInt32BE(4) % kinds.length] ?? null;
  };
}
