import { createHash } from 'node:crypto';
import { cpSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';

// File helpers for installs: clean staging copies (pip builds in-tree, so we
// never build inside a user's folder), content hashes, caches in the temp folder.

// By-products of earlier builds and local environments never go to pip.
const SKIP = new Set(['__pycache__', 'build', 'dist', '.git', '.venv', 'venv', 'node_modules', '.mypy_cache', '.pytest_cache']);

function skipped(name: string): boolean {
  return SKIP.has(name) || name.endsWith('.egg-info');
}

/** Copy an app's source to dest (which must not exist) without its by-products, for pip to build there. */
export function copySource(root: string, dest: string): void {
  cpSync(root, dest, { recursive: true, filter: (src) => src === root || !skipped(basename(src)) });
}

export async function stagingCopy(src: string, prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), `robotctl-${prefix}-`));
  const dir = join(root, basename(src) || 'src');
  await cp(src, dir, { recursive: true, filter: (s) => s === src || !skipped(basename(s)) });
  return { dir, cleanup: () => rm(root, { recursive: true, force: true }) };
}

async function listFiles(dir: string, root = dir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (skipped(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(p, root)));
    else if (e.isFile()) out.push(relative(root, p));
  }
  return out.sort();
}

export async function treeHash(dir: string): Promise<string> {
  const h = createHash('sha256');
  for (const f of await listFiles(dir)) {
    h.update(f).update('\0').update(await readFile(join(dir, f))).update('\0');
  }
  return h.digest('hex');
}

export async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

const DAY_MS = 86_400_000;

/** Marks a cache entry used now: pruneCache keeps the most recently used. */
export async function touchEntry(path: string): Promise<void> {
  const now = new Date();
  await utimes(path, now, now).catch(() => {});
}

/**
 * Bounds a cache kept in os.tmpdir() as entries named `prefix…`: those
 * unused for a day go, and beyond the maxEntries most recently used (each
 * use touches its entry) the older ones go too. `keep` (just made or used)
 * always stays. A build (`….build-…`) is another process's until it is a
 * day old: then it was aborted and goes. An entry another process was about
 * to copy may go meanwhile: its users fall back to building it
 * (runtime/daemon/apps/installed-tree.ts).
 */
export async function pruneCache(prefix: string, keep: string, maxEntries: number): Promise<void> {
  const dayAgo = Date.now() - DAY_MS;
  const entries: { path: string; used: number }[] = [];
  for (const name of await readdir(tmpdir()).catch(() => [] as string[])) {
    const path = join(tmpdir(), name);
    if (!name.startsWith(prefix) || path === keep) continue;
    const st = await stat(path).catch(() => null);
    if (!st) continue;
    if (st.mtimeMs < dayAgo) await rm(path, { recursive: true, force: true }).catch(() => {});
    else if (!name.includes('.build-')) entries.push({ path, used: st.mtimeMs });
  }
  entries.sort((a, b) => b.used - a.used);
  for (const old of entries.slice(Math.max(0, maxEntries - 1))) await rm(old.path, { recursive: true, force: true }).catch(() => {});
}
