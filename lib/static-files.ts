import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import type { ServerResponse } from 'node:http';

// Serves the files of a page folder (fleet page, robot dashboard): no
// directory listing, nothing outside the folder, only known file types.

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
};

export interface StaticFile {
  body: Buffer;
  contentType: string;
}

/** The file `rel` under `root`, or null when it is absent, outside root or of an unknown type. */
export async function readStatic(root: string, rel: string): Promise<StaticFile | null> {
  let decoded: string;
  try { decoded = decodeURIComponent(rel); } catch { return null; }
  if (decoded.includes('\0')) return null;
  const base = resolve(root);
  const full = resolve(base, `.${sep}${decoded.replace(/^[/\\]+/, '')}`);
  if (!full.startsWith(base + sep)) return null;
  const contentType = TYPES[extname(full).toLowerCase()];
  if (!contentType) return null;
  try {
    if (!(await stat(full)).isFile()) return null;
    return { body: await readFile(full), contentType };
  } catch {
    return null;
  }
}

/** Headers every page file gets: no caching (pages change with upgrades), no sniffing. */
export function staticHeaders(file: StaticFile): Record<string, string> {
  return {
    'content-type': file.contentType,
    'content-length': String(file.body.length),
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  };
}

export function sendStatic(res: ServerResponse, file: StaticFile, method = 'GET'): void {
  res.writeHead(200, staticHeaders(file));
  res.end(method === 'HEAD' ? undefined : file.body);
}
