import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RepoType } from '../../../lib/wire/hub.js';
import { namespaceId, optionalUser, requireUser, type HubContext } from '../context.js';
import { badRequest, HubApiError } from '../errors.js';
import { objectId } from '../ids.js';
import { canWrite, readableRepo, repoEvent, REPO_TYPES } from '../repos.js';
import type { HubUser, StoredComment, StoredDiscussion, StoredRepo } from '../types.js';

// Discussions and comments: enough of the real API for huggingface_hub's
// create_discussion / comment_discussion / change_discussion_status, and to
// raise `discussion` and `discussion.comment` events.

type Params = { owner: string; name: string; num?: string };
type Req = FastifyRequest<{ Params: Params }>;

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

function commentEvent(c: StoredComment): Record<string, unknown> {
  return {
    id: c.id, type: 'comment', createdAt: c.createdAt, author: { name: c.author },
    data: { edited: false, hidden: c.hidden, latest: { raw: c.content, html: c.content, updatedAt: c.createdAt, author: { name: c.author } }, numEdits: 0 },
  };
}

function details(d: StoredDiscussion): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: d.id, num: d.num, title: d.title, status: d.status, author: { name: d.author },
    createdAt: d.createdAt, isPullRequest: d.isPullRequest, events: d.comments.map(commentEvent),
  };
  if (d.isPullRequest) { view.changes = { base: 'refs/heads/main' }; view.filesWithConflicts = []; }
  return view;
}

export function discussionRoutes(fastify: FastifyInstance, ctx: HubContext): void {
  for (const type of REPO_TYPES) routesFor(fastify, ctx, type);
}

function routesFor(fastify: FastifyInstance, ctx: HubContext, type: RepoType): void {
  const base = `/api/${type}s/:owner/:name/discussions`;
  const repoOf = (req: Req, user: HubUser | null) => readableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, user);
  const emit = (repo: StoredRepo, scope: 'discussion' | 'discussion.comment', action: 'create' | 'update', d: StoredDiscussion, c?: StoredComment) => {
    const authorIds: Record<string, string> = { [d.author]: namespaceId(ctx, d.author) };
    if (c) authorIds[c.author] = namespaceId(ctx, c.author);
    ctx.deliverer.emit(repoEvent(ctx, repo, scope, action, { discussion: d, ...(c ? { comment: c } : {}), authorIds }), repo.creator);
  };

  fastify.get(base, async (req: Req) => {
    const repo = repoOf(req, optionalUser(ctx, req));
    return { discussions: repo.discussions.map(details), count: repo.discussions.length, start: 0, numItemsPerPage: 50 };
  });

  fastify.get(`${base}/:num`, async (req: Req) => details(findDiscussion(repoOf(req, optionalUser(ctx, req)), req.params.num)));

  fastify.post(base, async (req: Req) => {
    const user = requireUser(ctx, req);
    const repo = repoOf(req, user);
    const now = new Date().toISOString();
    const first: StoredComment = { id: objectId(), author: user.name, content: text(req.body, 'description', false) || '(no description)', hidden: false, createdAt: now };
    const d: StoredDiscussion = {
      id: objectId(), num: repo.discussions.length + 1, title: text(req.body, 'title', true), author: user.name,
      isPullRequest: (req.body as { pullRequest?: unknown } | null)?.pullRequest === true, status: 'open', createdAt: now, comments: [first],
    };
    repo.discussions.push(d);
    await ctx.store.save();
    emit(repo, 'discussion', 'create', d, first);
    return { num: d.num, id: d.id, url: `${base}/${d.num}`, pullRequest: d.isPullRequest };
  });

  fastify.post(`${base}/:num/comment`, async (req: Req) => {
    const user = requireUser(ctx, req);
    const repo = repoOf(req, user);
    const d = findDiscussion(repo, req.params.num);
    const c: StoredComment = { id: objectId(), author: user.name, content: text(req.body, 'comment', true), hidden: false, createdAt: new Date().toISOString() };
    d.comments.push(c);
    await ctx.store.save();
    emit(repo, 'discussion.comment', 'create', d, c);
    return { newMessage: commentEvent(c) };
  });

  fastify.post(`${base}/:num/status`, async (req: Req) => {
    const user = requireUser(ctx, req);
    const repo = repoOf(req, user);
    const d = findDiscussion(repo, req.params.num);
    if (!canWrite(user, repo) && d.author !== user.name) throw new HubApiError('HUB_ERR_FORBIDDEN', 'Only the author or the repo owner can change the status');
    const status = (req.body as { status?: unknown } | null)?.status;
    if (status !== 'open' && status !== 'closed') throw badRequest('`status` must be "open" or "closed"');
    d.status = status;
    await ctx.store.save();
    emit(repo, 'discussion', 'update', d);
    const now = new Date().toISOString();
    return { newStatus: { id: objectId(), type: 'status-change', createdAt: now, author: { name: user.name }, data: { status } } };
  });
}
