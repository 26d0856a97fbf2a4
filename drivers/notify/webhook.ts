import { createHmac } from 'node:crypto';
import { Agent } from 'undici';
import { exchange, ExchangeTimeout } from '../../lib/http-exchange.js';
import { networkFailure, retrying, statusFailure, type Failure, type RetryPolicy } from '../../lib/retry.js';

// The notify webhook's sender (robot.yaml `notify.webhook`): one JSON POST
// per rollout outcome, signed as GitHub signs its deliveries when a secret is
// set (`X-Robotctl-Signature: sha256=<hex HMAC-SHA256 of the body>`). Refused
// connections, 429 and 5xx are retried a few times (a receiver that
// restarts); anything else fails at once. The caller logs a failure and
// goes on: a notification never fails a rollout.

export const SIGNATURE_HEADER = 'x-robotctl-signature';

export interface NotifySender {
  /** POST `body` (already JSON) to `url`; throws NotifyError when it was not accepted (2xx). */
  post(url: string, body: string, secret: string | null, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

export class NotifyError extends Error {
  constructor(message: string, readonly failure: Failure) {
    super(message);
    this.name = 'NotifyError';
  }
}

/** `sha256=` and the hex HMAC-SHA256 of `body` keyed by `secret`. */
export function signature(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export interface NotifySenderOptions {
  userAgent: string;
  /** Per attempt (default 10 s). */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
}

export function createNotifySender(opts: NotifySenderOptions): NotifySender {
  const agent = new Agent({ keepAliveTimeout: 4_000, connections: 4 });
  const policy: RetryPolicy = { attempts: 3, baseMs: 500, maxDelayMs: 5_000, ...opts.retry };
  return {
    async post(url, body, secret, signal) {
      const target = new URL(url);
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': opts.userAgent };
      if (secret !== null) headers[SIGNATURE_HEADER] = signature(body, secret);
      // The URL's own user name and password are never sent as a header of ours, nor printed.
      const where = `${target.origin}${target.pathname}`;
      await retrying({ policy, signal, idempotent: true, judge: (err) => (err instanceof NotifyError ? err.failure : { kind: 'unknown' }) }, async () => {
        let status: number;
        try {
          const answer = await exchange(agent, {
            origin: target.origin, path: `${target.pathname}${target.search}`, method: 'POST', headers, body,
            timeoutMs: opts.timeoutMs ?? 10_000, signal,
          });
          status = answer.statusCode;
        } catch (err) {
          if (signal?.aborted) throw err;
          const why = err instanceof ExchangeTimeout ? 'no answer in time' : err instanceof Error ? err.message : String(err);
          throw new NotifyError(`notify webhook ${where}: ${why}`, err instanceof ExchangeTimeout ? { kind: 'unknown' } : networkFailure(err));
        }
        if (status < 200 || status >= 300) {
          throw new NotifyError(`notify webhook ${where} answered HTTP ${status}`, statusFailure(status, null) ?? { kind: 'permanent' });
        }
      });
    },
    close: () => agent.close(),
  };
}
