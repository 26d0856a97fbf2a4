// The one retry policy of robotctl: every hub and daemon driver call and the
// embedded hub's webhook deliveries go through retrying(). One layer retries,
// so one call costs at most `attempts` requests whatever fails.
//
// A failed attempt is one of four kinds. `not_sent` (connection refused) and
// `throttled` (429: the server says it did not process it) may be repeated for
// any request; `unknown` (5xx, reset, timeout, an answer lost after sending)
// may have been processed, so it is repeated only for requests that are safe
// to repeat; the caller of a create resolves it first (list, then adopt).
// `permanent` (4xx, bad answers) is never repeated.

import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as delay } from 'node:timers/promises';

export interface RetryPolicy {
  /** Requests per call, the first one included. */
  attempts: number;
  /** First backoff delay; doubled per attempt, with jitter. */
  baseMs: number;
  /** Cap for one wait, Retry-After included. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseMs: 250, maxDelayMs: 30_000 };

/** A driver's options as a policy: maxRetries counts the attempts after the first. */
export function policyOf(opts: { maxRetries?: number; retryBaseMs?: number; retry?: Partial<RetryPolicy> }): RetryPolicy {
  const policy = { ...DEFAULT_RETRY, ...opts.retry };
  if (opts.maxRetries !== undefined) policy.attempts = opts.maxRetries + 1;
  if (opts.retryBaseMs !== undefined) policy.baseMs = opts.retryBaseMs;
  return policy;
}

/** Time and chance, injectable so tests neither sleep nor depend on luck. */
export interface RetryClock {
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  random(): number;
  now(): number;
}

/** Resolves after `ms`, or as soon as `wake` settles when given; rejects with the signal's reason on abort. */
export async function sleep(ms: number, signal?: AbortSignal, wake?: Promise<unknown>): Promise<void> {
  const woken = new AbortController();
  const wakeUp = (): void => woken.abort();
  wake?.then(wakeUp, wakeUp);
  try {
    await delay(ms, undefined, { signal: signal ? AbortSignal.any([signal, woken.signal]) : woken.signal });
  } catch (err) {
    if (signal?.aborted) throw signal.reason as Error;
    if (!woken.signal.aborted) throw err;
  }
}

export const realClock: RetryClock = {
  sleep: (ms, signal) => sleep(ms, signal),
  random: Math.random,
  now: Date.now,
};

export type Failure =
  | { kind: 'not_sent' }
  | { kind: 'throttled'; retryAfterMs: number | null }
  | { kind: 'unknown' }
  | { kind: 'permanent' };

/** Socket errors proving the request never left. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** The first `code` on an error or its causes (undici nests them). */
export function errorCode(err: unknown): string | null {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * What a network error (no HTTP answer) means. Anything but a refused or
 * unresolvable connection (reset, EPIPE, timeouts, a closed socket) may have
 * reached the server.
 */
export function networkFailure(err: unknown): Failure {
  const code = errorCode(err);
  return code !== null && NOT_SENT_CODES.has(code) ? { kind: 'not_sent' } : { kind: 'unknown' };
}

/** What an HTTP answer means; null for a success. 408, 429 and 409-busy are "not processed". */
export function statusFailure(status: number, retryAfter: string | null, now: number = Date.now()): Failure | null {
  if (status < 400) return null;
  if (status === 429 || status === 408) return { kind: 'throttled', retryAfterMs: retryAfterMs(retryAfter, now) };
  if (status >= 500) return { kind: 'unknown' };
  return { kind: 'permanent' };
}

export function isTransient(f: Failure): boolean {
  return f.kind !== 'permanent';
}

/** Exponential backoff with jitter on the upper half: base·2^n·(0.5..1), capped. */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | null {
  if (!value) return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export interface RetryOptions {
  policy: RetryPolicy;
  clock?: RetryClock;
  /** Safe to repeat after an `unknown` outcome. */
  idempotent: boolean;
  /** Classifies a failed attempt. */
  judge: (err: unknown) => Failure;
  signal?: AbortSignal;
  /** Told before each wait (logs, tests); else whoever watchRetries() around the call. */
  onRetry?: (e: RetryEvent) => void;
}

export interface RetryEvent {
  /** The attempt about to be made, counted from 1 (2 for the first retry). */
  attempt: number;
  delayMs: number;
  failure: Failure;
  error: unknown;
}

const listeners = new AsyncLocalStorage<(e: RetryEvent) => void>();

/**
 * Run `work` telling `listener` about every retry made inside it, however
 * deep (the executor shows "retrying…" per action without the drivers
 * knowing about actions).
 */
export function watchRetries<T>(listener: (e: RetryEvent) => void, work: () => Promise<T>): Promise<T> {
  return listeners.run(listener, work);
}

/** Whether one more attempt is allowed after this failure. */
export function mayRetry(f: Failure, idempotent: boolean): boolean {
  return f.kind === 'not_sent' || f.kind === 'throttled' || (f.kind === 'unknown' && idempotent);
}

/** The wait before attempt `attempt + 1`: Retry-After when the server gave one, else backoff. */
export function delayFor(f: Failure, policy: RetryPolicy, attempt: number, random: () => number): number {
  const wait = f.kind === 'throttled' && f.retryAfterMs !== null ? f.retryAfterMs : backoffMs(policy, attempt, random);
  return Math.min(wait, policy.maxDelayMs);
}

/** Run `once` until it succeeds, a failure may not be retried, or the attempts are spent. */
export async function retrying<T>(opts: RetryOptions, once: (attempt: number) => Promise<T>): Promise<T> {
  const clock = opts.clock ?? realClock;
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(attempt);
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      const failure = opts.judge(err);
      if (attempt + 1 >= opts.policy.attempts || !mayRetry(failure, opts.idempotent)) throw err;
      const delayMs = delayFor(failure, opts.policy, attempt, clock.random);
      (opts.onRetry ?? listeners.getStore())?.({ attempt: attempt + 2, delayMs, failure, error: err });
      await clock.sleep(delayMs, opts.signal);
    }
  }
}
