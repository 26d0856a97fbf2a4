import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RepoType } from '../../../lib/wire/hub.js';
import { optionalUser, requireUser, type HubContext } from '../context.js';
import { badRequest, HubApiError } from '../errors.js';
import { repoWebUrl } from '../events.js';
import { commitFiles, headCommit, readableRepo, resolveRevision, writableRepo, REPO_TYPES, type HubCommitOp } from '../repos.js';

// Uploads and downloads in the wire form of huggingface_hub (_commit_api.py,
// file_download.py): preupload, NDJSON commit, resolve with X-Repo-Commit/ETag.

type RevParams = { owner: string; name: string; rev: string };
type ResolveParams = RevParams & { '*': string };

/** The hub's own words for a stale `parent_commit` (HTTP 412). */
export const STALE_PARENT_MESSAGE = 'The branch was updated since you opened this page. Please refresh and try again.';

export const COMMIT_BODY_LIMIT = 100 * 1024 * 1024;

export function fileRoutes(fastify: FastifyInstance, ctx: HubContext): void {
  for (const type of REPO_TYPES) {
    const base = `/api/${type}s/:owner/:name`;
    fastify.post(`${base}/preupload/:rev`, async (req: FastifyRequest<{ Params: RevParams }>) => {
      const user = requireUser(ctx, req);
      writableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, user);
      const files = (req.body as { files?: unknown } | null)?.files;
      if (!Array.isArray(files)) throw badRequest('`files` must be an array of {path, sample, size}');
      // Everything is a regular (inline base64) upload here: no LFS store.
      return {
        files: files.map((f: unknown) => ({ path: (f as { path?: unknown }).path, uploadMode: 'regular', shouldIgnore: false })),
        commitOid: headCommit(readableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, user)).oid,
      };
    });

    fastify.post(`${base}/commit/:rev`, { bodyLimit: COMMIT_BODY_LIMIT }, async (req: FastifyRequest<{ Params: RevParams }>) => {
      const user = requireUser(ctx, req);
      const repo = writableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, user);
      if (resolveRevision(repo, req.params.rev) !== headCommit(repo)) throw badRequest('Commits are only accepted on main');
      const parsed = parseCommitBody(req.body);
      if (parsed.parentCommit && parsed.parentCommit !== headCommit(repo).oid) {
        throw new HubApiError('HUB_ERR_STALE_PARENT', STALE_PARENT_MESSAGE);
      }
      const commit = await commitFiles(ctx, user, repo, parsed.ops, parsed.summary, parsed.description);
      return { success: true, commitOid: commit.oid, commitUrl: `${repoWebUrl(ctx.baseUrl, type, repo.repoId)}/commit/${commit.oid}`, commitMessage: parsed.summary };
    });
  }

  const resolve = (type: RepoType) => async (req: FastifyRequest<{ Params: ResolveParams }>, reply: FastifyReply) => {
    const repo = readableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, optionalUser(ctx, req));
    const commit = resolveRevision(repo, req.params.rev);
    const path = req.params['*'];
    const oid = commit.tree[path];
    if (!oid) throw new HubApiError('HUB_ERR_ENTRY_NOT_FOUND', `Entry not found: ${path} at ${req.params.rev}`);
    const content = await ctx.store.getBlob(oid);
    reply.header('x-repo-commit', commit.oid).header('etag', `"${oid}"`).header('accept-ranges', 'bytes');
    reply.type(path.endsWith('.json') ? 'application/json' : /\.(md|txt|py|ya?ml|toml|cfg)$/.test(path) ? 'text/plain; charset=utf-8' : 'application/octet-stream');
    return reply.send(content);
  };
  fastify.get('/:owner/:name/resolve/:rev/*', resolve('model'));
  fastify.get('/datasets/:owner/:name/resolve/:rev/*', resolve('dataset'));
  fastify.get('/spaces/:owner/:name/resolve/:rev/*', resolve('space'));
}

interface ParsedCommit {
  summary: string;
  description: string;
  parentCommit: string | null;
  ops: HubCommitOp[];
}

/** The NDJSON commit body: header, then file / deletedFile / deletedFolder lines. */
export function parseCommitBody(body: unknown): ParsedCommit {
  if (typeof body !== 'string') throw badRequest('Commit body must be NDJSON (content-type: application/x-ndjson)');
  const out: ParsedCommit = { summary: '', description: '', parentCommit: null, ops: [] };
  let sawHeader = false;
  body.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let item: { key?: unknown; value?: Record<string, unknown> };
    try { item = JSON.parse(line) as typeof item; } catch { throw badRequest(`Commit line ${i + 1} is not JSON`); }
    const v = item.value ?? {};
    const path = typeof v.path === 'string' ? v.path : '';
    switch (item.key) {
      case 'header':
        sawHeader = true;
        out.summary = typeof v.summary === 'string' ? v.summary : '';
        out.description = typeof v.description === 'string' ? v.description : '';
        out.parentCommit = typeof v.parentCommit === 'string' ? v.parentCommit : null;
        return;
      case 'file': {
        if (v.encoding !== undefined && v.encoding !== 'base64') throw badRequest(`Unsupported encoding for ${path}: use base64`);
        if (typeof v.content !== 'string') throw badRequest(`File ${path} has no content`);
        out.ops.push({ op: 'add', path, content: Buffer.from(v.content, 'base64') });
        return;
      }
      case 'deletedFile': out.ops.push({ op: 'delete', path }); return;
      case 'deletedFolder': out.ops.push({ op: 'deleteFolder', path }); return;
      case 'lfsFile': throw badRequest(`LFS files are not supported by the embedded hub (${path}): upload it as a regular file`);
      default: throw badRequest(`Unsupported commit line key ${JSON.stringify(item.key)}`);
    }
  });
  if (!sawHeader || out.summary.trim() === '') throw badRequest('Commit header with a non-empty summary is required');
  return out;
}
