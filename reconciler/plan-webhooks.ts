import type { WebhookSpec } from '../schema/types.js';
import type { HubWebhook } from '../drivers/hub/types.js';
import type { WebhookRecord } from '../state/types.js';
import type { HeldDelete, UnmanagedWebhook, WebhookAction } from './types.js';
import { sameSecret } from './hash.js';
import { desiredView, normalForm, watchedKeys } from './webhook-normal-form.js';
import { changedSinceRecorded, diffWebhook } from './webhook-diff.js';

// Webhook half of the planner. Ownership is the state's name → id map: only
// owned ids are ever updated or deleted; an exact unowned match is adopted
// (a create that landed before a kill), everything else is left alone. An
// owned webhook's drift is healed, but one that no longer looks as the state
// recorded it is deleted only with `force` (else it is held, and reported).

export interface WebhookPlan {
  actions: WebhookAction[];
  unmanaged: UnmanagedWebhook[];
  held: HeldDelete[];
}

export function planWebhooks(
  desired: Record<string, WebhookSpec>,
  hooks: HubWebhook[],
  owned: Record<string, WebhookRecord>,
  force = false,
): WebhookPlan {
  const ownedIds = new Set<string>();
  for (const name in owned) ownedIds.add((owned[name] as WebhookRecord).id);
  // Only owned ids are ever looked up; with no state (a first plan) there are none.
  const byId = new Map<string, HubWebhook>();
  if (ownedIds.size > 0) for (const h of hooks) if (ownedIds.has(h.id)) byId.set(h.id, h);
  const first = firstOwners(owned);
  const adopter = newAdopter(hooks, ownedIds);
  const actions: WebhookAction[] = [];
  for (const name of Object.keys(desired)) {
    const spec = desired[name] as WebhookSpec;
    // A first plan owns nothing: no lookup per webhook.
    const rec = ownedIds.size > 0 && Object.prototype.hasOwnProperty.call(owned, name) ? owned[name] : undefined;
    const hook = rec && first.get(rec.id) === name ? byId.get(rec.id) : undefined;
    if (rec && hook) {
      for (const a of diffWebhook(name, spec, hook, rec)) actions.push(a);
      continue;
    }
    const match = adopter.claim(spec);
    if (match >= 0) {
      adopt(actions, name, spec, hooks[match] as HubWebhook, rec);
    } else {
      actions.push(create(name, spec, rec));
    }
  }
  const held: HeldDelete[] = [];
  for (const [name, rec] of Object.entries(owned)) {
    const hook = byId.get(rec.id);
    if (name in desired || !hook || first.get(rec.id) !== name) continue;
    const address = `webhooks.${name}`;
    const changed = changedSinceRecorded(hook, rec);
    if (changed !== null && !force) held.push({ address, name, id: rec.id, reason: changed });
    else actions.push({ type: 'delete', address, name, id: rec.id, reason: changed === null ? GONE : `${GONE}; ${changed}: --force` });
  }
  const unmanaged: UnmanagedWebhook[] = [];
  for (let i = 0; i < hooks.length; i++) {
    const h = hooks[i] as HubWebhook;
    if (adopter.claimed[i] !== 1 && !ownedIds.has(h.id)) unmanaged.push({ id: h.id, url: h.url ?? null, watched: watchedKeys(h.watched) });
  }
  return { actions, unmanaged, held };
}

const GONE = 'no longer in robot.yaml';

/** A damaged state may give one id to two names: the first one owns it. */
function firstOwners(owned: Record<string, WebhookRecord>): Map<string, string> {
  const first = new Map<string, string>();
  for (const [name, rec] of Object.entries(owned)) if (!first.has(rec.id)) first.set(rec.id, name);
  return first;
}

function create(name: string, spec: WebhookSpec, rec: WebhookRecord | undefined): WebhookAction {
  return {
    type: 'create',
    address: `webhooks.${name}`,
    name,
    desired: desiredView(spec, normalForm(spec)),
    reason: rec ? `webhook ${rec.id} recorded in the state no longer exists on the hub` : 'not on the hub yet',
  };
}

const ADOPT_REASON = 'an identical webhook is on the hub, not yet owned by this file';

function adopt(out: WebhookAction[], name: string, spec: WebhookSpec, hook: HubWebhook, rec: WebhookRecord | undefined): void {
  const address = `webhooks.${name}`;
  const reason = rec ? `${ADOPT_REASON}; the recorded webhook ${rec.id} is gone` : ADOPT_REASON;
  out.push({ type: 'adopt', address, name, id: hook.id, reason });
  if (spec.enabled === hook.disabled) {
    out.push({ type: spec.enabled ? 'enable' : 'disable', address, name, id: hook.id, reason: spec.enabled ? 'disabled on the hub' : 'enabled on the hub' });
  }
}

// Adoption looks for an unowned hub webhook equal to the spec in everything
// but enabled and the job id (which the hub may not echo). The index buckets
// them by target only (the URL, or a job webhook's watched items): a cheap
// key, and the rest is compared within the bucket, usually of one. A key of
// every compared field cost more to build than all the comparisons it saved.
// Hub webhooks are known by their position in the hub's list: a bucket of one
// is that number, not an array, and a claimed one is a flag, not a set of
// ids (50,000 of each when a fresh state adopts a large account).

interface Adopter {
  /** Claims the hub webhook the spec adopts and gives its position, or -1. */
  claim(spec: WebhookSpec): number;
  /** 1 at the position of each hub webhook a spec has adopted. */
  readonly claimed: Uint8Array;
}

// A hub lists webhooks in the order they were made, and a file that made them
// lists them in the same order: the specs are first tried against the hub's
// list in order, with no index. While every one matches, the hub webhooks
// before the next position are all claimed, so the next one is exactly what
// the index would give (the first unclaimed match in the list). At the first
// spec that does not match there, the index is built and used from then on.
function newAdopter(hooks: HubWebhook[], ownedIds: Set<string>): Adopter {
  const claimed = new Uint8Array(hooks.length);
  let next = 0;
  let index: Map<string, number | number[]> | null = null;
  const claim = (spec: WebhookSpec): number => {
    if (index === null && next < hooks.length) {
      const h = hooks[next] as HubWebhook;
      if (!(ownedIds.size > 0 && ownedIds.has(h.id)) && adoptable(spec, h, claimed, next)) {
        claimed[next] = 1;
        return next++;
      }
    }
    index ??= targetIndex(hooks, ownedIds);
    const found = findAdoptable(spec, hooks, index, claimed);
    if (found >= 0) claimed[found] = 1;
    return found;
  };
  return { claim, claimed };
}

function targetIndex(hooks: HubWebhook[], ownedIds: Set<string>): Map<string, number | number[]> {
  const byTarget = new Map<string, number | number[]>();
  for (let i = 0; i < hooks.length; i++) {
    const h = hooks[i] as HubWebhook;
    if (ownedIds.size > 0 && ownedIds.has(h.id)) continue;
    const key = targetKey(h.url ?? null, h.url ? undefined : watchedKeys(h.watched));
    const bucket = byTarget.get(key);
    if (bucket === undefined) byTarget.set(key, i);
    else if (typeof bucket === 'number') byTarget.set(key, [bucket, i]);
    else bucket.push(i);
  }
  return byTarget;
}

// A URL never starts with a line feed, so the two kinds of key cannot meet.
function targetKey(url: string | null, watched: string[] | undefined): string {
  return url || `\n${(watched ?? []).join('\n')}`;
}

/** The position of an unowned, unclaimed hub webhook equal to the spec in everything but enabled (the hub creates enabled), or -1. */
function findAdoptable(spec: WebhookSpec, hooks: HubWebhook[], byTarget: Map<string, number | number[]>, claimed: Uint8Array): number {
  if (byTarget.size === 0) return -1;
  const bucket = byTarget.get(targetKey(spec.url, spec.url ? undefined : watchedKeys(spec.watched)));
  if (bucket === undefined) return -1;
  if (typeof bucket === 'number') return adoptable(spec, hooks[bucket] as HubWebhook, claimed, bucket) ? bucket : -1;
  for (const i of bucket) if (adoptable(spec, hooks[i] as HubWebhook, claimed, i)) return i;
  return -1;
}

function adoptable(spec: WebhookSpec, h: HubWebhook, claimed: Uint8Array, i: number): boolean {
  if (claimed[i] === 1 || (h.jobSourceId !== undefined && h.jobSourceId !== spec.jobId)) return false;
  if ((h.url ?? null) !== spec.url || !sameSecret(h.secret, spec.secret)) return false;
  if (echoedAsWritten(h, spec)) return true;
  const observed = normalForm(h);
  const form = normalForm(spec);
  return sameList(observed.watched, form.watched) && sameList(observed.domains, form.domains);
}

/**
 * The hub usually answers with the watched items and domains as they were
 * created from this spec: the same lists in the same order have the same
 * normal form, so they are compared item by item, with no normal form (two
 * lists and a string per item) made on either side for each of 50,000
 * candidates. False only means "compare the normal forms".
 */
function echoedAsWritten(h: HubWebhook, spec: WebhookSpec): boolean {
  if (h.watched.length !== spec.watched.length || !sameList(h.domains, spec.domains)) return false;
  for (let i = 0; i < h.watched.length; i++) {
    const a = h.watched[i] as HubWebhook['watched'][number];
    const b = spec.watched[i] as WebhookSpec['watched'][number];
    if (a.type !== b.type || a.name !== b.name) return false;
  }
  return true;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
