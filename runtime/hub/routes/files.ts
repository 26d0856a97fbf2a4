import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RepoType } from '../../../lib/wire/hub.js';
import { optionalUser, requireUser, type HubContext } from '../context.js';
import { badRequest, HubApiError } from '../errors.js';
import { repoWebUrl } from '../events.js';
import { canWrite, readableRepo, resolveRevision, writableRepo, REPO_TYPES } from '../repos.js';
import type { HubUser, StoredRepo } from '../types.js';
import { checkPath, commitFiles } from '../commits.js';
import { notePullRequestCommits, openPullRequest } from '../pull-requests.js';
import { parseCommitBody } from './commit-body.js';

// Uploads and downloads in the wire form of huggingface_hub (_commit_api.py,
// file_download.py): preupload, NDJSON commit, resolve with X-Repo-Commit/ETag.

type RevParams = { owner: string; name: string; rev: string };
type ResolveParams = RevParams & { '*': string };
type CommitReq = FastifyRequest<{ Params: RevParams; Querystring: { create_pr?: string } }>;

export const COMMIT_BODY_LIMIT = 100 * 1024 * 1024;

/** A commit's target: a branch name or a full ref (refs/pr/N). */
export function refOf(rev: string): string {
  return rev.startsWith('refs/') ? rev : `refs/heads/${rev}`;
}

/** Writers commit anywhere; any reader may open a pull request and commit to their own. */
function mayCommit(user: HubUser, repo: StoredRepo, ref: string | null): void {
  if (canWrite(user, repo) || ref === null) return;
  const pr = repo.discussions.find((d) => d.prRef === ref);
  if (pr && pr.author === user.name) return;
  throw new HubApiError('HUB_ERR_FORBIDDEN', `You don't have the rights to write to ${repo.repoId}`);
}

export function fileRoutes(fastify: FastifyInstance, ctx: HubContext): void {
  for (const type of REPO_TYPES) {
    const base = `/api/${type}s/:owner/:name`;
    fastify.post(`${base}/preupload/:rev`, async (req: FastifyRequest<{ Params: RevParams }>) => {
      const user = requireUser(ctx, req);
      const repo = writableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, user);
      const files = (req.body as { files?: unknown } | null)?.files;
      if (!Array.isArray(files)) throw badRequest('`files` must be an array of {path, sample, size}');
      // Everything is a regular (inline base64) upload here: no LFS store.
      return {
        files: files.map((f: unknown) => ({ path: (f as { path?: unknown }).path, uploadMode: 'regular', shouldIgnore: false })),
        commitOid: await resolveRevision(ctx, repo, req.params.rev),
      };
    });

    fastify.post(`${base}/commit/:rev`, { bodyLimit: COMMIT_BODY_LIMIT }, async (req: CommitReq) => {
      const user = requireUser(ctx, req);
      const repo = readableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, user);
      const parsed = parseCommitBody(req.body);
      const createPr = req.query.create_pr === '1' || req.query.create_pr === 'true';
      mayCommit(user, repo, createPr ? null : refOf(req.params.rev));
      const pr = createPr ? await openPullRequest(ctx, user, repo, { title: parsed.summary, description: parsed.description, base: refOf(req.params.rev) }) : null;
      const ref = pr?.prRef ?? refOf(req.params.rev);
      const commit = await commitFiles(ctx, user, repo, { ...parsed, ref, parentCommit: pr ? null : parsed.parentCommit });
      await notePullRequestCommits(ctx, user, repo, [{ ref, newSha: commit.oid }]);
      const web = repoWebUrl(ctx.baseUrl, type, repo.repoId);
      const out: Record<string, unknown> = { success: true, commitOid: commit.oid, commitUrl: `${web}/commit/${commit.oid}`, commitMessage: parsed.summary };
      if (pr) out.pullRequestUrl = `${web}/discussions/${pr.num}`;
      return out;
    });
  }

  const resolve = (type: RepoType) => async (req: FastifyRequest<{ Params: ResolveParams }>, reply: FastifyReply) => {
    const repo = readableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, optionalUser(ctx, req));
    const sha = await resolveRevision(ctx, repo, req.params.rev);
    const path = req.params['*'];
    checkPath(path);
    const entry = (await ctx.git.tree(type, repo.repoId, sha)).find((e) => e.path === path && e.type === 'file');
    if (!entry) throw new HubApiError('HUB_ERR_ENTRY_NOT_FOUND', `Entry not found: ${path} at ${req.params.rev}`);
    const content = await ctx.git.blob(type, repo.repoId, entry.oid);
    reply.header('x-repo-commit', sha).header('etag', `"${entry.oid}"`).header('accept-ranges', 'bytes');
    reply.type(path.endsWith('.json') ? 'application/json' : /\.(md|txt|py|ya?ml|toml|cfg)$/.test(path) ? 'text/plain; charset=utf-8' : 'application/octet-stream');
    return reply.send(content);
  };
  fastify.get('/:owner/:name/resolve/:rev/*', resolve('model'));
  fastify.get('/datasets/:owner/:name/resolve/:rev/*', resolve('dataset'));
  fastify.get('/spaces/:owner/:name/resolve/:rev/*', resolve('space'));
}
