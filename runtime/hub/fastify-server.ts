import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { badRequest, headerSafe, HubApiError, REPO_NOT_FOUND_MESSAGE } from './errors.js';
import { requireUser, type HubContext } from './context.js';
import { webhookRoutes } from './routes/webhooks.js';
import { repoRoutes } from './routes/repos.js';
import { fileRoutes } from './routes/files.js';
import { lfsRoutes } from './routes/lfs.js';
import { discussionRoutes } from './routes/discussions.js';
import { treeRoutes } from './routes/tree.js';
import { refRoutes } from './routes/refs.js';
import { spaceRoutes } from './routes/spaces.js';
import { listingRoutes } from './routes/listings.js';
import { notFoundPage, pageRoutes, wantsHtml } from './routes/pages.js';
import { gitBodyParsers, gitRoutes } from './routes/git.js';
import { crossSiteReason } from '../../lib/cross-site.js';
import { hostGuard } from '../../lib/allowed-host.js';

export interface HubStats {
  requests: number;
  writes: number;
  byRoute: Record<string, number>;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** /api/{models,datasets,spaces}/<anything>, and file downloads (…/resolve/…). */
const REPO_ADDRESS = /^\/api\/(models|datasets|spaces)\/[^/]+|^(\/(datasets|spaces))?\/[^/]+(\/[^/]+)?\/resolve\//;

/** The fastify instance of the embedded hub, built without listening (tests may inject()). */
export function createHubServer(ctx: HubContext, stats: HubStats, allowedHosts: readonly string[] = []): FastifyInstance {
  // close() ends every connection: a client's keep-alive socket (or one left half-read by a refused
  // upload) must not hold a stopping hub for the keep-alive time.
  const fastify = Fastify({ logger: false, bodyLimit: 2 * 1024 * 1024, routerOptions: { ignoreTrailingSlash: true }, forceCloseConnections: true, genReqId: () => randomUUID() });
  const hosts = hostGuard(allowedHosts);
  parsers(fastify);
  fastify.addHook('onRequest', async (req, reply) => {
    // The Hub names every answer; huggingface_hub quotes it in its errors ("(Request ID: …)").
    reply.header('x-request-id', req.id);
    stats.requests++;
    if (!READ_METHODS.has(req.method)) stats.writes++;
    const key = `${req.method} ${req.routeOptions.url ?? '(no route)'}`;
    stats.byRoute[key] = (stats.byRoute[key] ?? 0) + 1;
    const foreign = hosts.refusal(req.headers.host);
    if (foreign) throw new HubApiError('HUB_ERR_HOST_NOT_ALLOWED', foreign);
    const crossSite = crossSiteReason(req.method, req.headers);
    if (crossSite) throw new HubApiError('HUB_ERR_CROSS_SITE', `Cross-site request refused (${crossSite}): the embedded hub accepts changes only from its own pages and non-browser clients`);
  });
  fastify.setErrorHandler((err: FastifyError | HubApiError, req, reply) => {
    const status = err instanceof HubApiError ? err.statusCode : (err.statusCode ?? 500);
    const message = status >= 500 && !(err instanceof HubApiError) ? 'Internal error in the embedded hub' : err.message;
    if (status >= 500) ctx.log(`hub error: ${err.message}`);
    if (err instanceof HubApiError && err.clientCode) reply.header('x-error-code', err.clientCode);
    // A body refused before it was read (a commit): drain it and close the connection after the answer.
    if (!req.raw.complete) { reply.header('connection', 'close'); req.raw.resume(); }
    return reply.code(status).header('x-error-message', headerSafe(message)).send({ error: message });
  });
  fastify.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    // A repo address no route takes (a one-part id like `gpt2`, an unknown action) is a missing repo to the
    // client: it maps RepoNotFound to RepositoryNotFoundError (repo_exists, file_exists, list_repo_commits).
    if (REPO_ADDRESS.test(path)) {
      return reply.code(404).header('x-error-code', 'RepoNotFound').header('x-error-message', REPO_NOT_FOUND_MESSAGE).send({ error: REPO_NOT_FOUND_MESSAGE });
    }
    const message = `Not found: ${req.method} ${path}`;
    if (req.method === 'GET' && wantsHtml(req) && !path.startsWith('/api/')) return notFoundPage(reply, `Nothing at ${path} on this hub.`);
    return reply.code(404).header('x-error-message', headerSafe(message)).send({ error: message });
  });

  fastify.get('/api/whoami-v2', async (req) => {
    const user = requireUser(ctx, req);
    return {
      type: 'user', id: user.id, name: user.name, fullname: user.fullname ?? user.name, email: null, emailVerified: false,
      isPro: false, canPay: false, avatarUrl: '',
      orgs: ctx.orgs.filter((o) => o.members.includes(user.name)).map((o) => ({
        type: 'org', id: o.id, name: o.name, fullname: o.fullname, avatarUrl: '', roleInOrg: 'write', isEnterprise: false,
      })),
      auth: { type: 'access_token', accessToken: { displayName: 'robotctl embedded hub', role: 'write', createdAt: new Date(0).toISOString() } },
    };
  });
  webhookRoutes(fastify, ctx);
  repoRoutes(fastify, ctx);
  fileRoutes(fastify, ctx);
  discussionRoutes(fastify, ctx);
  treeRoutes(fastify, ctx);
  refRoutes(fastify, ctx);
  spaceRoutes(fastify, ctx);
  listingRoutes(fastify, ctx);
  pageRoutes(fastify, ctx);
  gitRoutes(fastify, ctx);
  void fastify.register(lfsRoutes(ctx));
  return fastify;
}

function parsers(fastify: FastifyInstance): void {
  // An empty JSON body is accepted as "no body": enable/disable send none.
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') { done(null, undefined); return; }
    try { done(null, JSON.parse(text)); } catch { done(badRequest('Request body is not valid JSON'), undefined); }
  });
  // The commit body streams into its reader (routes/commit-body.ts), which keeps its own limit.
  fastify.addContentTypeParser('application/x-ndjson', (_req, payload, done) => done(null, payload));
  // get_paths_info posts a form (repeated `paths`).
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(String(body))) {
      const prev = out[k];
      out[k] = prev === undefined ? v : ([] as string[]).concat(prev, v);
    }
    done(null, out);
  });
  gitBodyParsers(fastify);
}
