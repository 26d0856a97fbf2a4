import { WATCHED_TYPES, type WatchedItem, type WatchedType, type WebhookDomain } from '../../lib/wire/hub.js';
import { badRequest } from './errors.js';

// Validation of create/update bodies (spec §1). `null` is treated as absent,
// because clients before huggingface_hub 1.6 send `null` for unset fields.

/**
 * The Hub publishes no caps; these keep one webhook's record and each
 * delivery's matching small (README: "Limits"). 100 watched items covers a
 * user, their orgs and dozens of repos; 256 characters is four times a
 * 64-hex-digit secret.
 */
export const MAX_WATCHED = 100;
export const MAX_SECRET_LENGTH = 256;

export interface WebhookChanges {
  url?: string;
  jobSourceId?: string;
  /** undefined = unchanged (absent, null, or `[]` on update). */
  watched?: WatchedItem[];
  domains?: WebhookDomain[];
  /** null clears the secret (sent as ""). */
  secret?: string | null;
}

type Body = Record<string, unknown>;

function asBody(raw: unknown): Body {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('Request body must be a JSON object');
  return raw as Body;
}

function present(body: Body, key: string): boolean {
  return body[key] !== undefined && body[key] !== null;
}

export function parseCreate(raw: unknown): WebhookChanges & { watched: WatchedItem[] } {
  const body = asBody(raw);
  const out = parseCommon(body);
  if (out.url === undefined && out.jobSourceId === undefined) throw badRequest('Missing `url` or `jobSourceId`: set one of them');
  if (!out.watched || out.watched.length === 0) throw badRequest('`watched` must list at least one item ({type, name})');
  return { ...out, watched: out.watched };
}

export function parseUpdate(raw: unknown): WebhookChanges {
  return parseCommon(asBody(raw));
}

function parseCommon(body: Body): WebhookChanges {
  const out: WebhookChanges = {};
  if (present(body, 'url') && present(body, 'jobSourceId')) throw badRequest('Set `url` or `jobSourceId` but not both');
  if (present(body, 'url')) out.url = parseUrl(body.url);
  if (present(body, 'jobSourceId')) out.jobSourceId = parseJobId(body.jobSourceId);
  if (present(body, 'watched')) {
    const watched = parseWatched(body.watched);
    if (watched.length > 0) out.watched = watched;
  }
  if (present(body, 'domains')) out.domains = parseDomains(body.domains);
  if (present(body, 'secret')) out.secret = parseSecret(body.secret);
  return out;
}

function parseUrl(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw badRequest('`url` must be a non-empty string');
  let url: URL;
  try { url = new URL(value); } catch { throw badRequest(`\`url\` is not a valid URL: ${value}`); }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('`url` must use http or https');
  return value;
}

function parseJobId(value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{1,100}$/.test(value)) {
    throw badRequest('`jobSourceId` must be a job id (letters, digits, - and _)');
  }
  return value;
}

export function parseWatched(value: unknown): WatchedItem[] {
  if (!Array.isArray(value)) throw badRequest('`watched` must be an array of {type, name}');
  if (value.length > MAX_WATCHED) throw badRequest(`\`watched\` lists ${value.length} items: a webhook watches at most ${MAX_WATCHED} (the embedded hub's limit)`);
  const seen = new Set<string>();
  const out: WatchedItem[] = [];
  value.forEach((item: unknown, i) => {
    if (typeof item !== 'object' || item === null) throw badRequest(`watched[${i}] must be an object {type, name}`);
    const { type, name } = item as Record<string, unknown>;
    if (typeof type !== 'string' || !(WATCHED_TYPES as readonly string[]).includes(type)) {
      throw badRequest(`watched[${i}].type must be one of ${[...WATCHED_TYPES].sort().join(', ')}; got ${JSON.stringify(type)}`);
    }
    if (typeof name !== 'string' || name.trim() === '') throw badRequest(`watched[${i}].name must be a non-empty string`);
    const key = `${type}:${name}`;
    if (!seen.has(key)) out.push({ type: type as WatchedType, name });
    seen.add(key);
  });
  return out;
}

function parseDomains(value: unknown): WebhookDomain[] {
  if (!Array.isArray(value)) throw badRequest('`domains` must be an array');
  const out: WebhookDomain[] = [];
  for (const d of value) {
    // The official CLI sends the plural `discussions` (constants.WEBHOOK_DOMAIN_T).
    const norm = d === 'discussions' ? 'discussion' : d;
    if (norm !== 'repo' && norm !== 'discussion') {
      throw badRequest(`Unknown domain ${JSON.stringify(d)}: domains are "repo" and "discussion"`);
    }
    if (!out.includes(norm)) out.push(norm);
  }
  return out;
}

function parseSecret(value: unknown): string | null {
  if (typeof value !== 'string') throw badRequest('`secret` must be a string');
  if (value.length > MAX_SECRET_LENGTH) throw badRequest(`\`secret\` is ${value.length} characters long: at most ${MAX_SECRET_LENGTH} (the embedded hub's limit)`);
  if (!/^[\x20-\x7e]*$/.test(value)) throw badRequest('`secret` must contain only printable ASCII characters');
  return value === '' ? null : value;
}
