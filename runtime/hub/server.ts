import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { RepoType } from '../../lib/wire/hub.js';
import { packagePath } from '../../lib/paths.js';
import { makeOrgs, makeUsers, type HubContext } from './context.js';
import { createHubServer, type HubStats } from './fastify-server.js';
import { Deliverer } from './deliveries.js';
import { HubStore } from './store.js';
import { createRepo, findRepo, namespaceOf } from './repos.js';
import { commitFiles } from './commits.js';
import { GitRepos } from './git/git-repos.js';
import { LfsStore } from './lfs/store.js';
import { migrateV1 } from './git/migrate-v1.js';
import type { DeliveryAttempt, HubData, HubUser, JobRun } from './types.js';

export type { HubStats } from './fastify-server.js';

/** Used when no user is given: a local emulator account, documented in `robotctl hub --help`. */
export const DEFAULT_HUB_USER = { name: 'demo', token: 'hf_demo_local_token' } as const;

/** The port `robotctl hub` and `robotctl up` serve it on unless told otherwise: URLs and git remotes stay the same across restarts. */
export const EMBEDDED_HUB_PORT = 7870;

export interface HubOptions {
  host?: string;
  port?: number;
  dataDir?: string | null;
  /** `fullname` is what whoami and the pages show (default: the name). */
  users?: { name: string; token: string; fullname?: string }[];
  /** Organisations and their members (user names); whoami lists them, and only members create repos there. */
  orgs?: { name: string; fullname?: string; members: string[] }[];
  jobCommand?: string | null;
  log?: (line: string) => void;
  /** Per delivery attempt (default 10 s). */
  deliveryTimeoutMs?: number;
  /** First retry delay; doubles per attempt (default 1 s). */
  retryBaseMs?: number;
  /** Attempts per delivery, first included (default 4). */
  maxAttempts?: number;
  /** Triggers per webhook per 24 h (default 1,000, the hub's documented limit). */
  triggersPerDay?: number;
  /** Host names besides localhost and this machine's own that requests may name (`--allowed-host`, lib/allowed-host.ts). */
  allowedHosts?: string[];
}

export interface RunningHub {
  url: string;
  port: number;
  close(): Promise<void>;
  stats(): HubStats;
  resetStats(): void;
  /** Resolves when every pending delivery, retry and job has finished. */
  idle(): Promise<void>;
  activity(webhookId: string): DeliveryAttempt[];
  jobRuns(): JobRun[];
  /** Direct read access to the records (do not mutate). */
  data(): HubData;
  /** In-process helpers (same code path as the HTTP routes, events included). */
  createRepo(user: string, type: RepoType, repoId: string, opts?: { private?: boolean; sdk?: string }): Promise<{ sha: string }>;
  commit(user: string, type: RepoType, repoId: string, files: Record<string, string | Buffer | null>, summary?: string): Promise<{ commitOid: string }>;
}

interface Built {
  fastify: FastifyInstance;
  ctx: HubContext;
  stats: HubStats;
}

function hubVersion(): string {
  try {
    return (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0';
  }
}

async function build(opts: HubOptions): Promise<Built> {
  const store = await HubStore.open(opts.dataDir ?? null);
  const git = await GitRepos.open(opts.dataDir ?? null);
  await migrateV1(store, git);
  for (const r of store.data.repos) await git.adoptLegacyDir(r.type, r.repoId);
  const users: HubUser[] = makeUsers(opts.users && opts.users.length > 0 ? opts.users : [DEFAULT_HUB_USER], opts.orgs ?? []);
  const orgs = makeOrgs(opts.orgs ?? []);
  for (const o of orgs) {
    if (users.some((u) => u.name === o.name)) throw new Error(`organisation '${o.name}' has the name of a user`);
    const unknown = o.members.filter((m) => !users.some((u) => u.name === m));
    if (unknown.length > 0) throw new Error(`organisation '${o.name}' names unknown member(s): ${unknown.join(', ')}`);
  }
  const log = opts.log ?? (() => {});
  const ctx = { store, git, lfs: new LfsStore(git), users, orgs, jobCommand: opts.jobCommand ?? null, log, baseUrl: 'http://127.0.0.1' } as HubContext;
  ctx.deliverer = new Deliverer({
    store, log, baseUrl: () => ctx.baseUrl, jobCommand: ctx.jobCommand,
    ownersOf: (repoId, creator) => new Set([namespaceOf(repoId), creator]),
    timeoutMs: opts.deliveryTimeoutMs ?? 10_000, retryBaseMs: opts.retryBaseMs ?? 1000,
    maxAttempts: opts.maxAttempts ?? 4, triggersPerDay: opts.triggersPerDay ?? 1000,
    userAgent: `robotctl-hub/${hubVersion()}`,
  });
  const stats: HubStats = { requests: 0, writes: 0, byRoute: {} };
  const fastify = createHubServer(ctx, stats, opts.allowedHosts);
  fastify.addHook('onClose', async () => {
    await ctx.deliverer.close();
    await store.save();
    await git.close();
  });
  return { fastify, ctx, stats };
}

/** The fastify instance without listening: tests can `inject()` into it. */
export async function buildHub(opts: HubOptions = {}): Promise<FastifyInstance> {
  return (await build(opts)).fastify;
}

export async function startHub(opts: HubOptions = {}): Promise<RunningHub> {
  const { fastify, ctx, stats } = await build(opts);
  const host = opts.host ?? '127.0.0.1';
  await fastify.listen({ host, port: opts.port ?? 0 });
  const addr = fastify.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : (opts.port ?? 0);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  ctx.baseUrl = url;
  const userNamed = (name: string): HubUser => {
    const u = ctx.users.find((x) => x.name === name);
    if (!u) throw new Error(`no hub user '${name}'`);
    return u;
  };
  let closing: Promise<void> | null = null;
  return {
    url, port,
    close: () => (closing ??= fastify.close()),
    stats: () => ({ requests: stats.requests, writes: stats.writes, byRoute: { ...stats.byRoute } }),
    resetStats: () => { stats.requests = 0; stats.writes = 0; stats.byRoute = {}; },
    idle: () => ctx.deliverer.idle(),
    activity: (id) => ctx.store.data.activity[id] ?? [],
    jobRuns: () => ctx.store.data.jobRuns,
    data: () => ctx.store.data,
    createRepo: async (user, type, repoId, o = {}) => {
      const repo = await createRepo(ctx, userNamed(user), type, repoId, { visibility: o.private === true ? 'private' : 'public', sdk: o.sdk ?? null });
      return { sha: repo.headSha ?? '' };
    },
    commit: async (user, type, repoId, files, summary = 'Update files') => {
      const repo = findRepo(ctx, type, repoId);
      if (!repo) throw new Error(`no ${type} repo ${repoId}`);
      const ops = Object.entries(files).map(([path, c]) =>
        c === null ? { op: 'delete' as const, path } : { op: 'add' as const, path, content: Buffer.isBuffer(c) ? c : Buffer.from(c) });
      const commit = await commitFiles(ctx, userNamed(user), repo, { ops, summary, description: '', ref: 'refs/heads/main', parentCommit: null });
      return { commitOid: commit.oid };
    },
  };
}
