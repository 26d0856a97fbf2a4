import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runCommand, type RunOptions } from './run.js';

// `pip install --no-deps --target <dir> <wheel>` starts pip (about a second
// of CPU) to unpack a few files, and every robot of a fleet installs the same
// wheel. Its result does not depend on the robot: pure files, dist-info with
// relative paths, bytecode of the same interpreter (the wheel cache's key).
// So pip installs a wheel once, into a folder beside the wheel in the cache,
// and each install copies that folder. A wheel with scripts is the exception:
// pip writes the venv's python into their first line, so every robot gets its
// own pip install.

const pending = new Map<string, Promise<string | null>>();

export interface TreeInstall {
  python: string;
  /** The cached wheel (wheel-cache.ts): the installed tree is kept in its folder. */
  wheel: string;
  /** pip's flags for the mode, before --target. */
  flags: string[];
  /** The version folder to fill (it must not exist yet). */
  target: string;
  run: RunOptions;
}

function pipArgs(install: TreeInstall, target: string): string[] {
  return ['-m', 'pip', 'install', ...install.flags, '--target', target, install.wheel];
}

async function pipInstall(install: TreeInstall, target: string): Promise<void> {
  const args = pipArgs(install, target);
  install.run.onLine?.(`Running command: ${install.python} ${args.join(' ')}`);
  await runCommand(install.python, args, install.run);
}

/** The shared installed tree of the wheel, made now if missing; null when it cannot be shared. */
async function sharedTree(install: TreeInstall): Promise<string | null> {
  const tree = join(dirname(install.wheel), 'installed');
  if (existsSync(tree)) return tree;
  if (existsSync(`${tree}.not-shared`)) return null;
  const building = `${tree}.build-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await pipInstall(install, building);
    if (existsSync(join(building, 'bin'))) {
      await mkdir(`${tree}.not-shared`).catch(() => {});
      return null;
    }
    // Another daemon may have installed the same wheel meanwhile: either is as good.
    await rename(building, tree).catch(() => {});
    return tree;
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}

/** Fills install.target with what `pip install --target` puts there. */
export async function installWheel(install: TreeInstall): Promise<void> {
  const key = join(dirname(install.wheel), 'installed');
  let p = pending.get(key);
  const first = !p && !existsSync(key);
  if (!p) {
    p = sharedTree(install).finally(() => pending.delete(key));
    pending.set(key, p);
  }
  const tree = await p;
  if (!tree) return pipInstall(install, install.target);
  if (!first) install.run.onLine?.(`Using the files pip installed earlier from the same wheel: ${tree}`);
  await cp(tree, install.target, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
}
