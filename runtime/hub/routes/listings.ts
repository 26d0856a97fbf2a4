import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RepoType } from '../../../lib/wire/hub.js';
import { optionalUser, requireUser, type HubContext } from '../context.js';
import { badRequest } from '../errors.js';
import { canRead, canWrite, isReady, REPO_TYPES } from '../repos.js';
import { namespaceOf } from '../repo-events.js';
import { repoInfoView } from '../repo-info.js';
import type { StoredRepo } from '../types.js';

// Listings as huggingface_hub asks for them: list_models / list_datasets /
// list_spaces (GET /api/{models,datasets,spaces}?author&search&filter&sort&
// limit&full&expand) and list_user_repos (`hf repos list`: GET
// /api/settings/repositories). Pages follow the Link header (rel="next"), as
// the Hub's do and the client's paginate() reads them.

type Query = Record<string, string | string[] | undefined>;
type ListReq = FastifyRequest<{ Querystring: Query; Params: { org?: string } }>;

/** The Hub's largest page. */
export const MAX_PAGE = 1000;

/** The keys a listing item has without `full` or `expand` (the Hub's defaults, per type). */
const DEFAULT_KEYS: Record<RepoType, readonly string[]> = {
  model: ['_id', 'id', 'likes', 'trendingScore', 'private', 'downloads', 'tags', 'pipeline_tag', 'library_name', 'createdAt', 'modelId'],
  dataset: ['_id', 'id', 'author', 'disabled', 'gated', 'lastModified', 'likes', 'trendingScore', 'private', 'sha', 'downloads', 'tags', 'createdAt'],
  space: ['_id', 'id', 'likes', 'trendingScore', 'private', 'sdk', 'tags', 'createdAt'],
};

/** The properties `expand` may name (huggingface_hub's Expand*Property_T); the hub has values for most. */
const EXPANDABLE: Record<RepoType, readonly string[]> = {
  model: ['author', 'baseModels', 'cardData', 'childrenModelCount', 'config', 'createdAt', 'disabled', 'downloads', 'downloadsAllTime', 'evalResults', 'gated', 'gguf', 'inference', 'inferenceProviderMapping', 'lastModified', 'library_name', 'likes', 'mask_token', 'model-index', 'pipeline_tag', 'private', 'resourceGroup', 'safetensors', 'sha', 'siblings', 'spaces', 'tags', 'transformersInfo', 'trendingScore', 'usedStorage', 'widgetData'],
  dataset: ['author', 'cardData', 'citation', 'createdAt', 'description', 'disabled', 'downloads', 'downloadsAllTime', 'gated', 'lastModified', 'likes', 'mainSize', 'paperswithcode_id', 'private', 'resourceGroup', 'sha', 'siblings', 'tags', 'trendingScore', 'usedStorage'],
  space: ['author', 'cardData', 'createdAt', 'datasets', 'disabled', 'lastModified', 'likes', 'models', 'private', 'region', 'resourceGroup', 'runtime', 'sdk', 'sha', 'siblings', 'subdomain', 'tags', 'trendingScore', 'usedStorage'],
};

const SORT_KEYS = ['createdAt', 'lastModified', 'likes', 'downloads', 'trendingScore', 'id'] as const;

const many = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const one = (q: Query, key: string): string | undefined => many(q[key])[0];
const truthy = (v: string | undefined): boolean => v === 'true' || v === 'True' || v === '1';



function positiveInt(q: Query, key: string, max: number): number | null {
  const v = one(q, key);
  if (v === undefined) return null;
  if (!/^\d{1,9}$/.test(v) || Number(v) < 1) throw badRequest(`Invalid ${key} '${v}': a whole number from 1`);
  return Math.min(Number(v), max);
}

/** The opaque `cursor` of a next page: the offset, base64url (only the hub reads it back). */
function cursorOffset(q: Query): number {
  const c = one(q, 'cursor');
  if (c === undefined) return 0;
  const n = Number(Buffer.from(c, 'base64url').toString('utf8'));
  if (!Number.isInteger(n) || n < 0) throw badRequest(`Invalid cursor '${c}': use the Link header's next URL as it is`);
  return n;
}

/** One page of `items` with the Hub's `Link: <…>; rel="next"` when more follow. */
function page<T>(req: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply, items: T[], size: number): T[] {
  const start = cursorOffset(req.query);
  const out = items.slice(start, start + size);
  if (start + size < items.length) {
    const url = new URL(req.url, `${req.protocol}://${req.headers.host ?? 'localhost'}`);
    url.searchParams.set('cursor', Buffer.from(String(start + size)).toString('base64url'));
    reply.header('link', `<${url.toString()}>; rel="next"`);
  }
  return out;
}

function sortValue(view: Record<string, unknown>, key: string): string | number {
  const v = view[key];
  return typeof v === 'number' || typeof v === 'string' ? v : 0;
}

function pick(view: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['_id', 'id', ...keys]) if (view[k] !== undefined) out[k] = view[k];
  return out;
}

async function listRepos(ctx: HubContext, type: RepoType, req: ListReq, reply: FastifyReply): Promise<Record<string, unknown>[]> {
  const q = req.query;
  const user = optionalUser(ctx, req);
  const expand = many(q.expand ?? q['expand[]']);
  const unknown = expand.filter((e) => !EXPANDABLE[type].includes(e));
  if (unknown.length > 0) throw badRequest(`Invalid expand value(s) for ${type}s: ${unknown.join(', ')}; use ${EXPANDABLE[type].join(', ')}`);
  if (expand.length > 0 && truthy(one(q, 'full'))) throw badRequest('`expand` cannot be combined with `full`');
  const sort = one(q, 'sort') ?? 'createdAt';
  if (!(SORT_KEYS as readonly string[]).includes(sort)) throw badRequest(`Invalid sort '${sort}': use ${SORT_KEYS.join(', ')}`);
  const ascending = one(q, 'direction') === '1';
  const limit = positiveInt(q, 'limit', MAX_PAGE);
  const author = one(q, 'author');
  const searches = many(q.search).map((s) => s.toLowerCase());
  const filters = many(q.filter);
  const gated = one(q, 'gated');
  const pipelineTag = one(q, 'pipeline_tag');

  const repos = ctx.store.data.repos.filter((r) => r.type === type && (!author || namespaceOf(r.repoId).toLowerCase() === author.toLowerCase())
    && searches.every((s) => r.repoId.toLowerCase().includes(s)) && canRead(user, r));
  const views: Record<string, unknown>[] = [];
  for (const repo of repos) {
    const sha = await ctx.git.resolve(repo.type, repo.repoId, 'main');
    if (!sha) continue;
    const view = await repoInfoView(ctx, repo, sha, false);
    const tags = Array.isArray(view.tags) ? view.tags : [];
    // A filter names a tag, or the repo itself (the Hub also matches an id there).
    if (!filters.every((f) => tags.includes(f) || f === repo.repoId)) continue;
    if (gated !== undefined && (view.gated !== false) !== truthy(gated)) continue;
    if (pipelineTag !== undefined && view.pipeline_tag !== pipelineTag) continue;
    views.push(view);
  }
  views.sort((a, b) => {
    const x = sortValue(a, sort);
    const y = sortValue(b, sort);
    const order = x < y ? -1 : x > y ? 1 : String(a.id).localeCompare(String(b.id));
    return ascending ? order : -order;
  });
  const keys = expand.length > 0 ? expand : truthy(one(q, 'full')) ? Object.keys(views[0] ?? {}) : DEFAULT_KEYS[type];
  // cardData and config are asked for on their own by list_models(cardData=True, fetch_config=True).
  const extra = [truthy(one(q, 'cardData')) ? 'cardData' : '', truthy(one(q, 'config')) ? 'config' : ''].filter(Boolean);
  return page(req, reply, views.map((v) => pick(v, [...keys, ...extra])), limit ?? MAX_PAGE);
}

/** list_user_repos' item (RepoStorageInfo): id, type, updatedAt, visibility, storage, storagePercent. */
async function storageItems(ctx: HubContext, repos: StoredRepo[]): Promise<Record<string, unknown>[]> {
  const sized: { repo: StoredRepo; storage: number }[] = [];
  for (const repo of repos) {
    const sha = await ctx.git.resolve(repo.type, repo.repoId, 'main');
    const files = sha ? await ctx.git.tree(repo.type, repo.repoId, sha) : [];
    sized.push({ repo, storage: files.reduce((sum, f) => sum + f.size, 0) });
  }
  const total = sized.reduce((sum, s) => sum + s.storage, 0);
  return sized
    .sort((a, b) => b.repo.lastModified.localeCompare(a.repo.lastModified))
    .map(({ repo, storage }) => ({
      id: repo.repoId, type: repo.type, updatedAt: repo.lastModified, visibility: repo.private ? 'private' : 'public',
      storage, storagePercent: total > 0 ? Math.round((10_000 * storage) / total) / 100 : 0,
    }));
}

export function listingRoutes(fastify: FastifyInstance, ctx: HubContext): void {
  for (const type of REPO_TYPES) {
    fastify.get(`/api/${type}s`, (req: ListReq, reply) => listRepos(ctx, type, req, reply));
  }

  // The caller's own namespace; an organisation's lists the repos there the caller may write.
  fastify.get('/api/settings/repositories', async (req: ListReq, reply) => {
    const user = requireUser(ctx, req);
    const mine = ctx.store.data.repos.filter((r) => isReady(r) && namespaceOf(r.repoId) === user.name);
    return page(req, reply, await storageItems(ctx, mine), MAX_PAGE);
  });
  fastify.get('/api/organizations/:org/settings/repositories', async (req: ListReq, reply) => {
    const user = requireUser(ctx, req);
    const org = req.params.org ?? '';
    const theirs = ctx.store.data.repos.filter((r) => isReady(r) && namespaceOf(r.repoId) === org && canWrite(user, r));
    return page(req, reply, await storageItems(ctx, theirs), MAX_PAGE);
  });
}
