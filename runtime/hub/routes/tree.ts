import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RepoType } from '../../../lib/wire/hub.js';
import { optionalUser, type HubContext } from '../context.js';
import { HubApiError } from '../errors.js';
import { readableRepo, resolveRevision, REPO_TYPES } from '../repos.js';
import { checkPath } from '../commits.js';
import type { CommitEntry, TreeEntry } from '../git/git-repos.js';
import type { StoredRepo } from '../types.js';

// list_repo_tree (GET …/tree/{rev}/{path}?recursive&expand) and get_paths_info
// (POST …/paths-info/{rev}, form fields `paths` and `expand`), read from git.

type Params = { owner: string; name: string; rev: string; '*'?: string };
type Req = FastifyRequest<{ Params: Params; Querystring: { recursive?: string; expand?: string } }>;

const truthy = (v: unknown): boolean => v === true || v === 'true' || v === 'True' || v === '1';

/**
 * The security block of an expanded file entry, every scan the client reads (`avScan`, `pickleImportScan`:
 * RepoFile reads both with []). The embedded hub scans nothing, so each says "unscanned", as the Hub's
 * staging instance does.
 */
export function securityFileStatus(): Record<string, unknown> {
  return {
    status: 'unscanned',
    avScan: { status: 'unscanned', version: null },
    pickleImportScan: { status: 'unscanned', pickleImports: [], version: null },
  };
}

function entryView(e: TreeEntry, last: CommitEntry | undefined): Record<string, unknown> {
  const view: Record<string, unknown> = { type: e.type, oid: e.oid, size: e.size, path: e.path };
  if (e.lfs) view.lfs = e.lfs;
  if (last) view.lastCommit = { id: last.id, title: last.title, date: last.date };
  if (last && e.type === 'file') view.securityFileStatus = securityFileStatus();
  return view;
}

async function views(ctx: HubContext, repo: StoredRepo, sha: string, entries: TreeEntry[], expand: boolean): Promise<Record<string, unknown>[]> {
  const last = expand ? await ctx.git.lastCommits(repo.type, repo.repoId, sha, entries.map((e) => e.path)) : new Map<string, CommitEntry>();
  return entries.map((e) => entryView(e, last.get(e.path)));
}

export function treeRoutes(fastify: FastifyInstance, ctx: HubContext): void {
  for (const type of REPO_TYPES) routesFor(fastify, ctx, type);
}

function routesFor(fastify: FastifyInstance, ctx: HubContext, type: RepoType): void {
  const base = `/api/${type}s/:owner/:name`;
  const tree = async (req: Req) => {
    const repo = readableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, optionalUser(ctx, req));
    const sha = await resolveRevision(ctx, repo, req.params.rev);
    const dir = (req.params['*'] ?? '').replace(/\/+$/, '');
    if (dir !== '') checkPath(dir);
    const all = await ctx.git.tree(type, repo.repoId, sha);
    if (dir !== '' && !all.some((e) => e.path === dir && e.type === 'directory')) {
      throw new HubApiError('HUB_ERR_ENTRY_NOT_FOUND', `Entry not found: ${dir} at ${req.params.rev}`);
    }
    const prefix = dir === '' ? '' : `${dir}/`;
    const recursive = truthy(req.query.recursive);
    const inside = all.filter((e) => e.path.startsWith(prefix) && (recursive || !e.path.slice(prefix.length).includes('/')));
    return views(ctx, repo, sha, inside, truthy(req.query.expand));
  };
  fastify.get(`${base}/tree/:rev`, tree);
  fastify.get(`${base}/tree/:rev/*`, tree);

  fastify.post(`${base}/paths-info/:rev`, async (req: FastifyRequest<{ Params: Params }>) => {
    const repo = readableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, optionalUser(ctx, req));
    const sha = await resolveRevision(ctx, repo, req.params.rev);
    const body = (req.body ?? {}) as { paths?: unknown; expand?: unknown };
    const paths = (Array.isArray(body.paths) ? body.paths : [body.paths]).filter((p): p is string => typeof p === 'string');
    const wanted = new Set(paths.map((p) => p.replace(/\/+$/, '')));
    const entries = (await ctx.git.tree(type, repo.repoId, sha)).filter((e) => wanted.has(e.path));
    return views(ctx, repo, sha, entries, truthy(body.expand));
  });
}
