import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RepoType } from '../../../lib/wire/hub.js';
import { optionalUser, requireUser, type HubContext } from '../context.js';
import { badRequest, HubApiError } from '../errors.js';
import { readableRepo, resolveRevision, writableRepo, REPO_TYPES } from '../repos.js';
import { refsChanged, repoKey } from '../commits.js';
import { ZERO_SHA } from '../git/git-repos.js';
import type { HubUser, StoredRepo } from '../types.js';

// Branches, tags, refs and the commit list (huggingface_hub's create_branch,
// delete_branch, create_tag, delete_tag, list_repo_refs, list_repo_commits).

type Params = { owner: string; name: string; branch?: string; rev?: string; tag?: string };
type Req = FastifyRequest<{ Params: Params; Querystring: Record<string, string | string[] | undefined> }>;

/** A branch or tag name git and the Hub both accept. */
export function checkRefName(name: string, field: string): void {
  const ok = /^[A-Za-z0-9._/-]{1,200}$/.test(name) && !/^[-/.]|\/$|\.lock$|\.$/.test(name)
    && !name.includes('..') && !name.includes('//') && !name.includes('/.') && !name.startsWith('refs/');
  if (!ok) throw badRequest(`Invalid ${field} '${name}': letters, digits, '.', '_', '-' and '/', not starting with '-', '.' or '/', without '..'`);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The Hub renders titles as inline Markdown: `code` spans become <code>. */
export function formatTitle(title: string): string {
  return escapeHtml(title).replace(/`([^`]+)`/g, '<code>$1</code>');
}

export function refRoutes(fastify: FastifyInstance, ctx: HubContext): void {
  for (const type of REPO_TYPES) routesFor(fastify, ctx, type);
}

async function createRef(ctx: HubContext, repo: StoredRepo, ref: string, target: string): Promise<void> {
  const ok = await ctx.git.lock.run(repoKey(repo), () => ctx.git.casRef(repo.type, repo.repoId, ref, target, ZERO_SHA));
  // The Hub's words (create_branch(exist_ok=True) tells this 409 from others by status only).
  if (!ok) throw new HubApiError('HUB_ERR_CONFLICT', `Reference ${ref} already exists`);
  await refsChanged(ctx, repo, [{ ref, oldSha: null, newSha: target }]);
}

async function deleteRef(ctx: HubContext, repo: StoredRepo, ref: string, what: string): Promise<void> {
  const old = (await ctx.git.refs(repo.type, repo.repoId)).get(ref);
  if (!old) throw new HubApiError('HUB_ERR_REVISION_NOT_FOUND', `Invalid rev id: ${what}`);
  await ctx.git.lock.run(repoKey(repo), () => ctx.git.deleteRef(repo.type, repo.repoId, ref));
  await refsChanged(ctx, repo, [{ ref, oldSha: old, newSha: null }]);
}

function routesFor(fastify: FastifyInstance, ctx: HubContext, type: RepoType): void {
  const base = `/api/${type}s/:owner/:name`;
  const id = (req: Req) => `${req.params.owner}/${req.params.name}`;
  const writable = (req: Req): { user: HubUser; repo: StoredRepo } => {
    const user = requireUser(ctx, req);
    return { user, repo: writableRepo(ctx, type, id(req), user) };
  };

  fastify.get(`${base}/refs`, async (req: Req) => {
    const repo = readableRepo(ctx, type, id(req), optionalUser(ctx, req));
    const refs = [...(await ctx.git.refs(type, repo.repoId)).entries()].sort(([a], [b]) => a.localeCompare(b));
    const pick = (prefix: string) => refs.filter(([r]) => r.startsWith(prefix)).map(([ref, targetCommit]) => ({ name: ref.slice(prefix.length), ref, targetCommit }));
    const out: Record<string, unknown> = { branches: pick('refs/heads/'), tags: pick('refs/tags/'), converts: pick('refs/convert/') };
    if (req.query.include_prs === '1' || req.query.include_prs === 'true') out.pullRequests = pick('refs/pr/');
    return out;
  });

  fastify.post(`${base}/branch/:branch`, async (req: Req) => {
    const { repo } = writable(req);
    const branch = req.params.branch ?? '';
    checkRefName(branch, 'branch');
    const from = (req.body as { startingPoint?: unknown } | null)?.startingPoint;
    const target = await resolveRevision(ctx, repo, typeof from === 'string' && from ? from : 'main');
    await createRef(ctx, repo, `refs/heads/${branch}`, target);
    return {};
  });

  fastify.delete(`${base}/branch/:branch`, async (req: Req) => {
    const { repo } = writable(req);
    if (req.params.branch === 'main') throw badRequest('Cannot delete refs/heads/main: it is the default branch');
    await deleteRef(ctx, repo, `refs/heads/${req.params.branch ?? ''}`, req.params.branch ?? '');
    return {};
  });

  fastify.post(`${base}/tag/:rev`, async (req: Req) => {
    const { repo } = writable(req);
    const tag = (req.body as { tag?: unknown } | null)?.tag;
    if (typeof tag !== 'string') throw badRequest('`tag` is required');
    // The revision first, as the Hub does: a tag on a missing revision is a 404 RevisionNotFound whatever its name.
    const target = await resolveRevision(ctx, repo, req.params.rev ?? 'main');
    checkRefName(tag, 'tag');
    await createRef(ctx, repo, `refs/tags/${tag}`, target);
    return {};
  });

  fastify.delete(`${base}/tag/:tag`, async (req: Req) => {
    const { repo } = writable(req);
    await deleteRef(ctx, repo, `refs/tags/${req.params.tag ?? ''}`, req.params.tag ?? '');
    return {};
  });

  fastify.get(`${base}/commits/:rev`, async (req: Req) => {
    const repo = readableRepo(ctx, type, id(req), optionalUser(ctx, req));
    const sha = await resolveRevision(ctx, repo, req.params.rev ?? 'main');
    const expand = ([] as (string | undefined)[]).concat(req.query['expand[]'] ?? req.query.expand);
    const formatted = expand.includes('formatted');
    return (await ctx.git.log(type, repo.repoId, sha)).map((c) => ({
      id: c.id, title: c.title, message: c.message.split('\n').slice(2).join('\n'), date: c.date,
      authors: [{ user: c.author, avatar: null }],
      ...(formatted ? { formatted: { title: formatTitle(c.title), message: c.message.includes('\n\n') ? `<p>${escapeHtml(c.message.split('\n').slice(2).join('\n'))}</p>` : '' } } : {}),
    }));
  });
}
