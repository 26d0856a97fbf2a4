import { readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { packagePath } from '../../lib/paths.js';
import send from '@fastify/send';
import { PAGE_FILE_HEADERS, isPageFilePath } from '../../lib/page-assets.js';

// The fleet page's files as plain node:http handlers; the CLI mounts them on
// the agent's receiver (anything with `route(method, path, handler)`).
// The page is at `/` and its assets under `/fleet/`; it polls `/status`.
// Files are sent by @fastify/send (as the daemon's dashboard sends its
// own), which keeps every path inside the page folder.

/** Folder holding index.html, app.js, style.css… of the fleet page. */
export const fleetPageRoot: string = packagePath('runtime', 'fleet-page', 'page');

export type PageHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** URL prefix of the page's assets. */
export const FLEET_ASSET_PREFIX = '/fleet/';

/**
 * The robot drawing is the dashboard's own (robot-view.js, pose.js), served
 * as they are under /fleet/robot/ so both pages draw a robot the same way.
 * Files, not imports: the fleet page does not depend on the daemon's code.
 */
const DRAWING_PREFIX = '/fleet/robot/';
const DRAWING_ROOT: string = packagePath('runtime', 'daemon', 'dashboard');
const DRAWING_FILES = ['pose.js', 'robot-view.js'];

function notFound(res: ServerResponse): void {
  const body = JSON.stringify({ error: 'not_found', message: 'Not Found' });
  res.writeHead(404, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

/**
 * A route handler serving the fleet page: `/` and `/index.html` give the page,
 * `/fleet/<file>` its assets. Mount it for each path with `mountFleetPage`.
 */
export function fleetPageHandler(root: string = fleetPageRoot): PageHandler {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    const drawing = path.startsWith(DRAWING_PREFIX) ? path.slice(DRAWING_PREFIX.length) : null;
    const rel = drawing !== null ? (DRAWING_FILES.includes(drawing) ? drawing : null)
      : path === '/' || path === '/index.html' ? 'index.html'
        : path.startsWith(FLEET_ASSET_PREFIX) ? path.slice(FLEET_ASSET_PREFIX.length) : null;
    if (rel === null || !isPageFilePath(decoded(rel))) return notFound(res);
    const file = await send(req, `/${rel}`, { root: drawing !== null ? DRAWING_ROOT : root, index: false, cacheControl: false, dotfiles: 'ignore' });
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

/** Paths to register: `/` and one `/fleet/<file>` per file of the page (the receiver routes exact paths). */
export function fleetPagePaths(root: string = fleetPageRoot): string[] {
  const files = readdirSync(root, { withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name).sort();
  return ['/', ...files.map((f) => `${FLEET_ASSET_PREFIX}${f}`), ...DRAWING_FILES.map((f) => `${DRAWING_PREFIX}${f}`)];
}

/** Register the fleet page on anything with the receiver's `route(method, path, handler)`. */
export function mountFleetPage(target: { route(method: 'GET', path: string, handler: PageHandler): void }, root: string = fleetPageRoot): void {
  const handler = fleetPageHandler(root);
  for (const path of fleetPagePaths(root)) target.route('GET', path, handler);
}
