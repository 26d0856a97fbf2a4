import t from 'tap';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join, basename } from 'node:path';
import { sdkDir } from '../app/helpers.js';

const quiet = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1' };

t.test('the SDK unit tests pass (python3 -m unittest)', async (t) => {
  const r = spawnSync('python3', ['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.'], {
    cwd: sdkDir, env: quiet, encoding: 'utf8', timeout: 60_000,
  });
  t.equal(r.status, 0, r.stderr);
  t.match(r.stderr, /Ran \d+ tests/);
  t.match(r.stderr, /\nOK\n/);
});

t.test('the SDK installs offline into a venv and imports with no source tree around', async (t) => {
  const dir = t.testdir();
  // pip builds in-tree: build a copy so the repository gets no build/ folder.
  const src = join(dir, 'sdk');
  cpSync(sdkDir, src, { recursive: true, filter: (p) => !['build', '__pycache__'].includes(basename(p)) && !p.endsWith('.egg-info') });
  const venv = join(dir, 'venv');
  const py = join(venv, 'bin', 'python');
  t.equal(spawnSync('python3', ['-m', 'venv', venv], { env: quiet }).status, 0, 'venv');
  const wheels = existsSync('/usr/share/python-wheels') ? readdirSync('/usr/share/python-wheels').filter((f) => f.startsWith('wheel-')) : [];
  if (wheels.length) {
    t.equal(spawnSync(py, ['-m', 'pip', 'install', '--no-index', join('/usr/share/python-wheels', wheels[0]!)], { env: quiet }).status, 0, 'wheel');
  }
  const install = spawnSync(py, ['-m', 'pip', 'install', '--no-index', '--no-deps', '--no-build-isolation', src], { env: quiet, encoding: 'utf8' });
  t.equal(install.status, 0, install.stderr);
  const probe = spawnSync(py, ['-c', 'import robotctl_sdk as s; print(s.__version__, s.RobotApp is s.ReachyMiniApp, s.Robot is s.ReachyMini, s.create_head_pose()[3])'], {
    cwd: dir, env: quiet, encoding: 'utf8',
  });
  t.equal(probe.stdout.trim(), '0.1.0 True True [0.0, 0.0, 0.0, 1.0]', probe.stderr);
  t.notOk(existsSync(join(sdkDir, 'build')), 'no build/ left in sdk/python');
});
