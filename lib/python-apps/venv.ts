import { CommandError, runCommand, type RunOptions } from './run.js';
import { venvFailure } from './venv-failure.js';
import { findWheelFile } from './wheel-file.js';

// What every venv the toolchain makes starts with (the template of
// apps-venv.ts, which the daemon's and `app check`'s venvs copy; the thin
// venvs of check-venv.ts): `python -m venv`, then, for offline builds, the
// `wheel` package from its local file (wheel-file.ts).

/** A venv that cannot be made or equipped, in words that say what to fix. */
export class VenvError extends Error {}

export interface Venv {
  dir: string;
  python: string;
  sitePackages: string;
}

/** `python -m venv ARGS`, or a VenvError that tells an interruption from a Python without venv. */
export async function makeVenv(python: string, args: string[], run: RunOptions): Promise<void> {
  try {
    await runCommand(python, ['-m', 'venv', ...args], run);
  } catch (err) {
    const signal = err instanceof CommandError ? err.signal : null;
    const detail = err instanceof CommandError && err.tail.length > 0 ? err.tail.slice(-3).join(' ') : (err as Error).message;
    throw new VenvError(venvFailure(python, { signal, detail }));
  }
}

/**
 * The `wheel` package installed into the venv from its local file (offline
 * builds need it, no index can bring it): the file installed, or null when
 * there is none, for the caller to say so its way. A failing pip rejects with
 * its CommandError.
 */
export async function installWheelTool(venvPython: string, env: NodeJS.ProcessEnv, run: RunOptions): Promise<string | null> {
  const wheel = findWheelFile(env);
  if (wheel) await runCommand(venvPython, ['-m', 'pip', 'install', '--no-index', wheel], run);
  return wheel;
}
