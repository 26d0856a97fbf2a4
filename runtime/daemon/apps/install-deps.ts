import { stagingCopy } from '../../../lib/python-apps/files.js';
import { copiedFrom, sharedInstall } from './installed-tree.js';
import { missingRequirements } from './deps.js';
import { normName } from '../../../lib/python-apps/names.js';
import type { IndexMode } from '../../../lib/python-apps/package-index.js';
import { pipEnv, runCommand } from '../../../lib/python-apps/run.js';
import type { Venv } from '../../../lib/python-apps/venv.js';
import { sdkDir, sdkIsStandIn } from '../../../lib/python-apps/sdk.js';
import { wheelFor } from './wheel-cache.js';

// An app's declared dependencies go into the apps venv next to it, as the
// real daemon's `pip install <app>` does, with pip's own configuration
// (PIP_INDEX_URL, PIP_FIND_LINKS, …) from the daemon's environment. Offline,
// pip gets --no-index; a `reachy-mini` it cannot find there is replaced by
// the stand-in shipped in sdk/python (same import names, same /ws/sdk
// protocol), and other dependencies it cannot find are named in the job log.

export interface PipContext {
  venv: Venv;
  mode: IndexMode;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  marker?: string;
  log: (line: string) => void;
}

export const REAL_SDK = 'reachy_mini';

/** pip flags for the mode: offline builds use the venv's setuptools and wheel. */
export function modeFlags(mode: IndexMode): string[] {
  return mode.online ? [] : ['--no-index', '--no-build-isolation'];
}

export async function pip(ctx: PipContext, args: string[]): Promise<void> {
  ctx.log(`Running command: ${ctx.venv.python} -m pip ${args.join(' ')}`);
  await runCommand(ctx.venv.python, ['-m', 'pip', ...args], { onLine: ctx.log, signal: ctx.signal, marker: ctx.marker, env: pipEnv(ctx.env) });
}

// The stand-in is pure Python with no scripts, so what pip puts in a venv's
// site-packages is what `pip install --target` puts in a folder: that tree is
// made once per machine (installed-tree.ts) and copied into each venv, as
// pip would write it (over any file already there). Measured in the test
// suite: eleven venvs, each a pip run of about 1-2 s of CPU, before.
export async function installStandIn(ctx: PipContext, force = false): Promise<void> {
  ctx.log(`reachy-mini cannot be installed offline: installing robotctl's stand-in from ${sdkDir()} (import name reachy_mini, same /ws/sdk protocol)`);
  const stage = await stagingCopy(sdkDir(), 'standin');
  try {
    const offline = ['--no-index', '--no-build-isolation'];
    const flags = [...offline, '--no-deps'];
    const run = { onLine: ctx.log, signal: ctx.signal, marker: ctx.marker, env: pipEnv(ctx.env) };
    const tree = force ? null : await sharedInstall({ python: ctx.venv.python, src: stage.dir, flags, target: ctx.venv.sitePackages, run });
    if (tree && await copiedFrom(tree, ctx.venv.sitePackages, { overwrite: true })) return;
    const wheel = await wheelFor({ python: ctx.venv.python, src: stage.dir, flags: offline, run });
    await pip(ctx, ['install', ...flags, ...(force ? ['--force-reinstall'] : []), wheel]);
  } finally {
    await stage.cleanup();
  }
}

/**
 * The stand-in declares numpy, as the real reachy-mini does, and is installed
 * without its dependencies: offline, only Debian's numpy can meet that
 * (lib/python-apps/system-numpy.ts), so its absence is said here, once per install.
 */
async function standInNeeds(ctx: PipContext): Promise<void> {
  const needs = await missingRequirements(ctx.venv.sitePackages, ctx.venv.sitePackages, REAL_SDK);
  if (needs.length === 0) return;
  const names = needs.map((r) => r.name).join(', ');
  ctx.log(`Warning: reachy-mini's dependency ${names} cannot be installed offline and this machine has none for the apps' Python: apps that import it will fail to start. Fix: apt-get install python3-numpy`);
}

export async function installDependencies(ctx: PipContext, app: string, versionDir: string): Promise<void> {
  let missing = await missingRequirements(versionDir, ctx.venv.sitePackages);
  if (missing.length === 0) return;
  if (!ctx.mode.online && missing.some((r) => normName(r.name) === REAL_SDK) && sdkIsStandIn()) {
    await installStandIn(ctx);
    missing = missing.filter((r) => normName(r.name) !== REAL_SDK);
    await standInNeeds(ctx);
  }
  if (missing.length === 0) return;
  try {
    await pip(ctx, ['install', ...modeFlags(ctx.mode), ...missing.map((r) => r.spec)]);
  } catch (err) {
    if (ctx.mode.online) throw err;
    ctx.log(`Warning: '${app}' depends on ${missing.map((r) => r.name).join(', ')}, not installed (offline install without dependencies): the app may fail to start`);
  }
}
