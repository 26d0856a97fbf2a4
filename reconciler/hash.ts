import { hash, scryptSync } from 'node:crypto';
import type { WebhookSpec } from '../schema/types.js';
import { normalForm, type NormalForm } from './webhook-normal-form.js';

// Hashes are pure functions of their inputs (a salt is an input, never drawn
// here) so that a plan made twice from the same inputs is byte-identical.

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
  // One-shot (Node ≥ 20.12): no Hash object per call; about 2.5× faster, and it runs once per webhook.
  return hash('sha256', text, 'hex');
}

/**
 * A webhook secret's fingerprint for a saved plan: scrypt (Node's default
 * cost, N=2^14, r=8: about 60 ms) keyed by the plan's random salt, so a weak
 * secret cannot be guessed offline at hash speed from a plan file and the
 * same secret gives unrelated values in two plans. Nothing else keeps a
 * derivative of a secret: the state keeps none at all, because the hub
 * returns each webhook's secret and drift is found by comparing it with
 * robot.yaml's (which a fresh CI runner can do too).
 */
export function secretFingerprint(secret: string, salt: string): string {
  const key = `${salt}\0${secret}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const fingerprint = `scrypt:${scryptSync(secret, `robotctl/webhook-secret/v2\0${salt}`, 32).toString('hex')}`;
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(key, fingerprint);
  return fingerprint;
}

// Thousands of webhooks usually share a handful of secrets, and the agent
// plans again and again with the same ones. The clear values are in this
// process's memory anyway (the Config holds them); this cache never leaves it.
const MEMO_MAX = 256;
const memo = new Map<string, string>();

/** The same secret in both places (absent and empty count as none). */
export function sameSecret(a: string | null | undefined, b: string | null | undefined): boolean {
  return (a || null) === (b || null);
}

/**
 * Hash of the normalised spec, recorded in the state (name excluded; of the
 * secret only whether there is one). The fixed-order array keeps it cheap;
 * changing its layout changes every hash recorded in state files, so bump
 * the tag if it ever must change. v1 hashed the secret in, unsalted: a weak
 * secret could be guessed offline from a shared state.
 */
export function webhookSpecHash(spec: Omit<WebhookSpec, 'name'>, form: NormalForm = normalForm(spec)): string {
  // The same text as JSON.stringify(['v2', url, jobId, watched, domains, hasSecret, enabled]),
  // written out: it runs once per webhook, and stringifying the array cost as much as the hash.
  const text = `["v2",${jsonString(spec.url)},${jsonString(spec.jobId)},${jsonList(form.watched)},${jsonList(form.domains)},${Boolean(spec.secret)},${spec.enabled}]`;
  return sha256(text);
}

function jsonString(s: string | null): string {
  return s === null ? 'null' : JSON.stringify(s);
}

function jsonList(items: readonly string[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) out += (i === 0 ? '' : ',') + JSON.stringify(items[i]);
  return `${out}]`;
}
