import { createHash } from 'node:crypto';
import type { WebhookSpec } from '../schema/types.js';
import { normaliseDomains, watchedKeys } from './webhook-normal-form.js';

// Hashes are pure functions of data (no clock, no salt) so that a plan made
// twice from the same inputs is byte-identical.

/** JSON with object keys sorted at every level; undefined members dropped. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

// JSON.stringify does the (fast, native) string building; we only reorder keys.
function sortKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(sortKeys);
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length === 0) return obj;
  keys.sort();
  const out: Record<string, unknown> = {};
  for (const key of keys) if (obj[key] !== undefined) out[key] = sortKeys(obj[key]);
  return out;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * One-way hash of a webhook secret. The domain prefix keeps this hash from
 * colliding with any other sha256 we compute or the hub may expose.
 */
export function secretHash(secret: string): string {
  const known = memo.get(secret);
  if (known !== undefined) return known;
  const hash = `sha256:${sha256(`robotctl/webhook-secret/v1\0${secret}`)}`;
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(secret, hash);
  return hash;
}

// Thousands of webhooks usually share a handful of secrets. The clear values
// are in this process's memory anyway (the Config holds them); this small
// cache never leaves it.
const MEMO_MAX = 256;
const memo = new Map<string, string>();

export function optionalSecretHash(secret: string | null | undefined): string | null {
  return secret === null || secret === undefined || secret === '' ? null : secretHash(secret);
}

/**
 * Hash of the normalised spec (name excluded; secret only as its hash). The
 * fixed-order array keeps it cheap; changing its layout changes every hash
 * recorded in state files, so bump the `v1` tag if it ever must change.
 */
export function webhookSpecHash(spec: Omit<WebhookSpec, 'name'>): string {
  return sha256(JSON.stringify([
    'v1', spec.url, spec.jobId, watchedKeys(spec.watched), normaliseDomains(spec.domains), optionalSecretHash(spec.secret), spec.enabled,
  ]));
}
