import t from 'tap';
import { chmodSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { venvFailure } from '../../lib/python-apps/venv-failure.js';
import { ensureVenv } from '../../lib/python-apps/apps-venv.js';
import { temporaryVenv } from '../../lib/python-apps/check-venv.js';

// `python -m venv` ended by a signal (Ctrl-C, a stopping daemon) says it was
// interrupted and names the signal; only a real failure suggests
// python3-venv. Both venv builders (the daemon's apps venv, `app check`'s
// temporary one) say it with the same words, and neither leaves a folder in
// the temp folder (TMPDIR) behind. Fake Pythons play the two endings: one
// that kills itself with SIGINT on `-m venv` (as Ctrl-C does to the whole
// foreground group), one that fails like Debian without python3-venv.

const DEBIAN_SAYS = 'The virtual environment was not created successfully because ensurepip is not available.';

function fakePython(path: string, onVenv: string): string {
  // `-c` answers the daemon's identity probe with a path of its own, so no template matches it.
  writeFileSync(path, `#!/bin/sh
case "$1" in
  -c) echo ${path}; echo 3.11.2-fake;;
  -m) ${onVenv};;
esac
`);
  chmodSync(path, 0o755);
  return path;
}

t.test('the exact texts', async (t) => {
  t.equal(venvFailure('python3', { signal: 'SIGINT', detail: '' }), 'python3 -m venv was interrupted by SIGINT: no virtual environment was created');
  t.equal(venvFailure('python3', { signal: null, detail: DEBIAN_SAYS }),
    `python3 -m venv failed: ${DEBIAN_SAYS} (is python3-venv installed? Fix: apt-get install python3-venv)`);
  t.equal(venvFailure('python3', { signal: null, detail: '' }), 'python3 -m venv failed (is python3-venv installed? Fix: apt-get install python3-venv)');
});

t.test('the daemon apps venv: interrupted or failed, and nothing left in TMPDIR', async (t) => {
  const dir = t.testdir({ tmp: {}, wheels: { 'wheel-0.38.4-py3-none-any.whl': '' } });
  const tmp = join(dir, 'tmp');
  const before = process.env.TMPDIR;
  process.env.TMPDIR = tmp; // os.tmpdir() reads it at every call: the template is built there
  t.teardown(() => { if (before === undefined) delete process.env.TMPDIR; else process.env.TMPDIR = before; });

  const killed = fakePython(join(dir, 'python-killed'), 'kill -INT $$');
  await t.rejects(ensureVenv(join(dir, 'apps-1'), killed), { message: `${killed} -m venv was interrupted by SIGINT: no virtual environment was created` });
  t.same(readdirSync(tmp), [], 'no build folder is left in TMPDIR');

  const failing = fakePython(join(dir, 'python-no-venv'), `echo "${DEBIAN_SAYS}" >&2; exit 1`);
  await t.rejects(ensureVenv(join(dir, 'apps-2'), failing), { message: `${failing} -m venv failed: ${DEBIAN_SAYS} (is python3-venv installed? Fix: apt-get install python3-venv)` });
  t.same(readdirSync(tmp), [], 'no build folder is left in TMPDIR');

  // The venv is made, then the wheel cannot be installed into it: the 25 MB half-built venv goes too.
  const noPip = fakePython(join(dir, 'python-pip-fails'),
    'mkdir -p "$3/bin" && printf \'#!/bin/sh\\necho "ERROR: no pip here" >&2; exit 1\\n\' > "$3/bin/python" && chmod +x "$3/bin/python"');
  const env = { ...process.env, ROBOTCTL_WHEELS_DIR: join(dir, 'wheels') };
  await t.rejects(ensureVenv(join(dir, 'apps-3'), noPip, () => {}, undefined, env), { message: /bin\/python -m pip install exited with code 1$/, tail: ['ERROR: no pip here'] });
  t.same(readdirSync(tmp), [], 'the half-built venv is removed from TMPDIR');
});

t.test('app check temporary venv: interrupted or failed, and nothing left in TMPDIR', async (t) => {
  const dir = t.testdir({ tmp: {} });
  const tmp = join(dir, 'tmp');
  const base: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
  delete base.ROBOTCTL_CHECK_VENV_CACHE; // a fresh venv each time, as without the cache
  const killed = fakePython(join(dir, 'python-killed'), 'kill -INT $$');
  await t.rejects(temporaryVenv({ ...base, ROBOTCTL_PYTHON: killed }, { online: false, standIn: null }),
    { message: `${killed} -m venv was interrupted by SIGINT: no virtual environment was created` });
  t.same(readdirSync(tmp), [], 'the check folder is removed');

  const failing = fakePython(join(dir, 'python-no-venv'), `echo "${DEBIAN_SAYS}" >&2; exit 1`);
  await t.rejects(temporaryVenv({ ...base, ROBOTCTL_PYTHON: failing }, { online: false, standIn: null }),
    { message: `${failing} -m venv failed: ${DEBIAN_SAYS} (is python3-venv installed? Fix: apt-get install python3-venv)` });
  t.same(readdirSync(tmp), [], 'the check folder is removed');
});
