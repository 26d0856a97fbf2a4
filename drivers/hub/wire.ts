import { WATCHED_TYPES, type WatchedItem, type WatchedType, type WebhookDomain } from '../../lib/wire/hub.js';
import { HubError } from './errors.js';
import type { HubWebhook, WebhookInput } from './types.js';

// Webhook objects and bodies on the wire (spec §1).

function bad(what: string): HubError {
  return new HubError(`Unexpected answer from the hub: ${what}`, { status: null, retriable: false });
}

function parseWatchedItem(v: unknown): WatchedItem {
  const o = v as { type?: unknown; name?: unknown } | null;
  if (!o || typeof o.type !== 'string' || typeof o.name !== 'string') throw bad('watched item without type/name');
  if (!(WATCHED_TYPES as readonly string[]).includes(o.type)) throw bad(`unknown watched type ${o.type}`);
  // The hub's own {type, name} is kept when it has nothing else: a list of
  // 50,000 webhooks is not copied item by item (nor an array of its keys made per item).
  if (twoKeys(o)) return o as WatchedItem;
  return { type: o.type as WatchedType, name: o.name };
}

/** Exactly two enumerable keys (type and name, checked before): for…in counts them without an array. */
function twoKeys(o: object): boolean {
  let n = 0;
  for (const _ in o) if (++n > 2) return false;
  return n === 2;
}

function parseDomain(v: unknown): WebhookDomain {
  // The hub may answer with the client's plural spelling.
  if (v === 'discussions' || v === 'discussion') return 'discussion';
  if (v === 'repo') return 'repo';
  throw bad(`unknown domain ${String(v)}`);
}

/** The hub's watched list, its own array when every item is kept as it is (parseWatchedItem). */
function watchedOf(list: unknown[]): WatchedItem[] {
  for (let i = 0; i < list.length; i++) {
    if (parseWatchedItem(list[i]) !== list[i]) return list.map(parseWatchedItem);
  }
  return list as WatchedItem[];
}

/** The hub's domains, its own array when already in our spelling. */
function domainsOf(list: unknown[]): WebhookDomain[] {
  for (let i = 0; i < list.length; i++) if (list[i] !== 'repo' && list[i] !== 'discussion') return list.map(parseDomain);
  return list as WebhookDomain[];
}

/** A webhook object from the hub; extra keys are dropped. */
export function parseWebhook(v: unknown): HubWebhook {
  const o = v as Record<string, unknown> | null;
  if (!o || typeof o !== 'object' || typeof o.id !== 'string') throw bad('webhook without id');
  if (!Array.isArray(o.watched)) throw bad(`webhook ${o.id} without watched list`);
  const job = o.job && typeof o.job === 'object' ? (o.job as Record<string, unknown>) : null;
  const hook: HubWebhook = {
    id: o.id,
    url: typeof o.url === 'string' ? o.url : null,
    job,
    watched: watchedOf(o.watched),
    domains: Array.isArray(o.domains) ? domainsOf(o.domains) : [],
    secret: typeof o.secret === 'string' ? o.secret : null,
    disabled: o.disabled === true,
  };
  if (typeof o.jobSourceId === 'string') hook.jobSourceId = o.jobSourceId;
  return hook;
}

export function unwrapWebhook(body: unknown): HubWebhook {
  const w = (body as { webhook?: unknown } | null)?.webhook;
  if (!w) throw bad('no "webhook" object');
  return parseWebhook(w);
}

export function parseWebhookList(body: unknown): HubWebhook[] {
  if (!Array.isArray(body)) throw bad('webhook list is not an array');
  return body.map(parseWebhook);
}

const watchedWire = (w: WatchedItem[]) => w.map((i) => ({ type: i.type, name: i.name }));

/** Create body in huggingface_hub ≥1.6 key order: watched, domains?, secret?, url | jobSourceId. */
export function createBody(input: WebhookInput): Record<string, unknown> {
  const body: Record<string, unknown> = { watched: watchedWire(input.watched) };
  if (input.domains !== undefined) body.domains = [...input.domains];
  if (input.secret !== undefined) body.secret = input.secret;
  if (input.url !== undefined) body.url = input.url;
  if (input.jobSourceId !== undefined) body.jobSourceId = input.jobSourceId;
  return body;
}

/** Update body: `watched` always sent (`[]` = unchanged), other keys only when changing. */
export function updateBody(input: Partial<WebhookInput> & { watched: WatchedItem[] }): Record<string, unknown> {
  const body: Record<string, unknown> = { watched: watchedWire(input.watched) };
  if (input.url !== undefined) body.url = input.url;
  if (input.jobSourceId !== undefined) body.jobSourceId = input.jobSourceId;
  if (input.domains !== undefined) body.domains = [...input.domains];
  if (input.secret !== undefined) body.secret = input.secret;
  return body;
}

const key = (w: WatchedItem[]) => w.map((i) => `${i.type}:${i.name}`).sort().join('\n');

/** The webhook a create with this input would have made (to adopt after an unknown outcome). */
export function matchesInput(hook: HubWebhook, input: WebhookInput): boolean {
  const sameTarget = input.url !== undefined ? hook.url === input.url : (hook.jobSourceId ?? null) === (input.jobSourceId ?? null) && hook.url === null;
  return sameTarget && key(hook.watched) === key(input.watched);
}
