import type { WebhookHandler, HandlerContext } from './types.js';
import type { WebhookPayload } from './payload.js';
import { errorMessage } from '../../lib/errors.js';

export type HandlerOutcome =
  | { ok: true; result: unknown; body: string; durationMs: number }
  | { ok: false; error: string; durationMs: number };

export type HandlerRun = { slow: false; outcome: HandlerOutcome } | { slow: true; finished: Promise<HandlerOutcome> };

/**
 * Run a handler; if it has not settled after slowMs, hand back the promise of
 * its outcome instead so the caller can answer 202 at once. A synchronous
 * handler gets its run back synchronously, with no promise and no timer (the
 * common fast path).
 */
export function runHandler(handler: WebhookHandler, payload: WebhookPayload, ctx: HandlerContext, slowMs: number): HandlerRun | Promise<HandlerRun> {
  const started = performance.now();
  let value: unknown;
  try {
    value = handler(payload, ctx);
  } catch (err) {
    return { slow: false, outcome: failure(err, started) };
  }
  if (!isThenable(value)) return { slow: false, outcome: success(value, started) };
  return raceSlow(value, started, slowMs);
}

async function raceSlow(value: PromiseLike<unknown>, started: number, slowMs: number): Promise<HandlerRun> {
  const finished = Promise.resolve(value).then((v) => success(v, started), (err: unknown) => failure(err, started));
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<'slow'>((resolve) => {
    timer = setTimeout(() => resolve('slow'), slowMs);
  });
  const first = await Promise.race([finished, slow]);
  clearTimeout(timer);
  return first === 'slow' ? { slow: true, finished } : { slow: false, outcome: first };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

// The handler's return value is the JSON answer: undefined → null; a value
// JSON cannot encode (cycle, BigInt) is a handler failure, not a crash.
function success(value: unknown, started: number): HandlerOutcome {
  try {
    const body = JSON.stringify(value === undefined ? null : value) ?? 'null';
    return { ok: true, result: value ?? null, body, durationMs: performance.now() - started };
  } catch (err) {
    return failure(new Error(`handler result is not JSON: ${errorMessage(err)}`), started);
  }
}

function failure(err: unknown, started: number): HandlerOutcome {
  return { ok: false, error: errorMessage(err), durationMs: performance.now() - started };
}
