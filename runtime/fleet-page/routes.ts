import { readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { packagePath } from '../../lib/paths.js';
import send from '@fastify/send';
import { PAGE_FILE_HEADERS, SHARED_PAGE_SUBPATH, isPageFilePath, sharedPageRoot, type PageFolder } from '../../lib/page-assets.js';

// The fleet page's files as plain node:http handlers; the CLI mounts them on
// the agent's receiver (anything with `route(method, path, handler)`).
// The page is at `/` and its assets under `/fleet/`; it polls `/status`.
// The robot drawing it shares with the daemon's dashboard (pose.js,
// robot-view.js) comes from lib/browser/, served under `/fleet/shared/`, as
// the daemon serves it under `/dashboard/shared/`: neither runtime serves
// the other's files. Files are sent by @fastify/send (as the daemon's
// dashboard sends its own), which keeps every path inside its folder.

/** Folder holding index.html, app.js, style.css… of the fleet page. */
export const fleetPageRoot: string = packagePath('runtime', 'fleet-page', 'page');

export type PageHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** URL prefix of the page's assets. */
export const FLEET_ASSET_PREFIX = '/fleet/';

/** The folders the fleet page serves, most specific prefix first. */
export function fleetPageFolders(root: string = fleetPageRoot): PageFolder[] {
  return [{ prefix: `${FLEET_ASSET_PREFIX}${SHARED_PAGE_SUBPATH}`, root: sharedPageRoot }, { prefix: FLEET_ASSET_PREFIX, root }];
}

function notFound(res: ServerResponse): void {
  const body = JSON.stringify({ error: 'not_found', message: 'Not Found' });
  res.writeHead(404, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

/** The folder and the file's path under it for a request path; null when it names no page file. */
function pageFile(path: string, root: string, folders: PageFolder[]): { root: string; rel: string } | null {
  if (path === '/' || path === '/index.html') return { root, rel: 'index.html' };
  const folder = folders.find((f) => path.startsWith(f.prefix));
  return folder ? { root: folder.root, rel: path.slice(folder.prefix.length) } : null;
}

/**
 * A route handler serving the fleet page: `/` and `/index.html` give the page,
 * `/fleet/<file>` its assets, `/fleet/shared/<file>` the shared browser
 * modules. Mount it for each path with `mountFleetPage`.
 */
export function fleetPageHandler(root: string = fleetPageRoot): PageHandler {
  const folders = fleetPageFolders(root);
  return async (req: IncomingMessage, res: ServerResponse) => {
    const found = pageFile((req.url ?? '/').split('?', 1)[0] ?? '/', root, folders);
    if (found === null || !isPageFilePath(decoded(found.rel))) return notFound(res);
    const file = await send(req, `/${found.rel}`, { root: found.root, index: false, cacheControl: false, dotfiles: 'ignore' });
    if (file.type !== 'file') {
      file.stream.resume();
      return notFound(res);
    }
    res.writeHead(file.statusCode, { ...file.headers, ...PAGE_FILE_HEADERS });
    file.stream.pipe(res);
  };
}

function decoded(rel: string): string {
  try {
    return decodeURIComponent(rel);
  } catch {
    return '';
  }
}

/** Paths to register: `/` and one path per file of each folder (the receiver routes exact paths). */
export function fleetPagePaths(root: string = fleetPageRoot): string[] {
  const paths = fleetPageFolders(root).flatMap(({ prefix, root: dir }) => readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isFile()).map((d) => `${prefix}${d.name}`));
  return ['/', ...paths.sort()];
}

/** Register the fleet page on anything with the receiver's `route(method, path, handler)`. */
export function mountFleetPage(target: { route(method: 'GET', path: string, handler: PageHandler): void }, root: string = fleetPageRoot): void {
  const handler = fleetPageHandler(root);
  for (const path of fleetPagePaths(root)) target.route('GET', path, handler);
}
