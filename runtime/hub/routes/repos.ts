import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parse as parseYaml } from 'yaml';
import type { RepoType } from '../../../lib/wire/hub.js';
import { namespaceId, optionalUser, requireUser, type HubContext } from '../context.js';
import { badRequest } from '../errors.js';
import { repoWebUrl } from '../events.js';
import {
  checkRepoId, createRepo, deleteRepo, findRepo, parseRepoType, readableRepo, repoEvent,
  resolveRevision, writableRepo, REPO_TYPES, namespaceOf,
} from '../repos.js';
import type { StoredCommit, StoredRepo } from '../types.js';

type RepoParams = { owner: string; name: string; rev?: string };
type RepoRequest = FastifyRequest<{ Params: RepoParams }>;

function bodyOf(req: FastifyRequest): Record<string, unknown> {
  const b = req.body;
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw badRequest('Request body must be a JSON object');
  return b as Record<string, unknown>;
}

/** `{name, organization?}` as huggingface_hub sends it; `name` may also be a full id. */
function repoIdFrom(body: Record<string, unknown>, user: string): string {
  const { name, organization } = body;
  if (typeof name !== 'string' || name === '') throw badRequest('`name` is required');
  if (name.includes('/')) return name;
  return `${typeof organization === 'string' && organization ? organization : user}/${name}`;
}

export function repoRoutes(fastify: FastifyInstance, ctx: HubContext): void {
  fastify.post('/api/repos/create', async (req, reply) => {
    const user = requireUser(ctx, req);
    const body = bodyOf(req);
    const type = parseRepoType(body.type);
    const repoId = repoIdFrom(body, user.name);
    const sdk = typeof body.sdk === 'string' ? body.sdk : null;
    const repo = await createRepo(ctx, user, type, repoId, { private: body.private === true, sdk });
    reply.code(200);
    return { url: repoWebUrl(ctx.baseUrl, type, repo.repoId), name: repo.repoId, id: repo.objectId };
  });

  fastify.delete('/api/repos/delete', async (req) => {
    const user = requireUser(ctx, req);
    const body = bodyOf(req);
    await deleteRepo(ctx, user, parseRepoType(body.type), repoIdFrom(body, user.name));
    return {};
  });

  fastify.post('/api/repos/move', async (req) => {
    const user = requireUser(ctx, req);
    const body = bodyOf(req);
    const type = parseRepoType(body.type);
    if (typeof body.fromRepo !== 'string' || typeof body.toRepo !== 'string') throw badRequest('`fromRepo` and `toRepo` are required');
    const repo = writableRepo(ctx, type, body.fromRepo, user);
    checkRepoId(body.toRepo);
    if (findRepo(ctx, type, body.toRepo)) throw badRequest(`Repository ${body.toRepo} already exists`);
    const event = repoEvent(ctx, repo, 'repo', 'move', { movedTo: { name: body.toRepo, ownerId: namespaceId(ctx, namespaceOf(body.toRepo)) } });
    repo.repoId = body.toRepo;
    await ctx.store.save();
    ctx.deliverer.emit(event, repo.creator);
    return {};
  });

  for (const type of REPO_TYPES) routesFor(fastify, ctx, type);
}

function routesFor(fastify: FastifyInstance, ctx: HubContext, type: RepoType): void {
  const base = `/api/${type}s/:owner/:name`;
  const info = async (req: RepoRequest) => {
    const repo = readableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, optionalUser(ctx, req));
    const commit = resolveRevision(repo, req.params.rev ?? 'main');
    return repoInfoView(ctx, repo, commit);
  };
  fastify.get(base, info);
  fastify.get(`${base}/revision/:rev`, info);

  fastify.get(`${base}/tree/:rev`, async (req: RepoRequest) => {
    const repo = readableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, optionalUser(ctx, req));
    const commit = resolveRevision(repo, req.params.rev ?? 'main');
    const out = [];
    for (const [path, oid] of Object.entries(commit.tree)) {
      out.push({ type: 'file', oid, size: (await ctx.store.getBlob(oid)).length, path });
    }
    return out;
  });

  fastify.put(`${base}/settings`, async (req: RepoRequest) => {
    const user = requireUser(ctx, req);
    const repo = writableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, user);
    const body = bodyOf(req);
    const updatedConfig: Record<string, unknown> = {};
    if (typeof body.private === 'boolean' && body.private !== repo.private) {
      repo.private = body.private;
      updatedConfig.private = body.private;
    }
    await ctx.store.save();
    ctx.deliverer.emit(repoEvent(ctx, repo, 'repo.config', 'update', { updatedConfig }), repo.creator);
    return {};
  });
}

async function repoInfoView(ctx: HubContext, repo: StoredRepo, commit: StoredCommit): Promise<Record<string, unknown>> {
  const card = await cardData(ctx, commit);
  const view: Record<string, unknown> = {
    _id: repo.objectId, id: repo.repoId, author: namespaceOf(repo.repoId), sha: commit.oid,
    private: repo.private, disabled: false, gated: false,
    createdAt: repo.createdAt, lastModified: commit.date,
    tags: Array.isArray(card?.tags) ? card.tags.filter((t): t is string => typeof t === 'string') : [],
    siblings: Object.keys(commit.tree).sort().map((rfilename) => ({ rfilename })),
    downloads: 0, likes: 0,
  };
  if (card) view.cardData = card;
  if (repo.type === 'model') view.modelId = repo.repoId;
  if (repo.type === 'space') {
    view.sdk = typeof card?.sdk === 'string' ? card.sdk : repo.sdk;
    view.subdomain = repo.repoId.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    view.runtime = { stage: 'RUNNING', hardware: { current: 'cpu-basic', requested: 'cpu-basic' } };
  }
  return view;
}

/** README.md front matter, the hub's "card data" (tags, sdk…). */
async function cardData(ctx: HubContext, commit: StoredCommit): Promise<Record<string, unknown> | null> {
  const oid = commit.tree['README.md'];
  if (!oid) return null;
  const text = (await ctx.store.getBlob(oid)).toString('utf8');
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!m?.[1]) return null;
  try {
    const parsed: unknown = parseYaml(m[1]);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
