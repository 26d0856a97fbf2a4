import { packagePath } from './paths.js';

// What the two page servers agree on: the daemon's dashboard (@fastify/send in fastify)
// and the agent's fleet page (@fastify/send on node:http). The libraries keep
// every path inside the page folder; these rules only make everything else a
// plain 404 instead of a 400/403 that differs between the two.

/** A folder of page files served under a URL prefix (ending in `/`). */
export interface PageFolder {
  prefix: string;
  root: string;
}

/**
 * The browser modules both pages use (the robot drawing: pose.js,
 * robot-view.js). Each server serves this folder as `shared/` beside its own
 * page files, so a page imports `./shared/<file>` and no runtime serves
 * another runtime's folder (test/house/dependencies.test.ts checks it).
 */
export const sharedPageRoot: string = packagePath('lib', 'browser');

/** The shared folder's prefix under a page's own asset prefix (`/fleet/` → `/fleet/shared/`). */
export const SHARED_PAGE_SUBPATH = 'shared/';

/** A page file's path under its folder: plain names only, no `..`, no folder, no NUL or backslash. */
export function isPageFilePath(rel: string): boolean {
  const path = rel.replace(/^\/+/, '');
  return /^[\w.-]+(\/[\w.-]+)*$/.test(path) && !path.split('/').some((part) => part === '..' || part.startsWith('.'));
}

/** Headers every page file gets: revalidated each time (pages change with upgrades), never sniffed. */
export const PAGE_FILE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
};
