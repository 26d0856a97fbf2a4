import t from 'tap';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join, basename } from 'node:path';
import { spawn } from 'node:child_process';
import { sdkDir } from '../app/helpers.js';
import { startDaemon } from '../../runtime/daemon/server.js';
import { venvCopy } from '../helpers/python-venvs.js';

// The reachy_mini stand-in (sdk/python): its own unit tests against a real
// daemon, and an offline install as the daemon and `app check` do it.

const quiet = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1' };

function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (status) => { clearTimeout(timer); resolve({ status, stderr }); });
  });
}

t.test('the stand-in unit tests pass (python3 -m unittest) against a daemon', async (t) => {
  const daemon = await startDaemon({ appsDir: t.testdir(), sim: true, port: 0, startupApp: null });
  t.teardown(() => daemon.close());
  // Async spawn: the daemon runs in this process and must keep serving.
  const r = await run('python3', ['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.'], {
    cwd: sdkDir, env: { ...quiet, ROBOT_DAEMON_URL: daemon.url },
  });
  t.notMatch(r.stderr, /skipped/, 'nothing skipped');
  t.equal(r.status, 0, r.stderr);
  t.match(r.stderr, /Ran \d+ tests/);
  t.match(r.stderr, /\nOK\n/);
});

t.test('the SDK installs offline into a venv and imports with no source tree around', async (t) => {
  const dir = t.testdir();
  // pip builds in-tree: build a copy so the repository gets no build/ folder.
  const src = join(dir, 'sdk');
  cpSync(sdkDir, src, { recursive: true, filter: (p) => !['build', '__pycache__'].includes(basename(p)) && !p.endsWith('.egg-info') });
  // A venv with pip and the wheel tool, as the daemon's and `app check`'s
  // start: a copy of the run's template (test/helpers/python-venvs.ts).
  const venv = await venvCopy(join(dir, 'venv'));
  const py = join(venv, 'bin', 'python');
  t.ok(existsSync(py), 'venv');
  if (existsSync('/usr/share/python-wheels')) {
    const lib = join(venv, 'lib');
    const site = readdirSync(lib).map((v) => join(lib, v, 'site-packages'));
    t.ok(site.some((d) => existsSync(d) && readdirSync(d).some((f) => /^wheel-.*\.dist-info$/.test(f))), 'the venv has the wheel tool');
  }
  const install = spawnSync(py, ['-m', 'pip', 'install', '--no-index', '--no-deps', '--no-build-isolation', src], { env: quiet, encoding: 'utf8' });
  t.equal(install.status, 0, install.stderr);
  const script = [
    'import importlib.metadata as m, reachy_mini as s',
    'from reachy_mini import ReachyMini, ReachyMiniApp',
    'from reachy_mini.utils import create_head_pose',
    'print(m.version("reachy-mini"), s.STANDIN, list(create_head_pose()[3]))',
  ].join('\n');
  const probe = spawnSync(py, ['-c', script], { cwd: dir, env: quiet, encoding: 'utf8' });
  t.equal(probe.stdout.trim(), '1.10.0+robotctl.standin True [0.0, 0.0, 0.0, 1.0]', probe.stderr);
  t.notOk(existsSync(join(sdkDir, 'build')), 'no build/ left in sdk/python');
});
