import { type WebhookSpec } from '../schema/types.js';
import { WEBHOOK_DOMAINS, type WatchedItem, type WebhookDomain } from '../lib/wire/hub.js';
import type { HubWebhook } from '../drivers/hub/types.js';
import type { WebhookView } from './types.js';

// One normal form for desired and observed webhooks, so that comparing them
// is plain equality: order of watched items and domains never matters.

export function watchedKeys(items: WatchedItem[]): string[] {
  const keys = items.map((w) => `${w.type}:${w.name}`).sort();
  return keys.filter((k, i) => i === 0 || k !== keys[i - 1]);
}

/** Sorted and unique; the full set means "all", like an empty list. */
export function normaliseDomains(domains: readonly WebhookDomain[]): WebhookDomain[] {
  // Values the hub may invent (e.g. `discussions`) are kept, so they show as drift.
  const unique = [...domains].sort().filter((d, i, all) => i === 0 || d !== all[i - 1]);
  const all = unique.length === WEBHOOK_DOMAINS.length && WEBHOOK_DOMAINS.every((d) => unique.includes(d));
  return all ? [] : unique;
}

export function desiredView(spec: WebhookSpec): WebhookView {
  return {
    url: spec.url,
    jobId: spec.jobId,
    watched: watchedKeys(spec.watched),
    domains: normaliseDomains(spec.domains),
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
