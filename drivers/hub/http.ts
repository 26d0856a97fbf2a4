import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { Agent } from 'undici';
import { exchange } from '../../lib/http-exchange.js';
import { packagePath } from '../../lib/paths.js';
import { HubError, hubMessageOf, scrub } from './errors.js';
import { errorCode, networkFailure, realClock, retrying, statusFailure, type RetryClock, type RetryPolicy } from '../../lib/retry.js';
import { networkCodeText } from '../../lib/network-words.js';
import { STATUS_CODES } from 'node:http';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

export interface HttpRequest {
  method: HttpMethod;
  /** Path under the endpoint, starting with `/`, already URL-encoded. */
  path: string;
  json?: unknown;
  body?: string | Buffer;
  contentType?: string;
  accept?: string;
  /** Safe to repeat after an unknown outcome (reset, timeout, 5xx). */
  idempotent: boolean;
  signal?: AbortSignal;
  /**
   * Called just before each attempt is sent, retries included; what it
   * throws is thrown at once (never retried) and nothing more is sent: the
   * fence of a lease holder that may have been paused since it decided.
   */
  guard?: () => void;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request to a link the hub handed out (an LFS upload or verify action): absolute, maybe on another origin. */
export interface LinkRequest {
  method: 'PUT' | 'POST';
  href: string;
  /** The action's own headers, sent as given. */
  headers: Record<string, string>;
  /** Made anew for each attempt: a stream is read once. */
  body: () => string | Buffer | Readable;
  contentType?: string;
  contentLength?: number;
  /** Send the token too, but only if the link is on the hub's own origin. */
  withToken: boolean;
  signal?: AbortSignal;
  /** As HttpRequest.guard. */
  guard?: () => void;
}

export interface HttpOptions {
  endpoint: string;
  token: string | null;
  userAgent?: string;
  timeoutMs: number;
  retry: RetryPolicy;
  clock?: RetryClock;
}

export function defaultUserAgent(): string {
  try {
    return `robotctl/${(JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version}`;
  } catch {
    return 'robotctl';
  }
}

/** A request's guard refused it: not retried; send() throws the guard's own error. */
class Refused extends Error {
  constructor(readonly reason: unknown) {
    super('refused by its guard before it was sent');
    this.name = 'Refused';
  }
}

function header(res: { headers: HttpResponse['headers'] }, name: string): string | null {
  const v = res.headers[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}

/**
 * The driver's only door to the network: keep-alive connections, auth and
 * user-agent headers, errors as HubError that say what a retry may do, and
 * send() retried by the one policy of lib/retry.ts (429 and refused
 * connections for every call; 5xx, resets and timeouts for idempotent ones).
 */
export class HubHttp {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 16 });
  private readonly origin: string;
  private readonly basePath: string;
  private readonly userAgent: string;

  constructor(private readonly opts: HttpOptions) {
    const u = new URL(opts.endpoint);
    this.origin = u.origin;
    this.basePath = u.pathname.replace(/\/+$/, '');
    this.userAgent = opts.userAgent ?? defaultUserAgent();
  }

  url(path: string): string {
    return `${this.origin}${this.basePath}${path}`;
  }

  /** One request, retried as the policy allows; its guard is asked before each attempt. */
  send(req: HttpRequest): Promise<HttpResponse> {
    return this.guardedRetry(req.guard, req.idempotent, req.signal, () => this.sendOnce(req));
  }

  /** retry() with `guard` asked before each attempt: what it throws is thrown as is, never retried. */
  private async guardedRetry<T>(guard: (() => void) | undefined, idempotent: boolean, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    if (!guard) return this.retry(idempotent, signal, work);
    try {
      return await this.retry(idempotent, signal, () => {
        try {
          guard();
        } catch (err) {
          throw new Refused(err);
        }
        return work();
      });
    } catch (err) {
      throw err instanceof Refused ? err.reason : err;
    }
  }

  /** Any work made of sendOnce() calls, retried under this driver's policy. */
  retry<T>(idempotent: boolean, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    return retrying({
      policy: this.opts.retry, clock: this.opts.clock ?? realClock, idempotent, signal,
      judge: (err) => (err instanceof HubError ? err.failure : err instanceof Refused ? { kind: 'permanent' } : networkFailure(err)),
    }, work);
  }

  /** One request, no retry: the caller decides (a create resolves an unknown outcome first). */
  async sendOnce(req: HttpRequest): Promise<HttpResponse> {
    let res: HttpResponse;
    try {
      res = await this.once(req, this.origin, `${this.basePath}${req.path}`, true);
    } catch (err) {
      if (req.signal?.aborted) throw err;
      throw this.networkError(req, err);
    }
    if (res.status >= 400) throw this.httpError(req, res);
    return res;
  }

  /** GET following redirects (the hub redirects large files to a CDN); auth only to the hub's origin. */
  async download(path: string, signal?: AbortSignal): Promise<HttpResponse> {
    let res = await this.send({ method: 'GET', path, idempotent: true, signal });
    for (let hops = 0; res.status >= 300 && res.status < 400 && hops < 5; hops++) {
      const location = header(res, 'location');
      if (!location) break;
      const next = new URL(location, this.url(path));
      res = await this.once({ method: 'GET', path: '', idempotent: true, signal }, next.origin, `${next.pathname}${next.search}`, next.origin === this.origin);
      if (res.status >= 400) throw this.httpError({ method: 'GET', path, idempotent: true }, res);
    }
    return res;
  }

  /**
   * One request to a link from the hub, retried as a repeatable call: an
   * upload of the same bytes to the same object, or its verify, may be sent
   * again. The link's query (a signature) never reaches a message.
   */
  sendTo(req: LinkRequest): Promise<HttpResponse> {
    const url = new URL(req.href);
    const shown: HttpRequest = { method: req.method, path: '', idempotent: true };
    const where = `${url.origin}${url.pathname}`;
    return this.guardedRetry(req.guard, true, req.signal, async () => {
      const headers: Record<string, string> = { 'user-agent': this.userAgent, ...req.headers };
      if (req.withToken && url.origin === this.origin && this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
      if (req.contentType) headers['content-type'] = req.contentType;
      if (req.contentLength !== undefined) headers['content-length'] = String(req.contentLength);
      const body = req.body();
      let res: HttpResponse;
      try {
        res = await this.exchangeAt(url.origin, `${url.pathname}${url.search}`, req.method, headers, body, req.signal);
      } catch (err) {
        if (req.signal?.aborted) throw err;
        throw this.networkError(shown, err, where);
      } finally {
        if (typeof body === 'object' && !Buffer.isBuffer(body)) body.destroy();
      }
      if (res.status >= 400) throw this.httpError(shown, res, where);
      return res;
    });
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private once(req: HttpRequest, origin: string, path: string, withAuth: boolean): Promise<HttpResponse> {
    const headers: Record<string, string> = { 'user-agent': this.userAgent };
    if (withAuth && this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    let body: string | Buffer | undefined = req.body;
    if (req.json !== undefined) { body = JSON.stringify(req.json); headers['content-type'] = req.contentType ?? 'application/json'; }
    else if (body !== undefined) headers['content-type'] = req.contentType ?? 'application/octet-stream';
    if (req.accept) headers.accept = req.accept;
    return this.exchangeAt(origin, path, req.method, headers, body, req.signal);
  }

  private async exchangeAt(
    origin: string, path: string, method: HttpMethod, headers: Record<string, string>, body: string | Buffer | Readable | undefined, signal?: AbortSignal,
  ): Promise<HttpResponse> {
    const res = await exchange(this.agent, {
      origin, path, method: method as Dispatcher.HttpMethod, headers, body, signal, phaseTimeoutMs: this.opts.timeoutMs,
    });
    return { status: res.statusCode, headers: res.headers, body: res.body };
  }

  private httpError(req: HttpRequest, res: HttpResponse, where = this.url(req.path)): HubError {
    const hubMessage = hubMessageOf(header(res, 'x-error-message'), res.body.toString('utf8'));
    const text = `${res.status} ${reason(res.status)} (${req.method} ${where})${hubMessage ? `: ${hubMessage}` : ''}`;
    const failure = statusFailure(res.status, header(res, 'retry-after'), (this.opts.clock ?? realClock).now()) ?? { kind: 'permanent' as const };
    return new HubError(scrub(text, this.opts.token), {
      status: res.status, hubMessage: hubMessage ? scrub(hubMessage, this.opts.token) : null, failure, code: header(res, 'x-error-code'),
    });
  }

  private networkError(req: HttpRequest, err: unknown, where = this.url(req.path)): HubError {
    const code = errorCode(err);
    const detail = code !== null ? networkCodeText(code) : err instanceof Error ? err.message : String(err);
    return new HubError(scrub(`${req.method} ${where} failed: ${detail}`, this.opts.token), { status: null, failure: networkFailure(err) });
  }
}

function reason(status: number): string {
  return STATUS_CODES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');
}
