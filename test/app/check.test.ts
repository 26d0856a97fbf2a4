import t from 'tap';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from '../helpers/cli.js';
import { CHECK_VENV_CACHE } from '../helpers/python-venvs.js';

// One base venv shared by the whole run (ROBOTCTL_CHECK_VENV_CACHE, built by
// tap's before script); each check still installs and uninstalls in its own
// temporary venv.
// No package index here (PIP_NO_INDEX): installs use the reachy_mini stand-in.
// The check's temporary venvs go to the command's TMPDIR: a folder of this
// file's own, so checks other test files run at the same time never show here.
const ownTmp = mkdtempSync(join(tmpdir(), 'robotctl-test-tmp-'));
t.teardown(() => rmSync(ownTmp, { recursive: true, force: true }));

// Passed checks are remembered per content (~/.cache/robotctl/app-check): a
// folder of this run's own keeps every run checking for real.
const checkCache = mkdtempSync(join(tmpdir(), 'robotctl-test-cache-'));
t.teardown(() => rmSync(checkCache, { recursive: true, force: true }));
const env = { ...process.env, ROBOTCTL_CHECK_VENV_CACHE: CHECK_VENV_CACHE, PIP_NO_INDEX: '1', ROBOTCTL_CACHE_DIR: checkCache, TMPDIR: ownTmp };

function checkTemps(): string[] {
  return readdirSync(ownTmp).filter((f) => f.startsWith('robotctl-check-'));
}

for (const template of ['default', 'conversation']) {
  t.test(`app create --template ${template} then app check passes`, async (t) => {
    const dest = t.testdir();
    const before = checkTemps();
    const made = await runInProcess(['app', 'create', 'my_app', dest, '--template', template], { env });
    t.equal(made.code, 0, made.stderr);
    const app = join(dest, 'my_app');
    const r = await runInProcess(['app', 'check', app], { env });
    t.equal(r.code, 0, r.stderr);
    t.equal(r.stderr, '');
    t.match(r.stdout, "Offline (PIP_NO_INDEX is set): robotctl's reachy_mini stand-in meets the reachy-mini dependency.");
    t.match(r.stdout, '[OK] App entrypoint is registered correctly.');
    t.match(r.stdout, '[OK] App installation and uninstallation tests passed.');
    t.ok(r.stdout.endsWith("[OK] App 'my_app' passed all checks!\n"), 'last line');
    t.notOk(existsSync(join(app, 'build')), 'pip built a copy: no build/ in the app');
    t.same(readdirSync(app).filter((f) => f.endsWith('.egg-info')), []);
    t.same(checkTemps().filter((f) => !before.includes(f)), [], 'temporary venv removed');
  });
}

t.test('a pip install failure is reported with pip\'s own words', async (t) => {
  const dest = t.testdir();
  await runInProcess(['app', 'create', 'bad_build', dest], { env });
  const pyproject = join(dest, 'bad_build', 'pyproject.toml');
  writeFileSync(pyproject, readFileSync(pyproject, 'utf8').replace('setuptools.build_meta', 'no_such_backend.api'));
  const r = await runInProcess(['app', 'check', join(dest, 'bad_build')], { env });
  t.equal(r.code, 1);
  t.match(r.stderr, /^\[ERROR\] pip install of the app failed:\n/);
  t.match(r.stderr, 'no_such_backend');
  t.notMatch(r.stdout, 'passed all checks');
});

t.test('the binary prints the same and exits 1 on a failed rule (no stack trace)', async (t) => {
  const { runCli } = await import('../helpers/cli.js');
  const dest = t.testdir();
  await runInProcess(['app', 'create', 'cli_app', dest], { env });
  rmSync(join(dest, 'cli_app', 'style.css'));
  const r = await runCli(['app', 'check', join(dest, 'cli_app')], { env });
  t.equal(r.code, 1);
  t.equal(r.stderr, '[ERROR] style.css is missing\n');
});

t.test('app create --publish checks the new app and publishes it to the hub', async (t) => {
  const { startHub } = await import('../../runtime/hub/server.js');
  const token = 'hf_create_publish_token';
  const hub = await startHub({ users: [{ name: 'bob', token }] });
  t.teardown(() => hub.close());
  const dest = t.testdir();
  const r = await runInProcess(['app', 'create', 'fresh_app', dest, '--publish', '--private'], {
    env: { ...env, HF_ENDPOINT: hub.url, HF_TOKEN: token },
  });
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, "[OK] Created app 'fresh_app'");
  t.match(r.stdout, "[OK] App 'fresh_app' passed all checks!");
  t.match(r.stdout, `[OK] App published: ${hub.url}/spaces/bob/fresh_app`);
  const repo = hub.data();
  t.ok(JSON.stringify(repo).includes('bob/fresh_app'), 'the Space exists on the hub');
  t.notMatch(r.stdout + r.stderr, token);
});

t.test('an unreachable index is detected within seconds and the check goes on offline', async (t) => {
  const { createServer } = await import('node:net');
  // A port that was free a moment ago: nothing listens, the connection is refused.
  const port = await new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as { port: number }).port;
      srv.close(() => resolve(p));
    });
  });
  const dest = t.testdir();
  await runInProcess(['app', 'create', 'probe_app', dest], { env });
  const { PIP_NO_INDEX: _drop, ...online } = env;
  const r = await runInProcess(['app', 'check', join(dest, 'probe_app')], { env: { ...online, PIP_INDEX_URL: `http://127.0.0.1:${port}/simple/` } });
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, `Offline (the package index http://127.0.0.1:${port}/simple/ is unreachable)`);
  t.match(r.stdout, "[OK] App 'probe_app' passed all checks!");
});

t.test('an app whose dependency is neither installed nor in a local wheelhouse fails with pip\'s words', async (t) => {
  const dest = t.testdir();
  await runInProcess(['app', 'create', 'needy_app', dest], { env });
  const pyproject = join(dest, 'needy_app', 'pyproject.toml');
  writeFileSync(pyproject, readFileSync(pyproject, 'utf8').replace('"reachy-mini"', '"reachy-mini",\n    "robotctl-no-such-package>=1"'));
  const r = await runInProcess(['app', 'check', join(dest, 'needy_app'), '--offline'], { env });
  t.equal(r.code, 1);
  t.match(r.stdout, 'Offline (--offline)');
  t.match(r.stderr, /^\[ERROR\] pip install of the app failed:\n/);
  t.match(r.stderr, 'robotctl-no-such-package');
});
