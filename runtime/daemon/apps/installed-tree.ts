import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { copyTree } from '../../../lib/copy-tree.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWheel } from './build-wheel.js';
import { pruneCache, touchEntry } from '../../../lib/python-apps/files.js';
import { startPipEarly } from './pip-early.js';
import { runCommand, type RunOptions } from '../../../lib/python-apps/run.js';
import { sourceKey } from './wheel-cache.js';

// Every robot of a fleet installs the same app source (one Space revision),
// and what `pip install --no-deps --target <dir> <source>` puts in <dir> does
// not depend on the robot: pure files, dist-info with relative paths,
// bytecode of the same interpreter. So a source is built and pip-installed
// once per machine into a folder of os.tmpdir() keyed like the wheel
// cache (interpreter, flags, content), and each install copies that folder.
// An app with scripts is the exception: pip writes the venv's python into
// their first line, so every robot gets its own pip install.
// Every source revision ever installed would leave a tree behind (issue
// 29.10): the KEPT most recently used stay, the others go (files.ts pruneCache).

const PREFIX = 'robotctl-installed-';
/** Trees kept: one per source revision in use on the machine (apps, the SDK stand-in), with room. */
export const KEPT = 32;
const pending = new Map<string, Promise<string | null>>();

export interface TreeInstall {
  python: string;
  /** The source folder (a clean staging copy). */
  src: string;
  /** pip's flags for the mode (install-deps.ts modeFlags), with --no-deps. */
  flags: string[];
  /** The version folder to fill (it must not exist yet). */
  target: string;
  run: RunOptions;
  /** An update's reinstall: pip builds and installs again, nothing shared is reused. */
  force?: boolean;
}

async function pipInstall(install: TreeInstall, target: string): Promise<void> {
  const args = (what: string): string[] => ['install', ...install.flags, '--target', target, what];
  // With build isolation pip fetches the backend, so pip builds. Without it,
  // pip would import the venv's backend: the wheel is built here instead
  // (build-wheel.ts: one Python process fewer) while pip, started at once,
  // imports itself (pip-early.ts); pip then installs that wheel.
  if (!install.flags.includes('--no-build-isolation')) return pipRun(install, args(install.src));
  const out = await mkdtemp(join(tmpdir(), 'robotctl-wheel-out-'));
  const pip = startPipEarly(install.python, install.run);
  try {
    const wheel = await buildWheel(install.python, install.src, out, install.run);
    await pip.run(args(wheel));
  } finally {
    await pip.cancel();
    await rm(out, { recursive: true, force: true });
  }
}

async function pipRun(install: TreeInstall, args: string[]): Promise<void> {
  install.run.onLine?.(`Running command: ${install.python} -m pip ${args.join(' ')}`);
  await runCommand(install.python, ['-m', 'pip', ...args], install.run);
}

/** The shared installed tree of the source, made now if missing; null when it cannot be shared. */
async function sharedTree(install: TreeInstall, tree: string): Promise<string | null> {
  // A use keeps the entry among the most recently used.
  if (existsSync(tree)) {
    await touchEntry(tree);
    return tree;
  }
  if (existsSync(`${tree}.not-shared`)) {
    await touchEntry(`${tree}.not-shared`);
    return null;
  }
  const building = `${tree}.build-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await pipInstall(install, building);
    if (existsSync(join(building, 'bin'))) {
      await mkdir(`${tree}.not-shared`).catch(() => {});
      await pruneCache(PREFIX, `${tree}.not-shared`, KEPT);
      return null;
    }
    // Another daemon may have installed the same source meanwhile: either is as good.
    await rename(building, tree).catch(() => {});
    await pruneCache(PREFIX, tree, KEPT);
    return tree;
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}

/**
 * The machine's shared tree of what `pip install --target` puts in a folder
 * for this source, made now if missing; null when it cannot be shared (the
 * source has scripts). install.target is not touched.
 */
export async function sharedInstall(install: TreeInstall): Promise<string | null> {
  const tree = join(tmpdir(), `${PREFIX}${await sourceKey(install)}`);
  let p = pending.get(tree);
  const first = !p && !existsSync(tree);
  if (!p) {
    p = sharedTree(install, tree).finally(() => pending.delete(tree));
    pending.set(tree, p);
  }
  const shared = await p;
  if (shared && !first) install.run.onLine?.(`Using the files pip installed earlier from the same source: ${shared}`);
  return shared;
}

/** Fills install.target with what `pip install --target` of the source puts there. */
export async function installSource(install: TreeInstall): Promise<void> {
  if (install.force) return pipInstall({ ...install, flags: [...install.flags, '--force-reinstall'] }, install.target);
  const shared = await sharedInstall(install);
  if (shared && await copiedFrom(shared, install.target)) return;
  await rm(install.target, { recursive: true, force: true });
  await pipInstall(install, install.target);
}

/** Copies a shared tree to target; false when another process's pruning removed it meanwhile (pip then installs instead). */
export async function copiedFrom(shared: string, target: string, opts: { overwrite?: boolean } = {}): Promise<boolean> {
  try {
    await copyTree(shared, target, opts);
    return true;
  } catch (err) {
    if (existsSync(shared)) throw err;
    return false;
  }
}
