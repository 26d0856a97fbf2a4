import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readdir, readFile, readlink, rm, symlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { atomicWrite } from '../atomic-write.js';

// Real Reachy Mini apps import numpy (Pollen's app template does), which the
// real reachy-mini brings as a dependency. Offline, robotctl's stand-in SDK
// cannot bring it, so app venvs see the numpy of Debian's python3-numpy:
// a folder beside the venv holds links to Debian's numpy package and its
// metadata, those only, and a .pth file in the venv's site-packages puts that
// folder on sys.path, after site-packages.
// - Not --system-site-packages: that shows the interpreter's whole own site
//   (the pyenv Python of these machines has hundreds of packages, numpy 2
//   among them, but not Debian's numpy), so an app that forgot a dependency
//   would work here and fail on a robot. The venv stays isolated but for numpy.
// - Beside the venv, not in it: pip counts what lies in the venv as its own,
//   and `pip uninstall numpy` (or an upgrade replacing it) would delete
//   Debian's files through the links (checked: it does). Outside it, pip says
//   "Not uninstalling numpy … outside environment" and puts a newer numpy in
//   site-packages, which comes first on sys.path: with an index, the real
//   reachy-mini brings numpy >= 2.2.5 that way. pip's "in the venv" is a
//   string prefix test, so the folder's path must not start with the venv's
//   (`venv-numpy` beside `venv` would count as inside): numpyLinksFor.
// Debian builds numpy for its own python3 only: the links are made when the
// venv's Python has the same extension-module tag (cpython-311 for 3.11).

/** Debian's folder of python3-* packages, or ROBOTCTL_DIST_PACKAGES (another, or an empty one to check the failure). */
export function distPackagesDir(env: NodeJS.ProcessEnv): string {
  return env.ROBOTCTL_DIST_PACKAGES || '/usr/lib/python3/dist-packages';
}

const PTH = 'robotctl-system-numpy.pth';

/** The folder of links for the venv at venvDir: beside it, under a name its path is not a prefix of. */
export function numpyLinksFor(venvDir: string): string {
  return join(dirname(venvDir), `numpy-links-of-${basename(venvDir)}`);
}

/** The extension-module tag of the venv's Python, from its site-packages path (…/lib/python3.11/site-packages → cpython-311). */
function abiTag(sitePackages: string): string | null {
  const m = /python3\.(\d+)[/\\]site-packages[/\\]?$/.exec(sitePackages);
  return m ? `cpython-3${m[1]}` : null;
}

/** The entries of Debian's numpy (its package folder, its metadata) a Python with this site-packages can load; null when none. */
export function systemNumpyEntries(sitePackages: string, env: NodeJS.ProcessEnv): string[] | null {
  const dir = distPackagesDir(env);
  const tag = abiTag(sitePackages);
  if (!tag || !existsSync(join(dir, 'numpy'))) return null;
  // numpy 1.x keeps its core extension in numpy/core, numpy 2 in numpy/_core.
  const loads = ['core', '_core'].some((core) => {
    const folder = join(dir, 'numpy', core);
    return existsSync(folder) && readdirSync(folder).some((f) => f.startsWith(`_multiarray_umath.${tag}`));
  });
  if (!loads) return null;
  const meta = readdirSync(dir).filter((n) => /^numpy-[^-]+\.(egg|dist)-info$/.test(n));
  return ['numpy', ...meta].map((n) => join(dir, n));
}

/** linkDir holds exactly one link to each target (made or mended in place: a concurrent caller makes the same). */
async function linkAll(linkDir: string, targets: string[]): Promise<void> {
  await mkdir(linkDir, { recursive: true });
  const names = new Map(targets.map((t) => [t.split(/[/\\]/).pop() ?? t, t]));
  for (const name of await readdir(linkDir)) {
    if (!names.has(name)) await rm(join(linkDir, name), { recursive: true, force: true });
  }
  for (const [name, target] of names) {
    const link = join(linkDir, name);
    if ((await readlink(link).catch(() => null)) === target) continue;
    await rm(link, { force: true });
    await symlink(target, link).catch((err: NodeJS.ErrnoException) => { if (err.code !== 'EEXIST') throw err; });
  }
}

/**
 * Makes Debian's numpy visible in the venv whose site-packages is given,
 * through linkDir (a folder outside the venv). True when it is; false, with
 * no .pth left behind, when this machine has no numpy this Python can load.
 */
export async function exposeSystemNumpy(sitePackages: string, linkDir: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const entries = systemNumpyEntries(sitePackages, env);
  const pth = join(sitePackages, PTH);
  if (!entries) {
    await rm(pth, { force: true });
    return false;
  }
  await linkAll(linkDir, entries);
  if ((await readFile(pth, 'utf8').catch(() => '')) !== `${linkDir}\n`) await atomicWrite(pth, `${linkDir}\n`);
  return true;
}

/** The folders the .pth above puts on the venv's path (none when numpy is not exposed). */
export async function systemNumpyDirs(sitePackages: string): Promise<string[]> {
  const line = (await readFile(join(sitePackages, PTH), 'utf8').catch(() => '')).split(/\r?\n/)[0]?.trim();
  return line ? [line] : [];
}
