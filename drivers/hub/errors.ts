// Errors from the hub: carry the hub's own message and whether a retry may
// help. The message is built from status, method, URL and the hub's text only,
// and is scrubbed of the token in case a server echoes it.

import { isTransient, type Failure } from '../../lib/retry.js';

export class HubError extends Error {
  /** HTTP status, or null when no answer came (reset, timeout, refused). */
  readonly status: number | null;
  /** The hub's explanation (X-Error-Message or body error), if any. */
  readonly hubMessage: string | null;
  /** Transient: 429, 5xx, reset, timeout. */
  readonly retriable: boolean;
  /** What the failed request means for a retry (lib/retry.ts). */
  readonly failure: Failure;
  /** X-Error-Code (RepoNotFound, EntryNotFound…) when the hub sends one. */
  readonly code: string | null;

  constructor(message: string, opts: { status: number | null; hubMessage?: string | null; retriable?: boolean; failure?: Failure; code?: string | null }) {
    super(message);
    this.name = 'HubError';
    this.status = opts.status;
    this.hubMessage = opts.hubMessage ?? null;
    this.failure = opts.failure ?? (opts.retriable ? { kind: 'unknown' } : { kind: 'permanent' });
    this.retriable = opts.retriable ?? isTransient(this.failure);
    this.code = opts.code ?? null;
  }
}

/** A request that may have been processed although no success came back (5xx, reset, lost answer). */
export function isUnknownOutcome(err: unknown): boolean {
  return err instanceof HubError && err.failure.kind === 'unknown';
}

/** 404, or the Hub's 401 RepoNotFound: asked without a token, a missing repo and a private one look alike. */
export function isNotFound(err: unknown): boolean {
  return err instanceof HubError && (err.status === 404 || (err.status === 401 && err.code === 'RepoNotFound'));
}

/** The hub's message from X-Error-Message and/or the body (error, error_description, errors[].message). */
export function hubMessageOf(header: string | null, body: string): string | null {
  const parts: string[] = [];
  if (header) parts.push(header);
  let parsed: unknown = null;
  try { parsed = JSON.parse(body); } catch { /* not JSON */ }
  if (parsed && typeof parsed === 'object') {
    const o = parsed as Record<string, unknown>;
    const add = (v: unknown) => { if (typeof v === 'string' && v && !parts.includes(v)) parts.push(v); };
    if (Array.isArray(o.error)) o.error.forEach(add); else add(o.error);
    add(o.error_description);
    if (Array.isArray(o.errors)) for (const e of o.errors) add((e as { message?: unknown } | null)?.message);
  }
  return parts.length > 0 ? parts.join('\n') : null;
}

export function scrub(text: string, token: string | null): string {
  return token ? text.split(token).join('***') : text;
}

/**
 * A commit refused because main moved since its parentCommit: the Hub answers
 * 412 ("The branch was updated since you opened this page…"); older embedded
 * hubs answered 400 naming parentCommit.
 */
export function isStaleParent(err: unknown): boolean {
  if (!(err instanceof HubError)) return false;
  if (err.status === 412) return true;
  return err.status === 400 && /parentCommit|branch was updated/i.test(err.hubMessage ?? '');
}
