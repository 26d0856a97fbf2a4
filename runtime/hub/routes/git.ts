import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RepoType } from '../../../lib/wire/hub.js';
import { tokenOf, userByToken, type HubContext } from '../context.js';
import { canRead, canWrite, checkRepoId, findGitRepo } from '../repos.js';
import { diffRefs, refsChanged, repoKey } from '../commits.js';
import { notePullRequestCommits } from '../pull-requests.js';
import { runHttpBackend } from '../git/http-backend.js';
import type { UpdatedRef } from '../events.js';
import type { HubUser, StoredRepo } from '../types.js';

// git clone / fetch / push over HTTP at the Hub's addresses
// (/<owner>/<name>, /datasets/…, /spaces/…), token as the password. git's own
// http-backend serves the bare repo; a push then raises the same
// `repo.content` event as an API commit, with the refs it moved.

type Params = { owner: string; name: string };
type Req = FastifyRequest<{ Params: Params }>;
const PREFIX: Record<RepoType, string> = { model: '', dataset: '/datasets', space: '/spaces' };
const REALM = 'Basic realm="robotctl embedded hub", charset="UTF-8"';

export function gitRoutes(fastify: FastifyInstance, ctx: HubContext): void {
  for (const type of ['model', 'dataset', 'space'] as const) {
    const base = `${PREFIX[type]}/:owner/:name`;
    fastify.get(`${base}/info/refs`, (req: Req, reply) => serve(ctx, type, req, reply, 'info/refs'));
    fastify.post(`${base}/git-upload-pack`, (req: Req, reply) => serve(ctx, type, req, reply, 'git-upload-pack'));
    fastify.post(`${base}/git-receive-pack`, (req: Req, reply) => serve(ctx, type, req, reply, 'git-receive-pack'));
  }
}

/** Leaves git's request bodies unread: they stream into http-backend. */
export function gitBodyParsers(fastify: FastifyInstance): void {
  for (const t of ['application/x-git-upload-pack-request', 'application/x-git-receive-pack-request']) {
    fastify.addContentTypeParser(t, (_req, payload, done) => done(null, payload));
  }
}

function deny(reply: FastifyReply, status: 401 | 403 | 404, message: string): FastifyReply {
  if (status === 401) reply.header('www-authenticate', REALM);
  return reply.code(status).type('text/plain; charset=utf-8').send(`${message}\n`);
}

async function serve(ctx: HubContext, type: RepoType, req: Req, reply: FastifyReply, what: string): Promise<FastifyReply> {
  const asked = `${req.params.owner}/${req.params.name}`;
  try { checkRepoId(asked.replace(/\.git$/i, '')); } catch { return deny(reply, 404, `Repository not found: ${asked}`); }
  const token = tokenOf(req.headers.authorization);
  const user = token === null ? null : userByToken(ctx.users, token);
  if (token !== null && !user) return deny(reply, 401, 'Invalid username or password.');
  const repo = findGitRepo(ctx, type, req.params.owner, req.params.name);
  // Missing and private look the same: git asks for credentials (401), then a user without access gets 404.
  if (!repo || !canRead(user, repo)) return user ? deny(reply, 404, `Repository not found: ${asked}`) : deny(reply, 401, 'Authentication required.');
  const repoId = repo.repoId;
  const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
  const push = what === 'git-receive-pack' || new URLSearchParams(query).get('service') === 'git-receive-pack';
  if (push && !user) return deny(reply, 401, 'Authentication required to push.');
  if (push && user && !canWrite(user, repo)) return deny(reply, 403, `You don't have the rights to push to ${repoId}`);
  reply.hijack();
  const cgi = {
    projectRoot: ctx.git.root, pathInfo: `/${ctx.git.relPath(type, repoId)}/${what}`, method: req.method, query, hooksPath: ctx.git.hooksDir,
    contentType: req.headers['content-type'], contentEncoding: header(req, 'content-encoding'), gitProtocol: header(req, 'git-protocol'),
    remoteUser: user?.name ?? null, body: req.method === 'POST' ? (req.body as Readable) : null,
  };
  if (what !== 'git-receive-pack' || !user) {
    await runHttpBackend(cgi, reply.raw);
    return reply;
  }
  const updated = await ctx.git.lock.run(repoKey(repo), async () => {
    // Every other writer holds this lock and keeps the cached refs exact, so they are the state before the push.
    const before = new Map(await ctx.git.refs(type, repoId));
    await runHttpBackend(cgi, reply.raw);
    ctx.git.invalidate(type, repoId);
    return diffRefs(before, await ctx.git.refs(type, repoId));
  });
  await afterPush(ctx, user, repo, updated);
  return reply;
}

function header(req: Req, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

async function afterPush(ctx: HubContext, user: HubUser, repo: StoredRepo, updated: UpdatedRef[]): Promise<void> {
  try {
    await refsChanged(ctx, repo, updated);
    await notePullRequestCommits(ctx, user, repo, updated);
  } catch (err) {
    ctx.log(`after push to ${repo.repoId}: ${String(err)}`);
  }
}
