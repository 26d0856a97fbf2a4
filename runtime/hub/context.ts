import type { FastifyRequest } from 'fastify';
import { HubApiError } from './errors.js';
import { stableId } from './ids.js';
import type { HubStore } from './store.js';
import type { HubUser } from './types.js';
import type { Deliverer } from './deliveries.js';

/** Everything a route needs, built once per hub. */
export interface HubContext {
  store: HubStore;
  users: HubUser[];
  deliverer: Deliverer;
  jobCommand: string | null;
  log: (line: string) => void;
  /** The hub's own URL (known after listen); used in payload URLs. */
  baseUrl: string;
}

export function makeUsers(list: { name: string; token: string }[]): HubUser[] {
  return list.map((u) => ({ name: u.name, token: u.token, id: stableId('user', u.name) }));
}

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1] ?? null;
}

/** The caller, or null when no token was sent; an unknown token is a 401. */
export function optionalUser(ctx: HubContext, req: FastifyRequest): HubUser | null {
  const token = bearer(req);
  if (token === null) return null;
  const user = ctx.users.find((u) => u.token === token);
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
