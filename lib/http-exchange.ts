import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';

// One HTTP exchange through an undici dispatcher, the whole answer kept:
// undici's dispatch() with a handler, no Readable for the body, no
// per-request AbortSignal.timeout()/AbortSignal.any(). Both drivers send
// through it, each with its own dispatcher (this file opens no connection).
// A daemon answers small JSON documents, and a drift check of 1,000 robots
// makes 2,000 of these: in its profile undici's request() API and the body
// stream were about a tenth of the CLI's CPU, the two signals a few percent
// more. The hub answers one 15 MB list for 50,000 webhooks: its 230 chunks
// through a Readable were about 80 ms of a diff.
//
// The promise settles once: with the answer, with an ExchangeTimeout when
// `timeoutMs` passes first, or with the caller's abort reason, whichever is
// first. A request still queued for a connection is then dropped as soon as
// it is dispatched. `phaseTimeoutMs` is undici's own pair of limits (until
// the headers, then between body chunks), for answers of any size.

export interface Exchange {
  origin: string;
  path: string;
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  /** A Readable is sent as it is read (an LFS upload from its file); give its content-length in `headers`. */
  body?: string | Buffer | Readable | undefined;
  /** The whole exchange, answer included. */
  timeoutMs?: number;
  /** Until the headers, then between two chunks of the body (undici's headersTimeout and bodyTimeout). */
  phaseTimeoutMs?: number;
  signal?: AbortSignal | undefined;
}

export interface Answer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Thrown when timeoutMs passed before the answer was complete. */
export class ExchangeTimeout extends Error {
  constructor() {
    super('no complete answer in time');
    this.name = 'ExchangeTimeout';
  }
}

export function exchange(dispatcher: Dispatcher, x: Exchange): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | null = null;
    let stopReason: Error | null = null;
    let settled = false;
    const chunks: Buffer[] = [];
    let statusCode = 0;
    let headers: IncomingHttpHeaders = {};

    const finish = (err: unknown, answer?: Answer): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      x.signal?.removeEventListener('abort', onAbort);
      if (answer) resolve(answer);
      else reject(err);
    };
    const stop = (reason: Error): void => {
      stopReason = reason;
      if (controller && !controller.aborted) controller.abort(reason);
      finish(reason);
    };
    const onAbort = (): void => stop((x.signal?.reason as Error | undefined) ?? new Error('aborted'));
    const timer = x.timeoutMs === undefined ? undefined : setTimeout(() => stop(new ExchangeTimeout()), x.timeoutMs);
    if (x.signal?.aborted) { onAbort(); return; }
    x.signal?.addEventListener('abort', onAbort, { once: true });

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (stopReason) c.abort(stopReason);
      },
      onResponseStart(_c, code, h) {
        statusCode = code;
        headers = h;
      },
      onResponseData(_c, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        finish(null, { statusCode, headers, body: Buffer.concat(chunks) });
      },
      onResponseError(_c, err) {
        finish(stopReason ?? err);
      },
    };
    try {
      const phases = x.phaseTimeoutMs === undefined ? {} : { headersTimeout: x.phaseTimeoutMs, bodyTimeout: x.phaseTimeoutMs };
      dispatcher.dispatch({ origin: x.origin, path: x.path, method: x.method, headers: x.headers, body: x.body ?? null, ...phases }, handler);
    } catch (err) {
      finish(err);
    }
  });
}
