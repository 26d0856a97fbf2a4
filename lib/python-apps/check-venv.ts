import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pythonCommand, runProcess, tail, type ProcessResult } from './process.js';
import { findWheelFile, WHEEL_FIX } from './wheel-file.js';
import { venvFailure } from './venv-failure.js';

export class VenvError extends Error {}

export interface Venv {
  dir: string;
  python: string;
  env: NodeJS.ProcessEnv;
}

export function venvPython(dir: string): string {
  return process.platform === 'win32' ? join(dir, 'Scripts', 'python.exe') : join(dir, 'bin', 'python');
}

/** Online, pip keeps its own configuration (PIP_INDEX_URL, PIP_FIND_LINKS…); offline it never reaches for an index. */
function quietPipEnv(env: NodeJS.ProcessEnv, online = false): NodeJS.ProcessEnv {
  const quiet = { ...env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1', PYTHONDONTWRITEBYTECODE: '1' };
  return online ? quiet : { ...quiet, PIP_NO_INDEX: '1' };
}

export function pip(venv: Venv, args: string[]): Promise<ProcessResult> {
  return runProcess(venv.python, ['-m', 'pip', ...args], { env: venv.env });
}

/** Offline, the app's `reachy-mini` dependency is met by robotctl's stand-in (sdk/python). */
async function installStandIn(venv: Venv, standIn: string): Promise<void> {
  const copy = `${venv.dir}-standin-src`;
  copySource(standIn, copy);
  try {
    const r = await pip(venv, ['install', '--no-index', '--no-build-isolation', copy]);
    if (r.code !== 0) throw new VenvError(`Cannot install the reachy_mini stand-in: ${tail(r.stderr || r.stdout, 3)}`);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** A fresh venv at `dir` that can build and install apps with no index (and the stand-in when given). */
async function buildVenv(dir: string, env: NodeJS.ProcessEnv, standIn: string | null): Promise<void> {
  await buildTools(dir, env);
  if (standIn) await installStandIn({ dir, python: venvPython(dir), env: quietPipEnv(env) }, standIn);
}

async function buildTools(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  await makeVenv(env, [dir]);
  const venv: Venv = { dir, python: venvPython(dir), env: quietPipEnv(env) };
  const wheel = findWheelFile(env);
  if (wheel) {
    const r = await pip(venv, ['install', '--no-index', wheel]);
    if (r.code !== 0) throw new VenvError(`Cannot install ${basename(wheel)} in the temporary venv: ${tail(r.stderr || r.stdout, 3)}`);
    return;
  }
  const probe = await runProcess(venv.python, ['-c', 'import wheel'], { env });
  if (probe.code !== 0) {
    throw new VenvError(`The Python package 'wheel' is needed to install apps offline: install it (Debian: ${WHEEL_FIX}).`);
  }
}

/** `python -m venv ARGS`, or a VenvError that tells an interruption from a Python without venv. */
async function makeVenv(env: NodeJS.ProcessEnv, args: string[]): Promise<void> {
  const python = pythonCommand(env);
  const made = await runProcess(python, ['-m', 'venv', ...args], { env });
  if (made.code !== 0) throw new VenvError(venvFailure(python, { signal: made.signal, detail: tail(made.stderr || made.stdout, 3) }));
}

/**
 * A temporary venv for `app check`, removed by `dispose`. With
 * ROBOTCTL_CHECK_VENV_CACHE set, a base venv with pip, setuptools and wheel is
 * built once in that folder; each check then makes its own empty venv
 * (`--without-pip`, ~50 ms) that sees the base's tools through a .pth file.
 * The app is installed into, and uninstalled from, that fresh venv only, so
 * one check never sees another's install and the base stays pristine.
 */
export async function temporaryVenv(env: NodeJS.ProcessEnv, opts: { online: boolean; standIn: string | null }): Promise<{ venv: Venv; tmp: string; dispose: () => void }> {
  // The command's own TMPDIR (an in-process run may be given one), else the OS's.
  const tmp = mkdtempSync(join(env.TMPDIR || tmpdir(), 'robotctl-check-'));
  const dispose = (): void => rmSync(tmp, { recursive: true, force: true });
  try {
    const dir = join(tmp, 'venv');
    const cache = env.ROBOTCTL_CHECK_VENV_CACHE;
    if (cache) await thinVenv(await cachedBase(cache, env, opts.standIn), dir, env);
    else await buildVenv(dir, env, opts.standIn);
    return { venv: { dir, python: venvPython(dir), env: quietPipEnv(env, opts.online) }, tmp, dispose };
  } catch (err) {
    dispose();
    throw err;
  }
}

async function purelib(python: string, env: NodeJS.ProcessEnv): Promise<string> {
  const r = await runProcess(python, ['-c', "import sysconfig; print(sysconfig.get_path('purelib'))"], { env });
  if (r.code !== 0) throw new VenvError(`Cannot inspect the virtual environment ${python}: ${tail(r.stderr, 3)}`);
  return r.stdout.trim();
}

async function thinVenv(base: string, dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  await makeVenv(env, ['--without-pip', dir]);
  const [own, shared] = await Promise.all([purelib(venvPython(dir), env), purelib(venvPython(base), env)]);
  // addsitedir (not a bare path) so the base's own .pth files apply too.
  writeFileSync(join(own, 'robotctl-check-base.pth'), `import site; site.addsitedir(${JSON.stringify(shared)})\n`);
}

async function cachedBase(cache: string, env: NodeJS.ProcessEnv, standIn: string | null): Promise<string> {
  // Keyed by interpreter (a thin venv must run the Python its base was made with) and by stand-in or not.
  const key = createHash('sha256').update(pythonCommand(env)).digest('hex').slice(0, 12);
  const base = join(cache, `base-venv-${key}${standIn ? '-standin' : ''}`);
  if (existsSync(venvPython(base))) return base;
  mkdirSync(cache, { recursive: true });
  const building = mkdtempSync(join(cache, 'building-'));
  try {
    await buildVenv(join(building, 'venv'), env, standIn);
    // Atomic publish: a concurrent check that won the race keeps its copy.
    if (!existsSync(base)) renameSync(join(building, 'venv'), base);
  } catch (err) {
    if (!existsSync(venvPython(base))) throw err;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return base;
}

// By-products of earlier builds and local environments never go to pip.
const SKIP = new Set(['__pycache__', 'build', 'dist', '.git', '.venv', 'venv', '.mypy_cache', '.pytest_cache', 'node_modules']);

/** Copy the app next to the venv so pip's in-tree build leaves the user's folder untouched. */
export function copySource(root: string, dest: string): void {
  cpSync(root, dest, {
    recursive: true,
    filter: (src) => {
      const name = basename(src);
      return src === root || (!SKIP.has(name) && !name.endsWith('.egg-info'));
    },
  });
}
