// A test run's own temporary folder, `robotctl-tests-<runner>-<start>` in the
// temp folder: the runner is tap's process, the parent of the `before`
// script, of every test file and of the `after` script, so all of them name
// the same folder; its start time (from /proc) tells it from a later process
// with the same pid. Everything the suite builds (the Python venvs, the
// daemon's caches, the tests' own files) goes there, the `after` script
// removes it (test/setup/after-run.mjs), and two runs at once, each with its
// own, never share or delete each other's. A run killed before its end leaves
// its folder: the next run's `before` script removes it once its runner is gone.
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';

const NAME = /^robotctl-tests-(\d+)-(\d+)$/;
/** Set to the run's folder for the processes of the run and what they start. */
const RUN_VAR = 'ROBOTCTL_TEST_RUN_DIR';

/** A process's start time (clock ticks after boot, /proc/<pid>/stat field 22), or null when it is gone or unknown. */
function startOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** The run's folder in base, made now if missing; the one already set when a process of the run started this one. */
export function runFolder(base) {
  const known = process.env[RUN_VAR];
  if (known) return known;
  const runner = process.ppid;
  const dir = join(base, `robotctl-tests-${runner}-${startOf(runner) ?? 0}`);
  mkdirSync(dir, { recursive: true });
  // Like /tmp: other users reach their own folders in it (the tests run
  // PostgreSQL as its `postgres` user in a folder handed over to it).
  chmodSync(dir, 0o1777);
  process.env[RUN_VAR] = dir;
  return dir;
}

/** This process's run folder, or null when TMPDIR is not one (then nothing is removed). */
export function ownRunFolder() {
  const dir = process.env[RUN_VAR];
  return dir && NAME.test(basename(dir)) ? dir : null;
}

/** Removes the folders of earlier runs in the run folder's parent whose runner is gone; returns their names. */
export function removeStaleRunFolders() {
  const own = ownRunFolder();
  if (!own || startOf(process.pid) === null) return []; // no /proc: whether a runner is gone is unknown
  const base = join(own, '..');
  const removed = [];
  for (const name of readdirSync(base)) {
    const m = NAME.exec(name);
    if (!m || m[2] === '0' || join(base, name) === own) continue;
    if (startOf(Number(m[1])) === m[2]) continue; // that run is still going
    rmSync(join(base, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
