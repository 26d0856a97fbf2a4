import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { InstalledApp } from './apps/store.js';

// The installed-apps list, read again only when a folder it comes from has
// changed. Reading it means a dozen file reads (entry points of every
// dist-info in the venv and in each installed version, plus the metadata
// records): most of a drift check's cost on the daemon, which asks for the
// list of every robot. Installs, removals and updates add or rename entries
// in those folders (new version folders, .pth switched by rename, records
// written by rename), so their modification times say when to read again.
// File times are coarse (a few ms): a list read within RACY_MS of a change
// is not trusted (git's "racily clean" rule).

const RACY_MS = 100;

interface Entry {
  site: string | null;
  stamp: string;
  apps: InstalledApp[];
}

function mtimeNs(path: string): bigint {
  return statSync(path, { bigint: true, throwIfNoEntry: false })?.mtimeNs ?? -1n;
}

/** The folders whose entries make up the list: records, site-packages, every version folder on the path. */
function folders(appsDir: string, site: string | null, apps: InstalledApp[]): string[] {
  const dirs = new Set([join(appsDir, 'meta'), ...(site ? [site] : []), ...apps.map((a) => a.entry.location)]);
  return [...dirs].sort();
}

function stampOf(dirs: string[]): { stamp: string; newest: bigint } {
  let newest = -1n;
  const parts = dirs.map((d) => {
    const t = mtimeNs(d);
    if (t > newest) newest = t;
    return `${d}=${t}`;
  });
  return { stamp: parts.join('\n'), newest };
}

export function installedCache(
  appsDir: string,
  sitePackages: () => Promise<string | null>,
  read: (site: string | null) => Promise<InstalledApp[]>,
): () => Promise<InstalledApp[]> {
  let kept: Entry | null = null;
  return async () => {
    const site = await sitePackages();
    if (kept && kept.site === site && stampOf(folders(appsDir, site, kept.apps)).stamp === kept.stamp) return kept.apps;
    const before = stampOf(folders(appsDir, site, []));
    const apps = await read(site);
    const after = stampOf(folders(appsDir, site, apps));
    const racy = Number(BigInt(Date.now()) * 1_000_000n - after.newest) / 1e6 < RACY_MS;
    // Kept only if nothing changed while it was read, and not changed too recently to tell.
    const stable = stampOf(folders(appsDir, site, [])).stamp === before.stamp;
    kept = stable && !racy ? { site, stamp: after.stamp, apps } : null;
    return apps;
  };
}
