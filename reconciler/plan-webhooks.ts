import type { WebhookSpec } from '../schema/types.js';
import type { WatchedItem, WebhookDomain } from '../lib/wire/hub.js';
import type { HubWebhook } from '../drivers/hub/types.js';
import type { WebhookRecord } from '../state/types.js';
import type { UnmanagedWebhook, WebhookAction } from './types.js';
import { webhookSpecHash } from './hash.js';
import { desiredView, normaliseDomains, watchedKeys } from './webhook-normal-form.js';
import { diffWebhook } from './webhook-diff.js';

// Webhook half of the planner. Ownership is the state's name → id map: only
// owned ids are ever updated or deleted; an exact unowned match is adopted
// (a create that landed before a kill), everything else is left alone.

export interface WebhookPlan {
  actions: WebhookAction[];
  unmanaged: UnmanagedWebhook[];
}

export function planWebhooks(
  desired: Record<string, WebhookSpec>,
  specHashes: Record<string, string>,
  hooks: HubWebhook[],
  owned: Record<string, WebhookRecord>,
): WebhookPlan {
  const byId = new Map(hooks.map((h) => [h.id, h]));
  const ownedIds = new Set(Object.values(owned).map((r) => r.id));
  const first = firstOwners(owned);
  const claimed = new Set<string>();
  let index: Map<string, HubWebhook[]> | null = null;
  const actions: WebhookAction[] = [];
  for (const [name, spec] of Object.entries(desired)) {
    const specHash = specHashes[name] ?? webhookSpecHash(spec);
    const rec = owned[name];
    const hook = rec && first.get(rec.id) === name ? byId.get(rec.id) : undefined;
    if (rec && hook) {
      actions.push(...diffWebhook(name, spec, specHash, hook, rec));
      continue;
    }
    index ??= adoptIndex(hooks, ownedIds);
    const match = findAdoptable(spec, index, claimed);
    if (match) {
      claimed.add(match.id);
      actions.push(...adopt(name, spec, specHash, match, rec));
    } else {
      actions.push(create(name, spec, specHash, rec));
    }
  }
  for (const [name, rec] of Object.entries(owned)) {
    if (name in desired || !byId.has(rec.id) || first.get(rec.id) !== name) continue;
    actions.push({ type: 'delete', address: `webhooks.${name}`, name, id: rec.id, reason: 'no longer in robot.yaml' });
  }
  const unmanaged = hooks
    .filter((h) => !ownedIds.has(h.id) && !claimed.has(h.id))
    .map((h) => ({ id: h.id, url: h.url ?? null, watched: watchedKeys(h.watched) }));
  return { actions, unmanaged };
}

/** A damaged state may give one id to two names: the first one owns it. */
function firstOwners(owned: Record<string, WebhookRecord>): Map<string, string> {
  const first = new Map<string, string>();
  for (const [name, rec] of Object.entries(owned)) if (!first.has(rec.id)) first.set(rec.id, name);
  return first;
}

function create(name: string, spec: WebhookSpec, specHash: string, rec: WebhookRecord | undefined): WebhookAction {
  return {
    type: 'create',
    address: `webhooks.${name}`,
    name,
    specHash,
    desired: desiredView(spec),
    reason: rec ? `webhook ${rec.id} recorded in the state no longer exists on the hub` : 'not on the hub yet',
  };
}

function adopt(name: string, spec: WebhookSpec, specHash: string, hook: HubWebhook, rec: WebhookRecord | undefined): WebhookAction[] {
  const address = `webhooks.${name}`;
  const why = rec ? `; the recorded webhook ${rec.id} is gone` : '';
  const out: WebhookAction[] = [
    { type: 'adopt', address, name, id: hook.id, specHash, reason: `an identical webhook is on the hub, not yet owned by this file${why}` },
  ];
  if (spec.enabled === hook.disabled) {
    out.push({ type: spec.enabled ? 'enable' : 'disable', address, name, id: hook.id, specHash, reason: spec.enabled ? 'disabled on the hub' : 'enabled on the hub' });
  }
  return out;
}

/** Unowned hub webhooks by everything adoption compares but the job id (which the hub may not echo). */
function adoptIndex(hooks: HubWebhook[], ownedIds: Set<string>): Map<string, HubWebhook[]> {
  const index = new Map<string, HubWebhook[]>();
  for (const h of hooks) {
    if (ownedIds.has(h.id)) continue;
    const key = matchKey(h.url ?? null, h.watched, h.domains, h.secret);
    const list = index.get(key);
    if (list) list.push(h);
    else index.set(key, [h]);
  }
  return index;
}

function matchKey(url: string | null, watched: WatchedItem[], domains: WebhookDomain[], secret: string | null): string {
  return JSON.stringify([url, watchedKeys(watched), normaliseDomains(domains), secret || null]);
}

/** An unowned hub webhook equal to the spec in everything but enabled (the hub creates enabled). */
function findAdoptable(spec: WebhookSpec, index: Map<string, HubWebhook[]>, claimed: Set<string>): HubWebhook | undefined {
  if (index.size === 0) return undefined;
  const candidates = index.get(matchKey(spec.url, spec.watched, spec.domains, spec.secret)) ?? [];
  return candidates.find((h) => !claimed.has(h.id) && (h.jobSourceId === undefined || h.jobSourceId === spec.jobId));
}
