import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { packagePath } from '../../lib/paths.js';
import { ensureVenv } from '../../lib/python-apps/apps-venv.js';
import { acquireLock, LockError } from '../../state/lock.js';
import { temporaryVenv } from '../../lib/python-apps/check-venv.js';

// Python virtual environments cost up to 100 s to build on a loaded 2-core
// machine, so they are built once and shared by every test file and run:
// - the daemon's apps venv template (lib/python-apps/apps-venv.ts keeps it in
//   os.tmpdir(), keyed by interpreter and SDK content hash);
// - the base venv of `app check` (ROBOTCTL_CHECK_VENV_CACHE, keyed inside by
//   interpreter; the folder is keyed here by the content of the reachy_mini
//   stand-in the base holds, so an edited stand-in gets a fresh base).
// The tap `before` script (test/setup/prepare-venvs.ts) builds both before any
// test file starts, so no file spends its 120 s on a build and parallel jobs
// never build the same venv twice. Both are content-keyed and read-only once
// built (every test copies or overlays them), so sharing them is safe.

/** The offline stand-in `app check` installs into its base venv (cli/app/check.ts). */
const STAND_IN = packagePath('sdk', 'python');

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

// One builder at a time across processes (two tap runs at once), with the
// project's own state lock (state/lock.ts): atomic, and a dead builder's lock
// is broken at once. Both venvs are content-keyed and land by rename, so a
// builder stuck for 10 minutes is not waited for any longer: build anyway.
const LOCK_FOR = join(tmpdir(), 'robotctl-test-venvs-build');
const STALE_MS = 10 * 60_000;

async function withLock(fn: () => Promise<void>): Promise<void> {
  const lock = await acquireLock(LOCK_FOR, { timeoutMs: STALE_MS, pollMs: 200, operation: 'build the test venvs', noun: 'test venv lock' })
    .catch((err: unknown) => {
      if (err instanceof LockError) return null;
      throw err;
    });
  try {
    await fn();
  } finally {
    await lock?.release();
  }
}

/** Build (or find) the shared venvs; each step is a no-op when its venv exists. */
export async function prepareVenvs(log: (line: string) => void = () => {}): Promise<void> {
  // The two are independent: built at once, one on each core (about 15 s
  // one after the other on a fresh machine, while every test file waits).
  await withLock(async () => {
    const appsVenv = async (): Promise<void> => {
      const apps = mkdtempSync(join(tmpdir(), 'robotctl-prepare-venvs-'));
      try {
        await ensureVenv(apps, 'python3', log);
      } finally {
        rmSync(apps, { recursive: true, force: true });
      }
    };
    const checkVenv = async (): Promise<void> => {
      const check = await temporaryVenv({ ...process.env, ROBOTCTL_CHECK_VENV_CACHE: CHECK_VENV_CACHE, PIP_NO_INDEX: '1' }, { online: false, standIn: STAND_IN });
      check.dispose();
    };
    await Promise.all([appsVenv(), checkVenv()]);
  });
}
