import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { DaemonError } from '../../drivers/daemon/errors.js';
import { ensureVenv } from '../../lib/python-apps/apps-venv.js';
import { bin } from '../helpers/cli.js';
import { BODIES, makeApp, treeFiles } from '../helpers/python-apps.js';
import { embeddedHub } from '../helpers/servers.js';
import { until } from '../helpers/wait.js';
import WebSocket from 'ws';

// A failed install leaves nothing in the temp folder: `robotctl daemon` runs
// with TMPDIR pointed at a folder of the test, installs that fail (a Space
// whose pyproject.toml is broken, a local app whose build backend pip cannot
// import) end as failed jobs, and the folder is empty after each. (A machine
// that retried such an install every minute once kept a 26 MB folder per try.)
// The apps venv is made beforehand from the shared template, so the daemon
// never builds one in this TMPDIR: a template kept there would be a cache,
// not a leftover.

interface Child { url: string; stop: () => Promise<number | null> }

/** `robotctl daemon --sim` with its temp folder in `tmp`, offline. */
async function daemon(t: Test, appsDir: string, hubUrl: string, tmp: string): Promise<Child> {
  const child = spawn(process.execPath, [bin, 'daemon', '--sim', '--port', '0', '--apps-dir', appsDir, '--hub', hubUrl], {
    env: { ...process.env, NO_COLOR: '1', TMPDIR: tmp, PIP_NO_INDEX: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  child.stderr.resume();
  const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  return { url: first.replace('listening on ', ''), stop: () => { child.kill('SIGTERM'); return exited; } };
}

t.test('failed installs leave no folder in TMPDIR', async (t) => {
  const dir = t.testdir({ tmp: {} });
  const tmp = join(dir, 'tmp');
  const appsDir = join(dir, 'apps');
  await ensureVenv(appsDir, 'python3');
  const hub = await embeddedHub(t, {});
  await hub.createRepo('demo', 'space', 'demo/broken_app', { sdk: 'static' });
  const files = treeFiles(makeApp(join(dir, 'src'), 'broken_app', BODIES.cooperative));
  await hub.commit('demo', 'space', 'demo/broken_app', { ...files, 'pyproject.toml': 'this is [not toml' });
  const local = join(dir, 'local_app');
  mkdirSync(local);
  writeFileSync(join(local, 'pyproject.toml'), '[build-system]\nrequires = []\nbuild-backend = "no_such_backend"\n\n[project]\nname = "local_app"\nversion = "0.1.0"\n');

  const d = await daemon(t, appsDir, hub.url, tmp);
  const client = createDaemonClient({ baseUrl: d.url, jobTimeoutMs: 120_000 });
  t.teardown(() => client.close());
  const failedInPip = async (install: Promise<unknown>, what: string): Promise<void> => {
    const err = await install.then(() => null, (e: unknown) => e);
    t.ok(err instanceof DaemonError && err.code === 'job_failed', `${what}: the job failed`);
    const logs = err instanceof DaemonError ? err.logs : [];
    // The wheel is built first (runtime/daemon/apps/build-wheel.ts, the backend's
    // build_wheel hook as pip calls it): a broken app fails there.
    t.ok(logs.some((l) => l.startsWith('Running command: ') && / -c '<the build_wheel hook of the PEP 517 backend>' /.test(l)), `${what}: the build ran`, { logs });
  };
  await failedInPip(client.install({ name: 'broken_app', source_kind: 'hf_space', description: '', url: `${hub.url}/spaces/demo/broken_app`, extra: {} }), 'Space');
  t.same(readdirSync(tmp), [], 'the failed Space install left nothing in TMPDIR');
  await failedInPip(client.install({ name: 'local_app', source_kind: 'local', description: '', url: null, extra: { path: local } }), 'local');
  t.same(readdirSync(tmp), [], 'the failed local install left nothing in TMPDIR');
  t.same(await client.listInstalled(), [], 'and nothing is installed');
  t.equal(await d.stop(), 0);
  t.same(readdirSync(tmp), [], 'nor did the daemon, once stopped');
});

t.test('an install interrupted by the daemon stopping leaves no folder in TMPDIR', async (t) => {
  const dir = t.testdir({ tmp: {} });
  const tmp = join(dir, 'tmp');
  const appsDir = join(dir, 'apps');
  await ensureVenv(appsDir, 'python3');
  const hub = await embeddedHub(t, {});
  const d = await daemon(t, appsDir, hub.url, tmp);
  const path = makeApp(join(dir, 'src'), 'cut_app', BODIES.cooperative);
  const res = await fetch(`${d.url}/api/apps/install`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'cut_app', source_kind: 'local', description: '', url: null, extra: { path } }),
  });
  const { job_id } = (await res.json()) as { job_id: string };
  // Follow the job; once the build runs (with pip starting beside it,
  // runtime/daemon/apps/pip-early.ts) and its temporary folder is there
  // (which a killed build cannot remove), stop the daemon: both are killed.
  const ws = new WebSocket(`${d.url.replace('http', 'ws')}/api/apps/ws/apps-manager/${job_id}`);
  t.teardown(() => ws.close());
  await new Promise<void>((resolve) => ws.on('message', (m) => { if (m.toString().startsWith('Running command: ')) resolve(); }));
  await until(() => readdirSync(tmp).some((n) => n.startsWith('robotctl-run-')), 60_000, 'the build\'s temporary folder');
  t.equal(await d.stop(), 0);
  t.same(readdirSync(tmp), [], 'neither the staging copy nor the build\'s or pip\'s folders are left');
});
