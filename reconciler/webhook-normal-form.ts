import { type WebhookSpec } from '../schema/types.js';
import { WEBHOOK_DOMAINS, type WatchedItem, type WebhookDomain } from '../lib/wire/hub.js';
import type { HubWebhook } from '../drivers/hub/types.js';
import type { WebhookView } from './types.js';

// One normal form for desired and observed webhooks, so that comparing them
// is plain equality: order of watched items and domains never matters.
// These run once or more per webhook on every plan (50,000 in the scale
// benchmark), so they are loops that allocate only their result.

/** `type:name` of each item, sorted, duplicates dropped. */
export function watchedKeys(items: WatchedItem[]): string[] {
  const keys: string[] = [];
  for (const w of items) keys.push(`${w.type}:${w.name}`);
  if (keys.length < 2) return keys;
  // Two items is the usual case: compared in place, without a sort call.
  if (keys.length === 2) {
    const [a, b] = keys as [string, string];
    if (a === b) keys.length = 1;
    else if (a > b) { keys[0] = b; keys[1] = a; }
    return keys;
  }
  keys.sort();
  return withoutRepeats(keys);
}

/** Sorted and unique; the full set means "all", like an empty list. */
export function normaliseDomains(domains: readonly WebhookDomain[]): WebhookDomain[] {
  // Values the hub may invent (e.g. `discussions`) are kept, so they show as drift.
  if (domains.length === 0) return [];
  const unique = domains.length === 1 ? [domains[0] as WebhookDomain] : withoutRepeats([...domains].sort());
  const all = unique.length === WEBHOOK_DOMAINS.length && WEBHOOK_DOMAINS.every((d) => unique.includes(d));
  return all ? [] : unique;
}

/** A sorted array without its adjacent repeats, in place. */
function withoutRepeats<T>(sorted: T[]): T[] {
  let n = 1;
  for (let i = 1; i < sorted.length; i++) if (sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i] as T;
  sorted.length = n;
  return sorted;
}

/** A spec's watched items and domains in normal form, computed once and shared by its hash, its match key and its view. */
export interface NormalForm {
  watched: string[];
  domains: WebhookDomain[];
}

export function normalForm(spec: Pick<WebhookSpec, 'watched' | 'domains'>): NormalForm {
  return { watched: watchedKeys(spec.watched), domains: normaliseDomains(spec.domains) };
}

export function desiredView(spec: WebhookSpec, form: NormalForm = normalForm(spec)): WebhookView {
  return {
    url: spec.url,
    jobId: spec.jobId,
    watched: form.watched,
    domains: form.domains,
    hasSecret: Boolean(spec.secret),
    enabled: spec.enabled,
  };
}

/** The observed webhook as a spec (clear secret kept in memory for hashing only). */
export function observedSpec(hook: HubWebhook, jobIdFallback: string | null): Omit<WebhookSpec, 'name'> {
  return {
    url: hook.url ?? null,
    jobId: hook.jobSourceId === undefined ? jobIdFallback : hook.jobSourceId,
    watched: hook.watched,
    domains: hook.domains,
    secret: hook.secret || null,
    enabled: !hook.disabled,
  };
}
