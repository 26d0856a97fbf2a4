import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RepoType } from '../../../lib/wire/hub.js';
import { namespaceId, optionalUser, requireUser, type HubContext } from '../context.js';
import { badRequest, headerSafe, HubApiError } from '../errors.js';
import { repoWebUrl } from '../events.js';
import {
  checkRepoId, createRepo, deleteRepo, findRepo, parseRepoType, readableRepo, repoEvent,
  resolveRevision, writableRepo, REPO_TYPES, namespaceOf,
} from '../repos.js';
import { repoKey } from '../commits.js';
import { repoInfoView } from '../repo-info.js';

type RepoParams = { owner: string; name: string; rev?: string };
type RepoRequest = FastifyRequest<{ Params: RepoParams; Querystring: { blobs?: string } }>;

export function bodyOf(req: FastifyRequest): Record<string, unknown> {
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
    const url = repoWebUrl(ctx.baseUrl, type, repoId);
    try {
      const repo = await createRepo(ctx, user, type, repoId, { private: body.private === true, sdk });
      return { url, name: repo.repoId, id: repo.objectId };
    } catch (err) {
      // create_repo(exist_ok=True) reads `url` from the 409 body.
      if (!(err instanceof HubApiError) || err.statusCode !== 409) throw err;
      return reply.code(409).header('x-error-message', headerSafe(err.message)).send({ error: err.message, url });
    }
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
    const to = body.toRepo;
    checkRepoId(to, 'toRepo');
    if (findRepo(ctx, type, to)) throw new HubApiError('HUB_ERR_CONFLICT', `Repository ${to} already exists`);
    const event = repoEvent(ctx, repo, 'repo', 'move', { movedTo: { name: to, ownerId: namespaceId(ctx, namespaceOf(to)) } });
    await ctx.git.lock.run(repoKey(repo), () => ctx.git.move(type, repo.repoId, to));
    repo.repoId = to;
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
    const sha = await resolveRevision(ctx, repo, req.params.rev ?? 'main');
    return repoInfoView(ctx, repo, sha, req.query.blobs === 'true' || req.query.blobs === '1');
  };
  fastify.get(base, info);
  fastify.get(`${base}/revision/:rev`, info);

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
