import { createHubClient } from '../drivers/hub/client.js';
import { resolveEndpoint } from '../drivers/hub/endpoint.js';
import { resolveToken } from '../drivers/hub/token.js';
import { UserError } from '../lib/errors.js';
import { hubStore } from './hub-store.js';
import { localStore } from './local-store.js';
import type { BackendSpec } from './spec.js';
import type { StateStore } from './store.js';
import { suggested, type CommandLine } from '../lib/command-line.js';

// Open the backend a spec names. The hub backend uses the same hub and token
// as the webhooks (HF_ENDPOINT / robot.yaml hub.endpoint, --token / HF_TOKEN /
// token file) through a client of its own, closed with the store.

export interface OpenContext {
  env: NodeJS.ProcessEnv;
  /** robot.yaml's hub.endpoint, when known. */
  hubEndpoint?: string | null;
  token?: string | null | undefined;
  /** How the user runs robotctl, for the login hint (lib/command-line.ts suggested). */
  command?: CommandLine;
}

export async function openStore(spec: BackendSpec, ctx: OpenContext): Promise<StateStore> {
  if (spec.backend === 'local') return localStore(spec.path);
  // Loaded only for this backend: the pg driver is a fixed cost every other command would pay.
  if (spec.backend === 'postgres') return (await import('./postgres-store.js')).postgresStore({ url: spec.url, env: ctx.env, table: spec.table, key: spec.key, leaseMs: spec.leaseMs });
  const token = resolveToken({ flag: ctx.token ?? null, env: ctx.env });
  if (!token) throw new UserError(`the state is in the hub dataset ${spec.repo}: log in first (HF_TOKEN, --token or ${suggested(ctx.command, 'auth login')})`);
  const hub = createHubClient({ endpoint: spec.endpoint ?? resolveEndpoint(ctx.env, ctx.hubEndpoint ?? null), token: token.token, userAgent: 'robotctl-state' });
  const store = hubStore({ hub, repo: spec.repo, path: spec.path, leaseMs: spec.leaseMs });
  return { ...store, close: async () => { await store.close(); await hub.close(); } };
}
