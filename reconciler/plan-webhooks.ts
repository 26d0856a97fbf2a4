import type { WebhookSpec } from '../schema/types.js';
import type { HubWebhook } from '../drivers/hub/types.js';
import type { WebhookRecord } from '../state/types.js';
import type { UnmanagedWebhook, WebhookAction } from './types.js';
import { sameSecret, webhookSpecHash } from './hash.js';
import { desiredView, normalForm, watchedKeys, type NormalForm } from './webhook-normal-form.js';
import { diffWebhook } from './webhook-diff.js';

// Webhook half of the planner. Ownership is the state's name → id map: only
// owned ids are ever updated or deleted; an exact unowned match is adopted
// (a create that landed before a kill), everything else is left alone.

export interface WebhookPlan {
  actions: WebhookAction[];
  unmanaged: UnmanagedWebhook[];
  /**
   * Each desired webhook's spec hash in `Object.keys(desired)` order, for the
   * plan's desired digest (an array: a map of 50,000 names cost more than the
   * hashes); empty when `hashes` was false (the digest then makes its own).
   */
  specHashes: string[];
}

/** `hashes` false: a plan only to be printed (PlanOptions.display), each action's specHash ''. */
export function planWebhooks(desired: Record<string, WebhookSpec>, hooks: HubWebhook[], owned: Record<string, WebhookRecord>, hashes = true): WebhookPlan {
  const ownedIds = new Set<string>();
  for (const name in owned) ownedIds.add((owned[name] as WebhookRecord).id);
  // Only owned ids are ever looked up; with no state (a first plan) there are none.
  const byId = new Map<string, HubWebhook>();
  if (ownedIds.size > 0) for (const h of hooks) if (ownedIds.has(h.id)) byId.set(h.id, h);
  const first = firstOwners(owned);
  let index: AdoptIndex | null = null;
  const actions: WebhookAction[] = [];
  const specHashes: string[] = [];
  for (const name of Object.keys(desired)) {
    const spec = desired[name] as WebhookSpec;
    // The normal form is made once and shared by the hash, the adoption key
    // and the view; it is garbage after this turn unless a view keeps it.
    const form = normalForm(spec);
    const specHash = hashes ? webhookSpecHash(spec, form) : '';
    if (hashes) specHashes.push(specHash);
    // A first plan owns nothing: no lookup per webhook.
    const rec = ownedIds.size > 0 && Object.prototype.hasOwnProperty.call(owned, name) ? owned[name] : undefined;
    const hook = rec && first.get(rec.id) === name ? byId.get(rec.id) : undefined;
    if (rec && hook) {
      for (const a of diffWebhook(name, spec, specHash, hook, rec, form)) actions.push(a);
      continue;
    }
    index ??= adoptIndex(hooks, ownedIds);
    const match = findAdoptable(spec, form, hooks, index);
    if (match >= 0) {
      index.claimed[match] = 1;
      adopt(actions, name, spec, specHash, hooks[match] as HubWebhook, rec);
    } else {
      actions.push(create(name, spec, form, specHash, rec));
    }
  }
  for (const [name, rec] of Object.entries(owned)) {
    if (name in desired || !byId.has(rec.id) || first.get(rec.id) !== name) continue;
    actions.push({ type: 'delete', address: `webhooks.${name}`, name, id: rec.id, reason: 'no longer in robot.yaml' });
  }
  const unmanaged: UnmanagedWebhook[] = [];
  for (let i = 0; i < hooks.length; i++) {
    const h = hooks[i] as HubWebhook;
    if (index?.claimed[i] !== 1 && !ownedIds.has(h.id)) unmanaged.push({ id: h.id, url: h.url ?? null, watched: watchedKeys(h.watched) });
  }
  return { actions, unmanaged, specHashes };
}

/** A damaged state may give one id to two names: the first one owns it. */
function firstOwners(owned: Record<string, WebhookRecord>): Map<string, string> {
  const first = new Map<string, string>();
  for (const [name, rec] of Object.entries(owned)) if (!first.has(rec.id)) first.set(rec.id, name);
  return first;
}

function create(name: string, spec: WebhookSpec, form: NormalForm, specHash: string, rec: WebhookRecord | undefined): WebhookAction {
  return {
    type: 'create',
    address: `webhooks.${name}`,
    name,
    specHash,
    desired: desiredView(spec, form),
    reason: rec ? `webhook ${rec.id} recorded in the state no longer exists on the hub` : 'not on the hub yet',
  };
}

const ADOPT_REASON = 'an identical webhook is on the hub, not yet owned by this file';

function adopt(out: WebhookAction[], name: string, spec: WebhookSpec, specHash: string, hook: HubWebhook, rec: WebhookRecord | undefined): void {
  const address = `webhooks.${name}`;
  const reason = rec ? `${ADOPT_REASON}; the recorded webhook ${rec.id} is gone` : ADOPT_REASON;
  out.push({ type: 'adopt', address, name, id: hook.id, specHash, reason });
  if (spec.enabled === hook.disabled) {
    out.push({ type: spec.enabled ? 'enable' : 'disable', address, name, id: hook.id, specHash, reason: spec.enabled ? 'disabled on the hub' : 'enabled on the hub' });
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

interface AdoptIndex {
  byTarget: Map<string, number | number[]>;
  /** 1 at the position of each hub webhook a spec has adopted. */
  claimed: Uint8Array;
}

function adoptIndex(hooks: HubWebhook[], ownedIds: Set<string>): AdoptIndex {
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
  return { byTarget, claimed: new Uint8Array(hooks.length) };
}

// A URL never starts with a line feed, so the two kinds of key cannot meet.
function targetKey(url: string | null, watched: string[] | undefined): string {
  return url || `\n${(watched ?? []).join('\n')}`;
}

/** The position of an unowned, unclaimed hub webhook equal to the spec in everything but enabled (the hub creates enabled), or -1. */
function findAdoptable(spec: WebhookSpec, form: NormalForm, hooks: HubWebhook[], index: AdoptIndex): number {
  if (index.byTarget.size === 0) return -1;
  const bucket = index.byTarget.get(targetKey(spec.url, form.watched));
  if (bucket === undefined) return -1;
  if (typeof bucket === 'number') return adoptable(spec, form, hooks, index, bucket) ? bucket : -1;
  for (const i of bucket) if (adoptable(spec, form, hooks, index, i)) return i;
  return -1;
}

function adoptable(spec: WebhookSpec, form: NormalForm, hooks: HubWebhook[], index: AdoptIndex, i: number): boolean {
  const h = hooks[i] as HubWebhook;
  if (index.claimed[i] === 1 || (h.jobSourceId !== undefined && h.jobSourceId !== spec.jobId)) return false;
  if ((h.url ?? null) !== spec.url || !sameSecret(h.secret, spec.secret)) return false;
  if (inOrder(h, form)) return true;
  const observed = normalForm(h);
  return sameList(observed.watched, form.watched) && sameList(observed.domains, form.domains);
}

/**
 * The hub usually answers with the watched items and domains as they were
 * created, already in normal form: then they are compared item by item, with
 * no normal form (two lists and a string per item) made for each of 50,000
 * candidates. False only means "compare the normal forms".
 */
function inOrder(h: HubWebhook, form: NormalForm): boolean {
  if (h.watched.length !== form.watched.length || h.domains.length !== form.domains.length) return false;
  for (let i = 0; i < h.domains.length; i++) if (h.domains[i] !== form.domains[i]) return false;
  for (let i = 0; i < h.watched.length; i++) {
    const item = h.watched[i] as HubWebhook['watched'][number];
    const key = form.watched[i] as string;
    const t = item.type.length;
    if (key.length !== t + 1 + item.name.length || key.charCodeAt(t) !== 58 || !key.startsWith(item.type) || !key.endsWith(item.name)) return false;
  }
  return true;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
