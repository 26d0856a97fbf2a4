import type { Dispatcher } from 'undici';
import { exchange, ExchangeTimeout, type Answer } from '../../lib/http-exchange.js';
import { DaemonError, codeFor } from './errors.js';
import { networkFailure, statusFailure } from '../../lib/retry.js';
import { networkCodeText } from '../../lib/network-words.js';

// One JSON request to a daemon, with a timeout, mapped to DaemonError (no
// retry here: the client wraps calls in lib/retry.ts).

export interface HttpOptions {
  method?: 'GET' | 'POST' | 'PUT';
  body?: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Names the caller to the daemon (the simulated one shows robotctl's agent on its dashboard). */
  userAgent?: string;
}

/** One call to the daemon through the client's retry policy (client.ts). */
export type DaemonCall = <T>(path: string, o?: Partial<HttpOptions> & { idempotent?: boolean }) => Promise<T>;

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EPIPE',
  'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_CLOSED']);

function detailText(body: unknown, fallback: string): string {
  if (body && typeof body === 'object' && 'detail' in body) {
    const d = (body as { detail: unknown }).detail;
    if (typeof d === 'string') return d;
    if (Array.isArray(d)) return d.map((e) => (e && typeof e === 'object' && 'msg' in e ? `${JSON.stringify((e as { loc?: unknown }).loc)}: ${String((e as { msg: unknown }).msg)}` : JSON.stringify(e))).join('; ');
  }
  return fallback;
}

function networkError(err: unknown, url: string, timedOut: boolean): DaemonError {
  const code = (err as { code?: string } | null)?.code ?? '';
  const cause = (err as { cause?: { code?: string } } | null)?.cause?.code ?? '';
  if (timedOut) return new DaemonError('timeout', `robot daemon at ${url} did not answer in time`, { failure: { kind: 'unknown' } });
  const failure = networkFailure(err);
  if (NETWORK_CODES.has(code) || NETWORK_CODES.has(cause) || err instanceof TypeError) {
    return new DaemonError('unreachable', `robot daemon at ${url} is unreachable: ${code || cause ? networkCodeText(code || cause) : (err as Error).message}`, { failure });
  }
  return new DaemonError('unreachable', `robot daemon at ${url}: ${(err as Error).message}`, { failure });
}

export async function daemonRequest<T>(agent: Dispatcher, baseUrl: string, path: string, opts: HttpOptions): Promise<T> {
  const url = new URL(`${baseUrl}${path}`);
  const headers: Record<string, string> = {};
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.userAgent) headers['user-agent'] = opts.userAgent;
  let res: Answer;
  try {
    res = await exchange(agent, {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
    });
  } catch (err) {
    // The caller's own abort is not a daemon failure: let it through as-is.
    if (opts.signal?.aborted) throw err;
    throw networkError(err, baseUrl, err instanceof ExchangeTimeout);
  }
  const text = res.body.toString('utf8');
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    if (res.statusCode < 400) throw new DaemonError('bad_response', `robot daemon at ${baseUrl} sent non-JSON for ${path}`, { status: res.statusCode });
  }
  if (res.statusCode >= 400) {
    const detail = detailText(parsed, text.slice(0, 200) || `HTTP ${res.statusCode}`);
    const code = codeFor(res.statusCode, detail);
    const retryAfter = res.headers['retry-after'];
    const failure = code === 'busy' ? { kind: 'throttled' as const, retryAfterMs: null }
      : statusFailure(res.statusCode, typeof retryAfter === 'string' ? retryAfter : null) ?? { kind: 'permanent' as const };
    throw new DaemonError(code, `${opts.method ?? 'GET'} ${path}: ${detail}`, { status: res.statusCode, detail, failure });
  }
  return parsed as T;
}
