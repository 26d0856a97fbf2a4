import { createHash, randomBytes } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pruneCache, touchEntry, treeHash } from '../../../lib/python-apps/files.js';
import { runCommand, type RunOptions } from '../../../lib/python-apps/run.js';

// Building a wheel (setuptools) is most of an install's CPU, and the same
// source is installed again and again (apps and the SDK stand-in mostly go
// through installed-tree.ts, which shares the installed files; this cache
// serves the installs that cannot share them). A source is built once
// into a wheel kept in os.tmpdir(), keyed by its content, the interpreter and
// the build flags (like the venv template, lib/python-apps/apps-venv.ts); each install is then
// `pip install <wheel>`, which runs no build backend. What lands in the venv
// is what `pip install <folder>` would put there.

const PREFIX = 'robotctl-wheel-';
/** Wheels kept (the most recently used): one per source revision in use, with room. */
const KEPT = 32;
const pending = new Map<string, Promise<string>>();

export interface WheelBuild {
  /** The venv's python: its interpreter (resolved) is part of the key. */
  python: string;
  /** The source folder (a clean staging copy). */
  src: string;
  /** pip's index and isolation flags for this mode (install-deps.ts modeFlags). */
  flags: string[];
  run: RunOptions;
}

/** The wheel built from `src`, from the cache or built now. */
export async function wheelFor(build: WheelBuild): Promise<string> {
  const dir = join(tmpdir(), `${PREFIX}${await sourceKey(build)}`);
  let p = pending.get(dir);
  if (!p) {
    p = cachedOrBuilt(dir, build).finally(() => pending.delete(dir));
    pending.set(dir, p);
  }
  return p;
}

/** What a build from this source gives depends on: the interpreter (resolved), pip's flags, the source's content. */
export async function sourceKey(build: Pick<WheelBuild, 'python' | 'src' | 'flags'>): Promise<string> {
  return createHash('sha256')
    .update(`${interpreter(build.python)}\n${build.flags.join(' ')}\n${await treeHash(build.src)}`)
    .digest('hex').slice(0, 24);
}

function interpreter(python: string): string {
  try {
    return realpathSync(python);
  } catch {
    return python;
  }
}

async function theWheel(dir: string): Promise<string | null> {
  if (!existsSync(dir)) return null;
  const name = (await readdir(dir)).find((n) => n.endsWith('.whl'));
  return name ? join(dir, name) : null;
}

async function cachedOrBuilt(dir: string, build: WheelBuild): Promise<string> {
  const hit = await theWheel(dir);
  if (hit) {
    build.run.onLine?.(`Using the wheel built earlier from the same source: ${hit}`);
    await touchEntry(dir);
    return hit;
  }
  const building = `${dir}.build-${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(building, { recursive: true });
  try {
    const args = ['-m', 'pip', 'wheel', ...build.flags, '--no-deps', '-w', building, build.src];
    build.run.onLine?.(`Running command: ${build.python} ${args.join(' ')}`);
    await runCommand(build.python, args, build.run);
    if (!(await theWheel(building))) throw new Error(`pip wheel made no wheel from ${build.src}`);
    // Another daemon may have built the same wheel meanwhile: either is as good.
    await rename(building, dir).catch(() => rm(building, { recursive: true, force: true }));
  } catch (err) {
    await rm(building, { recursive: true, force: true });
    throw err;
  }
  await pruneCache(PREFIX, dir, KEPT);
  const built = await theWheel(dir);
  if (!built) throw new Error(`the wheel cache ${dir} lost its wheel`);
  return built;
}

