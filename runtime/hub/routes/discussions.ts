import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RepoType } from '../../../lib/wire/hub.js';
import { optionalUser, requireUser, type HubContext } from '../context.js';
import { badRequest, HubApiError } from '../errors.js';
import { objectId } from '../ids.js';
import { canWrite, readableRepo, REPO_TYPES } from '../repos.js';
import { changeEvent, commentEvent, discussionDetails, discussionSummary } from '../discussion-views.js';
import { addChange, emitDiscussion, mergePullRequest, openDiscussion } from '../pull-requests.js';
import type { HubUser, StoredComment, StoredDiscussion, StoredRepo } from '../types.js';

// Discussions and pull requests in the wire form of huggingface_hub's
// create_discussion, comment_discussion, rename_discussion,
// change_discussion_status, merge_pull_request, edit/hide_discussion_comment.

type Params = { owner: string; name: string; num?: string; cid?: string };
type Req = FastifyRequest<{ Params: Params; Querystring: Record<string, string | undefined> }>;
const PAGE = 50;

function text(body: unknown, key: string, required: boolean): string {
  const v = (body as Record<string, unknown> | null)?.[key];
  if (typeof v === 'string' && v.trim() !== '') return v;
  if (required) throw badRequest(`\`${key}\` is required`);
  return '';
}

function findDiscussion(repo: StoredRepo, num: string | undefined): StoredDiscussion {
  const d = repo.discussions.find((x) => String(x.num) === num);
  if (!d) throw new HubApiError('HUB_ERR_DISCUSSION_NOT_FOUND', `Discussion #${num ?? ''} not found in ${repo.repoId}`);
  return d;
}

function mayModerate(user: HubUser, repo: StoredRepo, d: StoredDiscussion): void {
  if (!canWrite(user, repo) && d.author !== user.name) throw new HubApiError('HUB_ERR_FORBIDDEN', 'Only the author or the repo owner can change this discussion');
}

/** The Hub's tabs: "open" holds drafts too, "closed" holds merged pull requests. */
const STATUS_GROUP: Record<string, readonly StoredDiscussion['status'][]> = { open: ['open', 'draft'], closed: ['closed', 'merged'] };

/** get_repo_discussions' `author`, `type` (discussion / pull_request / all) and `status` (open / closed / all). */
function listFilter(q: Record<string, string | undefined>): (d: StoredDiscussion) => boolean {
  if (q.type !== undefined && !['all', 'discussion', 'pull_request'].includes(q.type)) throw badRequest(`Invalid type '${q.type}': use discussion, pull_request or all`);
  if (q.status !== undefined && q.status !== 'all' && !STATUS_GROUP[q.status]) throw badRequest(`Invalid status '${q.status}': use open, closed or all`);
  const statuses = q.status && q.status !== 'all' ? STATUS_GROUP[q.status] : undefined;
  return (d) => (!q.author || d.author === q.author)
    && (!q.type || q.type === 'all' || (q.type === 'pull_request') === d.isPullRequest)
    && (!statuses || statuses.includes(d.status));
}

export function discussionRoutes(fastify: FastifyInstance, ctx: HubContext): void {
  for (const type of REPO_TYPES) routesFor(fastify, ctx, type);
}

function routesFor(fastify: FastifyInstance, ctx: HubContext, type: RepoType): void {
  const base = `/api/${type}s/:owner/:name/discussions`;
  const repoOf = (req: Req, user: HubUser | null) => readableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, user);
  const writeCtx = (req: Req) => {
    const user = requireUser(ctx, req);
    const repo = repoOf(req, user);
    return { user, repo, d: findDiscussion(repo, req.params.num) };
  };

  fastify.get(base, async (req: Req) => {
    const repo = repoOf(req, optionalUser(ctx, req));
    const all = repo.discussions.filter(listFilter(req.query)).sort((a, b) => b.num - a.num);
    const p = req.query.p ?? '0';
    if (!/^\d{1,6}$/.test(p)) throw badRequest(`Invalid page p='${p}': a number from 0`);
    const start = Number(p) * PAGE;
    return { discussions: all.slice(start, start + PAGE).map((d) => discussionSummary(repo, d)), count: all.length, start, numItemsPerPage: PAGE, numClosedDiscussions: all.filter((d) => d.status === 'closed').length };
  });

  fastify.get(`${base}/:num`, async (req: Req) => {
    const repo = repoOf(req, optionalUser(ctx, req));
    return discussionDetails(repo, findDiscussion(repo, req.params.num));
  });

  fastify.post(base, async (req: Req) => {
    const user = requireUser(ctx, req);
    const repo = repoOf(req, user);
    const pullRequest = (req.body as { pullRequest?: unknown } | null)?.pullRequest === true;
    const d = await openDiscussion(ctx, user, repo, { title: text(req.body, 'title', true), description: text(req.body, 'description', false), pullRequest });
    return { num: d.num, id: d.id, url: `${base}/${d.num}`, pullRequest: d.isPullRequest, repo: { name: repo.repoId, type } };
  });

  fastify.post(`${base}/:num/comment`, async (req: Req) => {
    const { user, repo, d } = writeCtx(req);
    const c: StoredComment = { id: objectId(), author: user.name, content: text(req.body, 'comment', true), hidden: false, createdAt: new Date().toISOString() };
    d.comments.push(c);
    await ctx.store.save();
    emitDiscussion(ctx, repo, 'discussion.comment', 'create', d, c);
    return { newMessage: commentEvent(c) };
  });

  fastify.post(`${base}/:num/title`, async (req: Req) => {
    const { user, repo, d } = writeCtx(req);
    mayModerate(user, repo, d);
    const change = addChange(d, user, 'title-change', { from: d.title, to: text(req.body, 'title', true) });
    d.title = String(change.data.to);
    await ctx.store.save();
    emitDiscussion(ctx, repo, 'discussion', 'update', d);
    return { newTitle: changeEvent(change) };
  });

  fastify.post(`${base}/:num/status`, async (req: Req) => {
    const { user, repo, d } = writeCtx(req);
    mayModerate(user, repo, d);
    const status = (req.body as { status?: unknown } | null)?.status;
    if (status !== 'open' && status !== 'closed') throw badRequest('`status` must be "open" or "closed"');
    d.status = status;
    const comment = text(req.body, 'comment', false);
    if (comment) d.comments.push({ id: objectId(), author: user.name, content: comment, hidden: false, createdAt: new Date().toISOString() });
    const change = addChange(d, user, 'status-change', { status });
    await ctx.store.save();
    emitDiscussion(ctx, repo, 'discussion', 'update', d);
    return { newStatus: changeEvent(change) };
  });

  fastify.post(`${base}/:num/merge`, async (req: Req) => {
    const { user, repo, d } = writeCtx(req);
    if (!canWrite(user, repo)) throw new HubApiError('HUB_ERR_FORBIDDEN', `You don't have the rights to merge into ${repo.repoId}`);
    await mergePullRequest(ctx, user, repo, d);
    const changes = d.changes ?? [];
    const last = changes[changes.length - 1];
    return { newStatus: last ? changeEvent(last) : null };
  });

  const commentOf = (d: StoredDiscussion, id: string | undefined) => {
    const c = d.comments.find((x) => x.id === id);
    if (!c) throw new HubApiError('HUB_ERR_DISCUSSION_NOT_FOUND', `Comment ${id ?? ''} not found in #${d.num}`);
    return c;
  };
  fastify.post(`${base}/:num/comment/:cid/edit`, async (req: Req) => {
    const { user, repo, d } = writeCtx(req);
    const c = commentOf(d, req.params.cid);
    if (c.author !== user.name) throw new HubApiError('HUB_ERR_FORBIDDEN', 'Only its author can edit a comment');
    Object.assign(c, { content: text(req.body, 'content', true), edited: true, updatedAt: new Date().toISOString() });
    await ctx.store.save();
    emitDiscussion(ctx, repo, 'discussion.comment', 'update', d, c);
    return { updatedComment: commentEvent(c) };
  });
  fastify.put(`${base}/:num/comment/:cid/hide`, async (req: Req) => {
    const { user, repo, d } = writeCtx(req);
    if (!canWrite(user, repo)) throw new HubApiError('HUB_ERR_FORBIDDEN', 'Only the repo owner can hide a comment');
    const c = commentOf(d, req.params.cid);
    c.hidden = true;
    await ctx.store.save();
    emitDiscussion(ctx, repo, 'discussion.comment', 'update', d, c);
    return { updatedComment: commentEvent(c) };
  });
}
