import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireUser, type HubContext } from '../context.js';
import { badRequest, headerSafe, HubApiError } from '../errors.js';
import { repoWebUrl } from '../events.js';
import { createRepo, parseRepoType, parseVisibility, readableRepo, resolveRevision, visibilityOf } from '../repos.js';
import { checkCard } from '../model-card.js';
import { commitFiles, type CommitOp } from '../commits.js';
import { bodyOf } from './repos.js';

// POST /api/validate-yaml (upload_file of a README.md asks it first) and
// POST /api/spaces/{id}/duplicate (duplicate_space).

type Params = { owner: string; name: string };

export function spaceRoutes(fastify: FastifyInstance, ctx: HubContext): void {
  fastify.post('/api/validate-yaml', async (req, reply) => {
    const body = bodyOf(req);
    if (typeof body.content !== 'string') throw badRequest('`content` is required');
    const { errors, warnings } = checkCard(body.content, parseRepoType(body.repoType));
    if (errors.length === 0) return { errors: [], warnings };
    const message = errors.map((e) => e.message).join('; ');
    return reply.code(400).header('x-error-message', headerSafe(message)).send({ error: message, errors, warnings });
  });

  fastify.post('/api/spaces/:owner/:name/duplicate', async (req: FastifyRequest<{ Params: Params }>, reply) => {
    const user = requireUser(ctx, req);
    const from = readableRepo(ctx, 'space', `${req.params.owner}/${req.params.name}`, user);
    const body = bodyOf(req);
    const to = typeof body.repository === 'string' && body.repository ? body.repository : `${user.name}/${req.params.name}`;
    const url = repoWebUrl(ctx.baseUrl, 'space', to);
    let copy;
    try {
      copy = await createRepo(ctx, user, 'space', to, { visibility: parseVisibility(body, 'space') ?? visibilityOf(from), sdk: from.sdk });
    } catch (err) {
      if (!(err instanceof HubApiError) || err.statusCode !== 409) throw err;
      return reply.code(409).header('x-error-message', headerSafe(err.message)).send({ error: err.message, url });
    }
    const head = await resolveRevision(ctx, from, 'main');
    const files = (await ctx.git.tree('space', from.repoId, head)).filter((e) => e.type === 'file');
    const ops: CommitOp[] = [];
    for (const f of files) {
      // An LFS file is copied as a pointer; commitFiles brings its object over.
      ops.push(f.lfs ? { op: 'addLfs', path: f.path, oid: f.lfs.oid, size: f.lfs.size } : { op: 'add', path: f.path, content: await ctx.git.blob('space', from.repoId, f.oid) });
    }
    await commitFiles(ctx, user, copy, { ops, summary: `Duplicate from ${from.repoId}`, description: '', ref: 'refs/heads/main', parentCommit: null });
    return { url };
  });
}
