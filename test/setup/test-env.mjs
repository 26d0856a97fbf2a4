// The environment of every test process (and of the `before` script), set
// before anything else loads (.taprc node-arg); the CLI, daemon, hub, pip and
// Python processes a test spawns inherit it. Each change only saves time: what
// a test checks does not depend on it (measured on the 2-core machine, see
// README "The test command").
// - Temporary folders on tmpfs (/dev/shm) when it is there with room: a test's
//   daemon copies a 26 MB venv template and pip builds and installs there;
//   on ext4 one copy (lib/copy-tree.ts) costs 0.6-0.9 s of CPU, mostly the
//   kernel's, and 0.35-0.45 s of wall time, on tmpfs 0.15 s and 0.1 s. An
//   explicit TMPDIR wins.
// - In that folder, one of the run's own (test/setup/run-folder.mjs): the
//   venvs and caches the tests build go there, the `after` script removes it,
//   and two runs at once never share it.
// - No NODE_EXTRA_CA_CERTS: reading the bundle costs each Node process about
//   90 ms, and the suite talks only to loopback over plain HTTP.
// - `python3` without its pyenv shim: the shim is a bash script costing about
//   130 ms a call. Its interpreter's folder goes first on PATH, which is what
//   the shim (`pyenv exec`) does before running it.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, openSync, readFileSync, readSync, closeSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runFolder } from './run-folder.mjs';

const TMPFS_MAGIC = 0x01021994;
const ROOM = 4 * 1024 ** 3;

function tmpfsFolder() {
  try {
    const fs = statfsSync('/dev/shm');
    if (fs.type !== TMPFS_MAGIC || fs.bavail * fs.bsize < ROOM) return null;
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return null;
  }
}

process.env.TMPDIR = runFolder(process.env.TMPDIR || tmpfsFolder() || tmpdir());

delete process.env.NODE_EXTRA_CA_CERTS;

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch { /* not here */ }
  }
  return null;
}

function isScript(file) {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head.toString() === '#!';
  } finally {
    closeSync(fd);
  }
}

/** The interpreter a `python3` shim runs, asked once and kept in the temp folder (keyed by the shim and PATH). */
function shimTarget(shim) {
  const cache = join(process.env.TMPDIR || '/tmp', `robotctl-tests-python3-${process.getuid?.() ?? 'user'}.json`);
  try {
    const kept = JSON.parse(readFileSync(cache, 'utf8'));
    if (kept.shim === shim && kept.path === process.env.PATH) return kept.exe;
  } catch { /* not asked yet */ }
  const r = spawnSync(shim, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  const exe = r.status === 0 ? r.stdout.trim() : '';
  if (!exe) return null;
  try {
    writeFileSync(cache, JSON.stringify({ shim, path: process.env.PATH, exe }));
  } catch { /* asked again next time */ }
  return exe;
}

try {
  const shim = onPath('python3');
  if (shim && isScript(shim)) {
    const exe = shimTarget(shim);
    if (exe && onPath('python3') !== join(dirname(exe), 'python3')) process.env.PATH = `${dirname(exe)}:${process.env.PATH}`;
  }
} catch { /* keep PATH as it is */ }
