import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HubApiError } from './errors.js';
import { stableId } from './ids.js';
import type { HubStore } from './store.js';
import type { HubOrg, HubUser } from './types.js';
import type { Deliverer } from './deliveries.js';
import type { GitRepos } from './git/git-repos.js';
import type { LfsStore } from './lfs/store.js';

/** Everything a route needs, built once per hub. */
export interface HubContext {
  store: HubStore;
  /** The repositories' content: one bare git repo each. */
  git: GitRepos;
  /** Each repo's LFS objects, kept inside its git repo. */
  lfs: LfsStore;
  users: HubUser[];
  /** Declared organisations (whoami's `orgs`; only their members create repos in them). */
  orgs: HubOrg[];
  deliverer: Deliverer;
  jobCommand: string | null;
  log: (line: string) => void;
  /** The hub's own URL (known after listen); used in payload URLs. */
  baseUrl: string;
}

export interface OrgOption { name: string; fullname?: string; members: string[] }

export function makeUsers(list: { name: string; token: string; fullname?: string }[], orgs: OrgOption[] = []): HubUser[] {
  return list.map((u) => ({
    name: u.name, fullname: u.fullname || u.name, token: u.token, id: stableId('user', u.name),
    orgs: orgs.filter((o) => o.members.includes(u.name)).map((o) => o.name),
  }));
}

export function makeOrgs(list: OrgOption[]): HubOrg[] {
  return list.map((o) => ({ name: o.name, fullname: o.fullname || o.name, members: o.members, id: stableId('org', o.name) }));
}

/** `Bearer <token>`, or git's `Basic base64(user:token)` (the password is the token, as on huggingface.co). */
export function tokenOf(header: string | undefined): string | null {
  if (typeof header !== 'string') return null;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return bearer[1] ?? null;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!basic?.[1]) return null;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && colon < decoded.length - 1 ? decoded.slice(colon + 1) : null;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

// Each user's token digest, made once rather than on every request (an
// apply's thousands of calls hashed every known token each time); kept with
// the token it was made from, so a user whose token changed is hashed again.
const userDigests = new WeakMap<HubUser, { token: string; digest: Buffer }>();

function userDigest(u: HubUser): Buffer {
  const known = userDigests.get(u);
  if (known?.token === u.token) return known.digest;
  const made = { token: u.token, digest: digest(u.token) };
  userDigests.set(u, made);
  return made.digest;
}

/** Constant time in the token's content: equal-length digests compared with timingSafeEqual. */
export function userByToken(users: HubUser[], token: string): HubUser | null {
  const probe = digest(token);
  let found: HubUser | null = null;
  for (const u of users) if (timingSafeEqual(probe, userDigest(u)) && !found) found = u;
  return found;
}

/** The caller, or null when no token was sent; an unknown token is a 401. */
export function optionalUser(ctx: HubContext, req: FastifyRequest): HubUser | null {
  const token = tokenOf(req.headers.authorization);
  if (token === null) return null;
  const user = userByToken(ctx.users, token);
  if (!user) throw new HubApiError('HUB_ERR_AUTH_INVALID', 'Invalid credentials in Authorization header');
  return user;
}

export function requireUser(ctx: HubContext, req: FastifyRequest): HubUser {
  const user = optionalUser(ctx, req);
  if (!user) throw new HubApiError('HUB_ERR_AUTH_MISSING', 'Authorization header is required: send `Authorization: Bearer <token>`');
  return user;
}

/** Owner id used in payloads: users have stable ids; other namespaces are orgs. */
export function namespaceId(ctx: HubContext, namespace: string): string {
  return ctx.users.find((u) => u.name === namespace)?.id ?? stableId('org', namespace);
}
