// Retry policy of the driver: what is transient, and how long to wait.

export interface RetryPolicy {
  maxRetries: number;
  baseMs: number;
  /** Cap for one wait, Retry-After included. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 4, baseMs: 250, maxDelayMs: 30_000 };

/** Undici/socket errors after which the request may or may not have reached the hub. */
const UNKNOWN_OUTCOME_CODES = new Set([
  'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT', 'UND_ERR_CLOSED',
]);
/** Errors that prove the request never left: safe to retry any call. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export function errorCode(err: unknown): string | null {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

export function isNotSent(err: unknown): boolean {
  const code = errorCode(err);
  return code !== null && NOT_SENT_CODES.has(code);
}

export function isTransientNetwork(err: unknown): boolean {
  const code = errorCode(err);
  return code !== null && (UNKNOWN_OUTCOME_CODES.has(code) || NOT_SENT_CODES.has(code));
}

/** Exponential backoff with full jitter on the upper half: base·2^n·(0.5..1). */
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
