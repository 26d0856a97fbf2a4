import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pthDirs } from './entry-points.js';

// Apps install offline with --no-deps: name the dependencies an app declares
// that the apps environment lacks, so the job log says why it may not start.

const norm = (n: string): string => n.toLowerCase().replace(/[-_.]+/g, '_');

async function distNames(dir: string): Promise<Set<string>> {
  const out = new Set<string>();
  if (!existsSync(dir)) return out;
  for (const d of await readdir(dir)) {
    if (d.endsWith('.dist-info') || d.endsWith('.egg-info')) out.add(norm(d.replace(/\.(dist|egg)-info$/, '').replace(/-[^-]*$/, '')));
  }
  return out;
}

/** Requires-Dist names (without extras-only ones) of the distributions in dir. */
async function required(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const d of await readdir(dir)) {
    const meta = join(dir, d, 'METADATA');
    if (!d.endsWith('.dist-info') || !existsSync(meta)) continue;
    for (const line of (await readFile(meta, 'utf8')).split(/\r?\n/)) {
      const m = /^Requires-Dist:\s*([A-Za-z0-9._-]+)(.*)$/.exec(line);
      if (m?.[1] && !/extra\s*==/.test(m[2] ?? '')) out.push(m[1]);
    }
  }
  return out;
}

export async function missingDependencies(versionDir: string, sitePackages: string): Promise<string[]> {
  const have = new Set<string>();
  for (const dir of [versionDir, sitePackages, ...(await pthDirs(sitePackages))]) {
    for (const n of await distNames(dir)) have.add(n);
  }
  return [...new Set(await required(versionDir))].filter((r) => !have.has(norm(r)));
}
