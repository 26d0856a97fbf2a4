import { request } from 'node:http';
import WebSocket from 'ws';

// Requests that name a Host of their choosing, as a browser does after DNS
// rebinding (its page's name now resolves to this machine): the connection
// goes to the server's real address, the Host header says the page's name.

export interface HostAnswer {
  status: number;
  body: string;
}

/** One HTTP request to `url`'s address with `headers` (host, origin…) as given. */
export function requestAs(url: string, opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string } = {}): Promise<HostAnswer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({
      host: u.hostname.replace(/^\[|\]$/g, ''), port: u.port, method: opts.method ?? 'GET', path: opts.path ?? u.pathname + u.search,
      headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A WebSocket upgrade to `url` with `headers` as given: 101 when it opened (then closed), else the HTTP status and body. */
export function upgradeAs(url: string, headers: Record<string, string> = {}): Promise<HostAnswer> {
  const { origin, ...rest } = headers;
  const ws = new WebSocket(url.replace(/^http/, 'ws'), { headers: rest, ...(origin ? { origin } : {}) });
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.on('open', () => { ws.close(); resolve({ status: 101, body: '' }); });
    ws.on('error', (err) => { if (ws.readyState !== WebSocket.CLOSED) reject(err); });
  });
}
