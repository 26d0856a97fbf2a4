import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { packagePath } from '../../lib/paths.js';
import { PAGE_FILE_HEADERS, SHARED_PAGE_SUBPATH, isPageFilePath, sharedPageRoot, type PageFolder } from '../../lib/page-assets.js';

// The dashboard's scripts and stylesheet (`GET /dashboard/<file>`), and the
// browser modules it shares with the fleet page (`GET /dashboard/shared/<file>`,
// lib/browser/), sent by @fastify/send (the library @fastify/static is built
// on, as the fleet page uses it), which keeps every path inside its folder;
// the page itself is `GET /` (routes/daemon.ts). Plain files, no build step.
// A missing file, a folder or a path that is not a plain file name gets the
// daemon's 404.
// @fastify/send is loaded by the first file request: registering
// @fastify/static loaded it, glob and more at every daemon start (about a
// sixth of `robotctl daemon --sim`'s start-up), for a page a fleet of
// simulated robots never opens. Loaded with require(), not import(): the
// CLI's bundle runs as a script (cli/build-bundle.mjs).

export const dashboardRoot: string = packagePath('runtime', 'daemon', 'dashboard');

const PREFIX = '/dashboard/';

/** The folders the dashboard serves, most specific prefix first. */
export function dashboardFolders(root: string = dashboardRoot): PageFolder[] {
  return [{ prefix: `${PREFIX}${SHARED_PAGE_SUBPATH}`, root: sharedPageRoot }, { prefix: PREFIX, root }];
}

type Send = typeof import('@fastify/send').default;
const require = createRequire(import.meta.url);
let sendLoaded: Send | undefined;
const loadSend = (): Send => (sendLoaded ??= (require('@fastify/send') as { default: Send }).default);

/** The file's path under the folder, decoded as @fastify/static decodes it; null when not a page file. */
function pagePath(prefix: string, url: string): string | null {
  const end = url.indexOf('?');
  const raw = url.slice(prefix.length - 1, end === -1 ? url.length : end);
  try {
    const path = decodeURI(raw);
    return isPageFilePath(path) ? path : null;
  } catch {
    return null;
  }
}

async function sendFile({ prefix, root }: PageFolder, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const path = pagePath(prefix, req.raw.url ?? '');
  if (path === null) return reply.callNotFound();
  const send = loadSend();
  // send() decodes the path again: hand it encoded, as @fastify/static does.
  const file = await send(req.raw, encodeURI(path), { root, index: false, cacheControl: false });
  if (file.type === 'file') {
    reply.code(file.statusCode);
    reply.headers({ ...file.headers, ...PAGE_FILE_HEADERS });
    return reply.send(file.stream);
  }
  if (file.type === 'directory') return reply.callNotFound();
  const err = file.metadata.error as { code?: string; status?: number };
  if (err.code === 'ENOENT' || err.status === 404) return reply.callNotFound();
  return reply.send(err);
}

export function dashboardRoutes(app: FastifyInstance, root: string = dashboardRoot): void {
  for (const folder of dashboardFolders(root)) {
    app.route({ method: ['GET', 'HEAD'], url: `${folder.prefix}*`, handler: (req, reply) => sendFile(folder, req, reply) });
  }
}
