import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

// Installed apps are the entry points of group `reachy_mini_apps` (spec §3),
// read straight from the *.dist-info/entry_points.txt files on the venv's
// path: site-packages plus the version folders our .pth files point at.
// Reading them here costs a few ms instead of a Python start-up per listing.

export const GROUP = 'reachy_mini_apps';
export const PTH_PREFIX = 'robotctl-app-';

export interface EntryPoint {
  /** Entry-point name (may differ from the Space name, issue #717). */
  name: string;
  /** `<pkg>.main`, what the daemon runs with `python -m`. */
  module: string;
  attr: string;
  /** Distribution name from the dist-info folder. */
  dist: string;
  /** Folder holding the dist-info (site-packages or a version folder). */
  location: string;
}

export function parseEntryPoints(text: string, group = GROUP): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  let inGroup = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      inGroup = section[1]?.trim() === group;
      continue;
    }
    const eq = line.indexOf('=');
    if (inGroup && eq > 0) out.push({ name: line.slice(0, eq).trim(), value: line.slice(eq + 1).trim() });
  }
  return out;
}

async function scanDir(dir: string): Promise<EntryPoint[]> {
  if (!existsSync(dir)) return [];
  const out: EntryPoint[] = [];
  for (const d of await readdir(dir)) {
    if (!d.endsWith('.dist-info')) continue;
    const file = join(dir, d, 'entry_points.txt');
    if (!existsSync(file)) continue;
    const dist = d.replace(/\.dist-info$/, '').replace(/-[^-]*$/, '');
    for (const { name, value } of parseEntryPoints(await readFile(file, 'utf8'))) {
      const [module = '', attr = ''] = value.split(':').map((s) => s.trim());
      if (module) out.push({ name, module, attr: attr.split(/\s/)[0] ?? '', dist, location: dir });
    }
  }
  return out;
}

/** Folders our .pth files put on sys.path. */
export async function pthDirs(sitePackages: string): Promise<string[]> {
  if (!existsSync(sitePackages)) return [];
  const out: string[] = [];
  for (const f of await readdir(sitePackages)) {
    if (!f.startsWith(PTH_PREFIX) || !f.endsWith('.pth')) continue;
    const line = (await readFile(join(sitePackages, f), 'utf8')).split(/\r?\n/)[0]?.trim();
    if (line) out.push(line);
  }
  return out;
}

export async function scanEntryPoints(sitePackages: string): Promise<EntryPoint[]> {
  const dirs = [sitePackages, ...(await pthDirs(sitePackages))];
  return (await Promise.all(dirs.map(scanDir))).flat();
}

/** Entry points declared by one installed version folder. */
export function entryPointsIn(dir: string): Promise<EntryPoint[]> {
  return scanDir(dir);
}
