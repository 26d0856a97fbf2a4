import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RepoType } from '../../../lib/wire/hub.js';
import { namespaceId, optionalUser, requireUser, type HubContext } from '../context.js';
import { badRequest, headerSafe, HubApiError, STALE_PARENT_MESSAGE } from '../errors.js';
import { repoWebUrl } from '../events.js';
import {
  checkGatedAccess, checkNameFree, checkRepoId, createRepo, deleteRepo, findRepo, ownNamespace, parseRepoType, parseVisibility,
  readableRepo, repoEvent, resolveRevision, setVisibility, visibilityOf, writableRepo, REPO_TYPES, namespaceOf,
} from '../repos.js';
import { refsChanged, repoKey } from '../commits.js';
import { repoInfoView } from '../repo-info.js';
import type { StoredRepo } from '../types.js';

type RepoParams = { owner: string; name: string; rev?: string; '*'?: string };
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
    const visibility = parseVisibility(body, type) ?? 'public';
    try {
      const repo = await createRepo(ctx, user, type, repoId, { visibility, sdk });
      return { url: repoWebUrl(ctx.baseUrl, type, repo.repoId), name: repo.repoId, id: repo.objectId };
    } catch (err) {
      // create_repo(exist_ok=True) reads `url` from the 409 body: the existing repo's.
      if (!(err instanceof HubApiError) || err.statusCode !== 409) throw err;
      const existing = findRepo(ctx, type, repoId);
      const existingUrl = existing ? repoWebUrl(ctx.baseUrl, type, existing.repoId) : url;
      return reply.code(409).header('x-error-message', headerSafe(err.message)).send({ error: err.message, url: existingUrl });
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
    checkRepoId(body.toRepo, 'toRepo');
    // Into the mover's own namespace or an organisation, never another user's.
    const to = ownNamespace(ctx, user, body.toRepo);
    if (to.toLowerCase() === repo.repoId.toLowerCase() && to !== repo.repoId) throw badRequest(`'${to}' is '${repo.repoId}' in another case: the Hub's names ignore case`);
    try {
      checkNameFree(ctx, type, to, repo);
    } catch (err) {
      if (err instanceof HubApiError && err.statusCode === 409) throw new HubApiError('HUB_ERR_CONFLICT', `A ${type} repository called ${to} already exists`);
      throw err;
    }
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
    const visibility = parseVisibility(body, type);
    const gated = parseGated(body.gated);
    const updatedConfig: Record<string, unknown> = {};
    if (visibility !== null && visibility !== visibilityOf(repo)) {
      const wasPrivate = repo.private;
      setVisibility(repo, visibility);
      // The payload's updatedConfig carries `private` only (hub docs).
      if (repo.private !== wasPrivate) updatedConfig.private = repo.private;
    }
    if (gated !== undefined) {
      if (gated) repo.gated = gated;
      else delete repo.gated;
    }
    await ctx.store.save();
    ctx.deliverer.emit(repoEvent(ctx, repo, 'repo.config', 'update', { updatedConfig }), repo.creator);
    return {};
  });

  // auth_check: 200 when the caller may read (or, with /write, write) the
  // repo's files; RepoNotFound / GatedRepo as the client maps them otherwise.
  const authCheck = (write: boolean) => async (req: RepoRequest) => {
    const user = optionalUser(ctx, req);
    const repo = readableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, user);
    checkGatedAccess(repo, user);
    if (write) writableRepo(ctx, type, repo.repoId, requireUser(ctx, req));
    return {};
  };
  fastify.get(`${base}/auth-check`, authCheck(false));
  fastify.get(`${base}/auth-check/write`, authCheck(true));

  // super_squash_history: one commit with the branch's files, no parent (the branch, a PR or any ref).
  fastify.post(`${base}/super-squash/*`, async (req: RepoRequest) => {
    const user = requireUser(ctx, req);
    const repo = writableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, user);
    const branch = req.params['*'] ?? '';
    const message = bodyOf(req).message;
    if (message !== undefined && message !== null && typeof message !== 'string') throw badRequest('`message` must be a string');
    const updated = await squashBranch(ctx, repo, branch, typeof message === 'string' && message.trim() !== '' ? message : `Super-squash branch '${branch}'`, user.name);
    return { commitId: updated };
  });
}

function parseGated(value: unknown): 'auto' | 'manual' | false | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'auto' || value === 'manual' || value === false) return value;
  throw badRequest(`Invalid \`gated\` ${JSON.stringify(value)}: use "auto", "manual" or false`);
}

async function squashBranch(ctx: HubContext, repo: StoredRepo, branch: string, message: string, author: string): Promise<string> {
  const ref = branch.startsWith('refs/') ? branch : `refs/heads/${branch}`;
  const moved = await ctx.git.lock.run(repoKey(repo), async () => {
    const head = (await ctx.git.refs(repo.type, repo.repoId)).get(ref);
    if (!head) throw new HubApiError('HUB_ERR_REVISION_NOT_FOUND', `Invalid rev id: ${branch}`);
    const squashed = await ctx.git.squash(repo.type, repo.repoId, head, message, author);
    if (!await ctx.git.casRef(repo.type, repo.repoId, ref, squashed, head)) throw new HubApiError('HUB_ERR_STALE_PARENT', STALE_PARENT_MESSAGE);
    return { ref, oldSha: head, newSha: squashed };
  });
  await refsChanged(ctx, repo, [moved]);
  return moved.newSha;
}
