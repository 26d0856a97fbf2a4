// What the two page servers agree on: the daemon's dashboard (@fastify/send in fastify)
// and the agent's fleet page (@fastify/send on node:http). The libraries keep
// every path inside the page folder; these rules only make everything else a
// plain 404 instead of a 400/403 that differs between the two.

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
