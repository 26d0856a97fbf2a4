import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RepoType } from '../../../lib/wire/hub.js';
import { packagePath } from '../../../lib/paths.js';
import { PAGE_FILE_HEADERS, type PageFolder } from '../../../lib/page-assets.js';
import type { HubContext } from '../context.js';
import { repoWebUrl } from '../events.js';
import { canRead, findRepo, REPO_TYPES } from '../repos.js';
import { cardData, repoTags } from '../repo-info.js';
import { escapeHtml, layout, PAGE_CSP, STYLE_PATH } from '../pages/html.js';
import { homePage } from '../pages/home-page.js';
import { repoPage } from '../pages/repo-page.js';

// Pages for people at the addresses the Hub has them: the root lists the
// users' public repos; /<owner>/<name>, /datasets/… and /spaces/… show a repo.
// Pages have no login: they show what an anonymous reader may see, so a
// private repo's page is a 404 like a missing one. The API (/api/…), file
// downloads (…/resolve/…) and git's smart HTTP (…/info/refs, …/git-*-pack)
// keep their own routes.

type Params = { owner: string; name: string };
const PREFIX: Record<RepoType, string> = { model: '', dataset: '/datasets', space: '/spaces' };
const COMMITS_SHOWN = 10;

/** The folder of the pages' browser files (their stylesheet), served under `/-/`. */
export const hubPagesRoot: string = packagePath('runtime', 'hub', 'pages');

/** The page folders this server maps URLs to (test/house/dependencies.test.ts checks every page server's). */
export function hubPageFolders(root: string = hubPagesRoot): PageFolder[] {
  return [{ prefix: STYLE_PATH.slice(0, STYLE_PATH.lastIndexOf('/') + 1), root }];
}

let css: string | null = null;
function stylesheet(): string {
  css ??= readFileSync(join(hubPagesRoot, STYLE_PATH.slice(STYLE_PATH.lastIndexOf('/') + 1)), 'utf8');
  return css;
}

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('content-security-policy', PAGE_CSP).headers(PAGE_FILE_HEADERS).send(body);
}

/** Whether a request is a browser's (its Accept names HTML): the not-found page is HTML for it, JSON for clients. */
export function wantsHtml(req: FastifyRequest): boolean {
  return /\btext\/html\b/.test(req.headers.accept ?? '');
}

export function notFoundPage(reply: FastifyReply, what: string): FastifyReply {
  return html(reply, 404, layout({
    title: 'Not found · robotctl hub',
    heading: '',
    main: `<section class="card"><h2>Not found</h2><p>${escapeHtml(what)}</p><p><a href="/">All repos of this hub</a></p></section>`,
  }));
}

async function repoPageReply(ctx: HubContext, type: RepoType, req: FastifyRequest<{ Params: Params }>, reply: FastifyReply): Promise<FastifyReply> {
  const repoId = `${req.params.owner}/${req.params.name}`;
  const repo = findRepo(ctx, type, repoId);
  // No login on pages: only what anyone may read.
  if (!repo || !canRead(null, repo)) {
    // A client's request (or an /api/… address no route takes) gets the JSON 404 every other address gives.
    if (!wantsHtml(req) || req.params.owner === 'api') {
      reply.callNotFound();
      return reply;
    }
    return notFoundPage(reply, `There is no public ${type} ${repoId} on this hub.`);
  }
  const sha = await ctx.git.resolve(type, repo.repoId, 'main');
  if (!sha) return notFoundPage(reply, `${repoId} has no main branch.`);
  const files = await ctx.git.tree(type, repo.repoId, sha);
  const readmeEntry = files.find((e) => e.path === 'README.md' && e.type === 'file');
  const readme = readmeEntry ? (await ctx.git.blob(type, repo.repoId, readmeEntry.oid)).toString('utf8') : null;
  const card = readme === null ? null : cardData(readme);
  const webPath = `${PREFIX[type]}/${repo.repoId}`;
  return html(reply, 200, repoPage({
    type, repoId: repo.repoId, webPath, cloneUrl: repoWebUrl(ctx.baseUrl, type, repo.repoId), sha, files,
    commits: await ctx.git.log(type, repo.repoId, sha, COMMITS_SHOWN), readme, tags: repoTags(repo, card),
    sdk: type === 'space' ? (typeof card?.sdk === 'string' ? card.sdk : repo.sdk) : null,
    fullnames: Object.fromEntries(ctx.users.map((u) => [u.name, u.fullname ?? u.name])),
  }));
}

export function pageRoutes(fastify: FastifyInstance, ctx: HubContext): void {
  fastify.get(STYLE_PATH, async (_req, reply) => reply.type('text/css; charset=utf-8').headers(PAGE_FILE_HEADERS).send(stylesheet()));

  fastify.get('/', async (_req, reply) => {
    const repos = ctx.store.data.repos.filter((r) => canRead(null, r)).map((r) => ({
      type: r.type, repoId: r.repoId, webPath: `${PREFIX[r.type]}/${r.repoId}`, lastModified: r.lastModified, sdk: r.sdk,
    }));
    return html(reply, 200, homePage({ users: ctx.users.map((u) => ({ name: u.name, fullname: u.fullname ?? u.name })), repos }));
  });

  for (const type of REPO_TYPES) {
    fastify.get(`${PREFIX[type]}/:owner/:name`, (req: FastifyRequest<{ Params: Params }>, reply) => repoPageReply(ctx, type, req, reply));
  }
}
