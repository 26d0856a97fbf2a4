import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pthDirs } from './entry-points.js';
import { normName } from '../../../lib/python-apps/names.js';
import { systemNumpyDirs } from '../../../lib/python-apps/system-numpy.js';

// The dependencies an installed app declares that the apps environment
// lacks: what pip must install next to it, or, offline, what the job log
// names when they cannot be found.


async function distNames(dir: string): Promise<Set<string>> {
  const out = new Set<string>();
  if (!existsSync(dir)) return out;
  for (const d of await readdir(dir)) {
    if (d.endsWith('.dist-info') || d.endsWith('.egg-info')) out.add(normName(d.replace(/\.(dist|egg)-info$/, '').replace(/-[^-]*$/, '')));
  }
  return out;
}

/** Requires-Dist requirements (without extras-only ones) of the distributions in dir (or of the one named `dist`). */
export async function declaredRequirements(dir: string, dist?: string): Promise<{ name: string; spec: string }[]> {
  const out: { name: string; spec: string }[] = [];
  for (const d of await readdir(dir)) {
    const meta = join(dir, d, 'METADATA');
    if (!d.endsWith('.dist-info') || !existsSync(meta)) continue;
    if (dist !== undefined && normName(d.replace(/-[^-]*\.dist-info$/, '')) !== dist) continue;
    for (const line of (await readFile(meta, 'utf8')).split(/\r?\n/)) {
      const m = /^Requires-Dist:\s*([A-Za-z0-9._-]+)(.*)$/.exec(line);
      if (m?.[1] && !/extra\s*==/.test(m[2] ?? '')) out.push({ name: m[1], spec: `${m[1]}${m[2] ?? ''}`.trim() });
    }
  }
  return out;
}

/** Requirement strings (`name>=1; marker`) of versionDir's distributions (or of the one named `dist`) that no folder on the venv's path provides. */
export async function missingRequirements(versionDir: string, sitePackages: string, dist?: string): Promise<{ name: string; spec: string }[]> {
  const have = new Set<string>();
  for (const dir of [versionDir, sitePackages, ...(await pthDirs(sitePackages)), ...(await systemNumpyDirs(sitePackages))]) {
    for (const n of await distNames(dir)) have.add(n);
  }
  const seen = new Set<string>();
  return (await declaredRequirements(versionDir, dist)).filter((r) => !have.has(normName(r.name)) && !seen.has(r.spec) && seen.add(r.spec));
}
