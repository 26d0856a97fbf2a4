import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { copyTree } from '../../lib/copy-tree.js';
import { venvTemplate } from '../../lib/python-apps/apps-venv.js';
import { temporaryVenv } from '../../lib/python-apps/check-venv.js';
import { sdkDir } from '../../lib/python-apps/sdk.js';

// Python virtual environments cost seconds to build (4-5 s of CPU, 4-23 s
// of wall time on the shared 2-core machine), so they are built once per run
// and shared by every test file:
// - the venv template (lib/python-apps/apps-venv.ts keeps it in os.tmpdir(),
//   keyed by interpreter and SDK content hash), which every daemon's apps venv
//   and every `app check` venv is copied from;
// - the base venv of `app check` (ROBOTCTL_CHECK_VENV_CACHE, keyed inside by
//   interpreter; the folder is keyed here by the content of the reachy_mini
//   stand-in the base holds, so an edited stand-in gets a fresh base).
// The tap `before` script (test/setup/prepare-venvs.ts) builds both before any
// test file starts, so no file spends its 120 s on a build and parallel jobs
// never build the same venv twice. Both are read-only once built (every test
// copies or overlays them), so sharing them is safe. They live in the run's
// own temporary folder (test/setup/run-folder.mjs), removed when the run ends.

/** The offline stand-in `app check` installs into its base venv (cli/app/check.ts). */
const STAND_IN = sdkDir();

function contentHash(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, e.name);
      if (e.name === '__pycache__' || e.name === 'build' || e.name.endsWith('.egg-info')) continue;
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) hash.update(`${relative(root, p)}\0`).update(readFileSync(p)).update('\0');
    }
  };
  walk(root);
  return hash.digest('hex').slice(0, 16);
}

/** Shared base venvs of `app check` (pass as ROBOTCTL_CHECK_VENV_CACHE). */
export const CHECK_VENV_CACHE = join(tmpdir(), `robotctl-test-venvs-${contentHash(STAND_IN)}`);

/** Build (or find) the shared venvs; each step is a no-op when its venv exists. */
export async function prepareVenvs(log: (line: string) => void = () => {}): Promise<void> {
  // One after the other: the check's base is a copy of the template.
  await venvTemplate('python3', process.env, { log });
  const check = await temporaryVenv({ ...process.env, ROBOTCTL_CHECK_VENV_CACHE: CHECK_VENV_CACHE, PIP_NO_INDEX: '1' }, { online: false, standIn: STAND_IN });
  check.dispose();
}

/**
 * A venv of the test's own at dest: a copy of the run's template (python -m
 * venv, pip and the wheel tool, as the daemon and `app check` start from),
 * instead of `python -m venv`, whose ensurepip costs about 4 s of CPU.
 */
export async function venvCopy(dest: string): Promise<string> {
  await copyTree(await venvTemplate('python3', process.env), dest);
  return dest;
}
