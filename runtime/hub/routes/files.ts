import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RepoType } from '../../../lib/wire/hub.js';
import { optionalUser, requireUser, type HubContext } from '../context.js';
import { HubApiError } from '../errors.js';
import { repoWebUrl } from '../events.js';
import { canWrite, checkGatedAccess, readableRepo, resolveRevision, REPO_TYPES } from '../repos.js';
import type { HubUser, StoredRepo } from '../types.js';
import { checkPath, commitFiles } from '../commits.js';
import { notePullRequestCommits, openPullRequest } from '../pull-requests.js';
import { uploadModes } from '../lfs/preupload.js';
import { parseRange, sendBytes } from './byte-range.js';
import { readCommitBody } from './commit-body.js';

// Uploads and downloads in the wire form of huggingface_hub (_commit_api.py,
// file_download.py): preupload, NDJSON commit, resolve with X-Repo-Commit/ETag
// (and X-Linked-Etag / X-Linked-Size for an LFS file, served from the LFS store).

type RevParams = { owner: string; name: string; rev: string };
type ResolveParams = RevParams & { '*': string };
type CommitReq = FastifyRequest<{ Params: RevParams; Querystring: { create_pr?: string } }>;

/** Regular files are at most 10 MiB each, LFS files are not in the body: 1 GiB is many files. */
export const COMMIT_BODY_LIMIT = 1024 * 1024 * 1024;

/** A commit's target: a branch name or a full ref (refs/pr/N). */
export function refOf(rev: string): string {
  return rev.startsWith('refs/') ? rev : `refs/heads/${rev}`;
}

const truthy = (v: string | undefined): boolean => v === '1' || v === 'true';

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
    fastify.post(`${base}/preupload/:rev`, async (req: CommitReq) => {
      const user = requireUser(ctx, req);
      const repo = readableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, user);
      mayCommit(user, repo, truthy(req.query.create_pr) ? null : refOf(req.params.rev));
      const sha = await resolveRevision(ctx, repo, req.params.rev);
      const body = (req.body ?? {}) as { files?: unknown; gitIgnore?: unknown };
      return { files: await uploadModes(ctx, repo, sha, body.files, body.gitIgnore), commitOid: sha };
    });

    fastify.post(`${base}/commit/:rev`, async (req: CommitReq) => {
      const user = requireUser(ctx, req);
      const repo = readableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, user);
      const createPr = truthy(req.query.create_pr);
      mayCommit(user, repo, createPr ? null : refOf(req.params.rev));
      const parsed = await readCommitBody(req.body, COMMIT_BODY_LIMIT);
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
    const user = optionalUser(ctx, req);
    const repo = readableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, user);
    const sha = await resolveRevision(ctx, repo, req.params.rev);
    const path = req.params['*'];
    checkPath(path);
    // A gated repo's card stays readable, as on the Hub's page.
    if (path !== 'README.md') checkGatedAccess(repo, user);
    const entry = (await ctx.git.tree(type, repo.repoId, sha)).find((e) => e.path === path && e.type === 'file');
    if (!entry) throw new HubApiError('HUB_ERR_ENTRY_NOT_FOUND', `Entry not found: ${path} at ${req.params.rev}`);
    reply.header('x-repo-commit', sha).header('accept-ranges', 'bytes');
    reply.type(path.endsWith('.json') ? 'application/json' : /\.(md|txt|py|ya?ml|toml|cfg)$/.test(path) ? 'text/plain; charset=utf-8' : 'application/octet-stream');
    const stored = entry.lfs ? await ctx.lfs.size(type, repo.repoId, entry.lfs.oid) : null;
    if (entry.lfs && stored !== null) {
      // What the Hub's redirect to its storage carries: the content's sha256 and size.
      const oid = entry.lfs.oid;
      reply.header('etag', `"${oid}"`).header('x-linked-etag', `"${oid}"`).header('x-linked-size', String(stored));
      const range = parseRange(req.headers.range, stored);
      if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${stored}`).send();
      if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${stored}`);
      reply.header('content-length', String(range ? range.end - range.start + 1 : stored));
      // An empty stream: fastify's HEAD route keeps the length set above (it would read a real one to the end).
      if (req.method === 'HEAD') return reply.send(Readable.from([]));
      return reply.send(ctx.lfs.open(type, repo.repoId, oid, range ?? undefined));
    }
    // A regular file, or a pointer whose object this hub never received (served as git has it).
    if (entry.lfs) ctx.log(`resolve ${repo.repoId}/${path}: LFS object ${entry.lfs.oid} missing, serving the pointer`);
    const content = await ctx.git.blob(type, repo.repoId, entry.oid);
    reply.header('etag', `"${entry.oid}"`);
    return sendBytes(req, reply, content);
  };
  fastify.get('/:owner/:name/resolve/:rev/*', resolve('model'));
  fastify.get('/datasets/:owner/:name/resolve/:rev/*', resolve('dataset'));
  fastify.get('/spaces/:owner/:name/resolve/:rev/*', resolve('space'));
}
