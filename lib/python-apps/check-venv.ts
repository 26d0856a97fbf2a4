import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { CommandError, pipEnv, type RunOptions } from './run.js';
import { copyTree } from '../copy-tree.js';
import { venvTemplate } from './apps-venv.js';
import { runProcess, tail, type ProcessResult } from './process.js';
import { findWheelFile, WHEEL_FIX } from './wheel-file.js';
import { makeVenv, VenvError, type Venv } from './venv.js';
import { pythonCommand, sitePackagesOf, venvPython } from './python.js';
import { exposeSystemNumpy, numpyLinksFor } from './system-numpy.js';
import { copySource } from './files.js';

export { VenvError } from './venv.js';

/** `app check`'s venv, with the environment its pip runs in. */
export interface CheckVenv extends Venv {
  env: NodeJS.ProcessEnv;
}

export function pip(venv: CheckVenv, args: string[]): Promise<ProcessResult> {
  return runProcess(venv.python, ['-m', 'pip', ...args], { env: venv.env });
}

/** In the command's own process group: a Ctrl-C in the terminal reaches python as it reaches robotctl. */
function cliRun(env: NodeJS.ProcessEnv): RunOptions {
  return { env, ownGroup: false };
}

/** Offline, the app's `reachy-mini` dependency is met by robotctl's stand-in (sdk/python). */
async function installStandIn(venv: CheckVenv, standIn: string, numpy: boolean): Promise<void> {
  const copy = `${venv.dir}-standin-src`;
  copySource(standIn, copy);
  try {
    const r = await pip(venv, ['install', '--no-index', '--no-build-isolation', copy]);
    if (r.code === 0) return;
    // The stand-in, like the real reachy-mini, brings numpy: offline, only Debian's can be it.
    if (!numpy && /numpy/.test(r.stderr)) throw new VenvError("Offline, apps need numpy (reachy-mini brings it) and this machine has none for this Python: install Debian's (apt-get install python3-numpy).");
    throw new VenvError(`Cannot install the reachy_mini stand-in: ${tail(r.stderr || r.stdout, 3)}`);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * A fresh venv at `dir` that can build and install apps with no index (and
 * the stand-in when given): a copy of the machine's venv template, the one
 * the daemon's apps venvs are copied from; Debian's numpy seen through linkDir.
 */
async function buildVenv(dir: string, env: NodeJS.ProcessEnv, standIn: string | null, linkDir: string): Promise<void> {
  await copyTree(await template(env), dir);
  const venv: CheckVenv = { dir, python: venvPython(dir), sitePackages: await sitePackagesOf(dir), env: pipEnv(env, { offline: true }) };
  await haveWheel(venv, env);
  const numpy = await exposeSystemNumpy(venv.sitePackages, linkDir, env);
  if (standIn) await installStandIn(venv, standIn, numpy);
}

async function template(env: NodeJS.ProcessEnv): Promise<string> {
  try {
    return await venvTemplate(pythonCommand(env), env, { ownGroup: false });
  } catch (err) {
    if (!(err instanceof CommandError)) throw err;
    throw new VenvError(`Cannot install ${basename(findWheelFile(env) ?? 'wheel')} in the temporary venv: ${err.tail.slice(-3).join('\n')}`);
  }
}

/** Without its local file the template has no wheel tool: this Python may bring its own, else say what to install. */
async function haveWheel(venv: CheckVenv, env: NodeJS.ProcessEnv): Promise<void> {
  if (findWheelFile(env)) return;
  const probe = await runProcess(venv.python, ['-c', 'import wheel'], { env });
  if (probe.code !== 0) {
    throw new VenvError(`The Python package 'wheel' is needed to install apps offline: install it (Debian: ${WHEEL_FIX}).`);
  }
}

/**
 * A temporary venv for `app check`, removed by `dispose`. With
 * ROBOTCTL_CHECK_VENV_CACHE set, a base venv with pip, setuptools and wheel is
 * built once in that folder; each check then makes its own empty venv
 * (`--without-pip`, ~50 ms) that sees the base's tools through a .pth file.
 * The app is installed into, and uninstalled from, that fresh venv only, so
 * one check never sees another's install and the base stays pristine.
 */
export async function temporaryVenv(env: NodeJS.ProcessEnv, opts: { online: boolean; standIn: string | null }): Promise<{ venv: CheckVenv; tmp: string; dispose: () => void }> {
  // The command's own TMPDIR (an in-process run may be given one), else the OS's.
  const tmp = mkdtempSync(join(env.TMPDIR || tmpdir(), 'robotctl-check-'));
  const dispose = (): void => rmSync(tmp, { recursive: true, force: true });
  try {
    const dir = join(tmp, 'venv');
    const cache = env.ROBOTCTL_CHECK_VENV_CACHE;
    if (cache) await thinVenv(await cachedBase(cache, env, opts.standIn), dir, env);
    else await buildVenv(dir, env, opts.standIn, numpyLinksFor(dir));
    return { venv: { dir, python: venvPython(dir), sitePackages: await sitePackagesOf(dir), env: pipEnv(env, { offline: !opts.online }) }, tmp, dispose };
  } catch (err) {
    dispose();
    throw err;
  }
}

async function thinVenv(base: string, dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  await makeVenv(pythonCommand(env), ['--without-pip', dir], cliRun(env));
  const [own, shared] = await Promise.all([sitePackagesOf(dir), sitePackagesOf(base)]);
  // addsitedir (not a bare path) so the base's own .pth files apply too (Debian's numpy among them).
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
    // The numpy links are made where the base will be: its .pth names them from the start.
    await buildVenv(join(building, 'venv'), env, standIn, numpyLinksFor(base));
    // Atomic publish: a concurrent check that won the race keeps its copy.
    if (!existsSync(base)) renameSync(join(building, 'venv'), base);
  } catch (err) {
    if (!existsSync(venvPython(base))) throw err;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return base;
}
