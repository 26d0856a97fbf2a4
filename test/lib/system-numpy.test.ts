import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureVenv } from '../../lib/python-apps/apps-venv.js';
import { exposeSystemNumpy, numpyLinksFor, systemNumpyDirs } from '../../lib/python-apps/system-numpy.js';
import { startDaemon } from '../../runtime/daemon/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { runInProcess } from '../helpers/cli.js';
import { fileScratch } from '../helpers/file-scratch.js';
import { until } from '../helpers/wait.js';

// Debian's numpy made visible to app venvs (lib/python-apps/system-numpy.ts),
// checked against a stand-in for /usr/lib/python3/dist-packages
// (ROBOTCTL_DIST_PACKAGES): the real one must never be at risk here, since
// the point of one check is that pip does not delete what the links reach.

/** A dist-packages folder with a numpy of version `version` built for `tag`, and another package beside it. */
function fakeDistPackages(root: string, tag: string, version = '9.9.9'): string {
  const dir = join(root, `dist-packages-${tag}`);
  mkdirSync(join(dir, 'numpy', 'core'), { recursive: true });
  writeFileSync(join(dir, 'numpy', '__init__.py'), `__version__ = "${version}"\n`);
  writeFileSync(join(dir, 'numpy', 'core', `_multiarray_umath.${tag}-x86_64-linux-gnu.so`), '');
  mkdirSync(join(dir, `numpy-${version}.egg-info`));
  writeFileSync(join(dir, `numpy-${version}.egg-info`, 'PKG-INFO'), `Metadata-Version: 1.2\nName: numpy\nVersion: ${version}\n`);
  writeFileSync(join(dir, `numpy-${version}.egg-info`, 'top_level.txt'), 'numpy\n');
  mkdirSync(join(dir, 'other_pkg'));
  writeFileSync(join(dir, 'other_pkg', '__init__.py'), '');
  return dir;
}

function py(python: string, code: string): { out: string; err: string; status: number | null } {
  const r = spawnSync(python, ['-c', code], { encoding: 'utf8', env: { ...process.env, PIP_NO_INDEX: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1' } });
  return { out: r.stdout.trim(), err: r.stderr, status: r.status };
}

t.test('only numpy is seen, from beside the venv, and pip never deletes it', async (t) => {
  const scratch = fileScratch('system-numpy');
  t.teardown(() => scratch.remove());
  const venv = await ensureVenv(join(scratch.dir, 'apps'), 'python3');
  const tag = `cpython-3${/python3\.(\d+)/.exec(venv.sitePackages)?.[1] ?? ''}`;
  const dist = fakeDistPackages(scratch.dir, tag);
  const links = numpyLinksFor(venv.dir);
  t.equal(await exposeSystemNumpy(venv.sitePackages, links, { ROBOTCTL_DIST_PACKAGES: dist }), true);
  t.same(await systemNumpyDirs(venv.sitePackages), [links]);
  t.same(readdirSync(links).sort(), ['numpy', 'numpy-9.9.9.egg-info'], 'links to numpy and its metadata only');

  const seen = py(venv.python, 'import numpy, importlib.metadata as m; print(numpy.__file__, numpy.__version__, m.version("numpy"))');
  t.equal(seen.out, `${join(links, 'numpy', '__init__.py')} 9.9.9 9.9.9`, seen.err);
  t.match(py(venv.python, 'import other_pkg').err, "No module named 'other_pkg'", 'the rest of dist-packages stays out of the venv');

  const uninstall = spawnSync(venv.python, ['-m', 'pip', 'uninstall', '-y', 'numpy'], { encoding: 'utf8', env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' } });
  t.match(`${uninstall.stdout}${uninstall.stderr}`, `Not uninstalling numpy at ${links}, outside environment ${venv.dir}`);
  t.ok(existsSync(join(dist, 'numpy', '__init__.py')) && existsSync(join(dist, 'numpy', 'core')), 'the packaged files are untouched');
  t.same(readdirSync(links).sort(), ['numpy', 'numpy-9.9.9.egg-info'], 'and so are the links');

  // A numpy built for another Python cannot load here: no .pth, numpy is gone from the venv.
  const other = fakeDistPackages(scratch.dir, 'cpython-399');
  t.equal(await exposeSystemNumpy(venv.sitePackages, links, { ROBOTCTL_DIST_PACKAGES: other }), false);
  t.same(await systemNumpyDirs(venv.sitePackages), []);
  t.match(py(venv.python, 'import numpy').err, "No module named 'numpy'");
});

t.test('without Debian\'s numpy, the install says so with its fix, and the template app crashes on import numpy', async (t) => {
  const scratch = fileScratch('no-numpy');
  const empty = join(scratch.dir, 'no-dist-packages');
  mkdirSync(empty);
  const logs: string[] = [];
  const daemon = await startDaemon({
    appsDir: join(scratch.dir, 'apps'), sim: true, port: 0, offline: true, stopTimeoutMs: 5000,
    env: { ...process.env, ROBOTCTL_DIST_PACKAGES: empty }, log: (l) => logs.push(l),
  });
  const client = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 240_000 });
  t.teardown(async () => {
    await client.close();
    await daemon.close();
    scratch.remove();
  });
  const made = await runInProcess(['app', 'create', 'numpy_app', scratch.dir]);
  t.equal(made.code, 0, made.stderr);
  const job = await client.install({ name: 'numpy_app', source_kind: 'local', description: '', url: null, extra: { path: join(scratch.dir, 'numpy_app') } });
  t.equal(job.status, 'done', job.logs.join('\n'));
  t.ok(job.logs.includes("Warning: reachy-mini's dependency numpy cannot be installed offline and this machine has none for the apps' Python: apps that import it will fail to start. Fix: apt-get install python3-numpy"), job.logs.join('\n'));
  await client.startApp('numpy_app');
  const status = await until(async () => { const s = await client.currentAppStatus(); return s?.state === 'error' ? s : null; }, 60_000, 'the crash');
  t.match(status?.error, "ModuleNotFoundError: No module named 'numpy'");
});

t.test('app check offline without Debian\'s numpy says what to install', async (t) => {
  const dir = t.testdir({ 'no-dist-packages': {}, tmp: {} });
  const env: NodeJS.ProcessEnv = { ...process.env, PIP_NO_INDEX: '1', ROBOTCTL_DIST_PACKAGES: join(dir, 'no-dist-packages'), TMPDIR: join(dir, 'tmp'), ROBOTCTL_CACHE_DIR: join(dir, 'cache') };
  delete env.ROBOTCTL_CHECK_VENV_CACHE; // a base of its own: the shared one sees numpy
  await runInProcess(['app', 'create', 'numpy_app', dir], { env });
  const r = await runInProcess(['app', 'check', join(dir, 'numpy_app')], { env });
  t.equal(r.code, 1);
  t.equal(r.stderr, "[ERROR] Offline, apps need numpy (reachy-mini brings it) and this machine has none for this Python: install Debian's (apt-get install python3-numpy).\n");
  t.same(readdirSync(join(dir, 'tmp')).filter((f) => f.startsWith('robotctl-check-')), [], 'the temporary venv is removed');
});
