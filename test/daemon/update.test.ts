import t, { type Test } from 'tap';
import { join } from 'node:path';
import { startDaemon, type DaemonOptions, type RunningDaemon } from '../../runtime/daemon/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { DaemonError } from '../../drivers/daemon/errors.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import { QUIET_BODY, makeApp } from '../helpers/python-apps.js';
import { until } from '../helpers/wait.js';

// The daemon's update API (spec §9; routers/update.py) on the simulated
// daemon, through the real driver: what is available, an update from a git
// ref with the real job's lines and its restart (apps stop, the daemon is
// gone, then runs the new version and has forgotten the job), a ref no
// release has failing the job, one update at a time, and a release that
// crash-loops.

async function robot(t: Test, opts: Partial<DaemonOptions> = {}): Promise<{ d: RunningDaemon; c: DaemonClient; dir: string }> {
  const dir = opts.appsDir ?? t.testdir();
  const d = await startDaemon({ sim: true, port: 0, ...opts, appsDir: dir });
  const c = createDaemonClient({ baseUrl: d.url, timeoutMs: 5000, jobTimeoutMs: 120_000 });
  t.teardown(async () => { await c.close(); await d.close(); });
  return { d, c, dir };
}

t.test('what is available answers from the releases, as the real one answers from PyPI', async (t) => {
  const { c: fresh } = await robot(t);
  t.same(await fresh.updateAvailable(), { isAvailable: false, currentVersion: '1.10.0', availableVersion: '1.10.0' }, 'by default on the SDK version it mirrors, the newest release');
  const { c } = await robot(t, { release: { version: '1.9.0', releases: ['1.8.3', '1.9.0', '1.10.0', '1.11.0rc1'] } });
  t.same(await c.updateAvailable(), { isAvailable: true, currentVersion: '1.9.0', availableVersion: '1.10.0' });
  t.same(await c.updateAvailable({ preRelease: true }), { isAvailable: true, currentVersion: '1.9.0', availableVersion: '1.11.0rc1' });
  t.same(await c.installSource(), { version: '1.9.0', source: 'pypi' });
  const nothing = await fresh.startUpdate().then(() => null, (e: unknown) => e);
  t.match(nothing, { name: 'DaemonError', code: 'no_update_available', status: 400, detail: 'No update available' });
  const empty = await c.startUpdateFromRef('  ').then(() => null, (e: unknown) => e);
  t.match(empty, { code: 'bad_request', status: 400, detail: 'Git ref cannot be empty' });
  const missing = await fetch(`${fresh.baseUrl}/api/update/start-from-ref`, { method: 'POST' });
  t.equal(missing.status, 422, 'git_ref is a required query parameter');
  t.same(await fetch(`${fresh.baseUrl}/api/update/validate-ref?git_ref=v1.8.3`).then((r) => r.json()), { valid: true, ref: 'v1.8.3' });
  t.same(await fetch(`${fresh.baseUrl}/api/update/validate-ref?git_ref=nope`).then((r) => r.json()), { valid: false, ref: 'nope', error: "Ref 'nope' not found" });
});

t.test('an update from a git ref: the real job\'s lines, a restart, then the new version', async (t) => {
  const root = t.testdir();
  const { c, d, dir } = await robot(t, { appsDir: join(root, 'apps'), release: { version: '1.9.0' }, stopTimeoutMs: 5000 });
  // An app runs before the update: the restart stops it, as systemd's does.
  await c.install({ name: 'quiet_app', source_kind: 'local', description: '', url: null, extra: { path: makeApp(join(root, 'src'), 'quiet_app', QUIET_BODY) } });
  await c.startApp('quiet_app');
  await until(async () => (await c.currentAppStatus())?.state === 'running', 20_000, 'the app runs');
  const id = await c.hardwareId();
  // A watcher of its own, without retries: what the status says at each moment.
  const probe = createDaemonClient({ baseUrl: d.url, timeoutMs: 2000, maxRetries: 0 });
  t.teardown(() => probe.close());
  const seen: string[] = [];
  let polling = true;
  const watcher = (async () => {
    while (polling) {
      const st = await probe.daemonStatus().then((s) => `${s.state} ${String(s.version)}`, (e: unknown) => (e as DaemonError).code);
      if (seen[seen.length - 1] !== st) seen.push(st);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const lines: string[] = [];
  const done = await c.updateDaemon('1.10.0', { onLog: (l) => lines.push(l), timeoutMs: 60_000 });
  polling = false;
  await watcher;
  t.equal(done.status.version, '1.10.0');
  t.equal(done.status.state, 'running');
  t.equal(done.ref, 'v1.10.0', "the release's tag in pollen-robotics/reachy_mini");
  t.same(lines, done.logs, 'every line reached onLog, in order');
  t.equal(lines[0], 'Updating daemon venv...');
  t.equal(lines[1], "Running: pip install 'reachy-mini[wireless-version] @ git+https://github.com/pollen-robotics/reachy_mini.git@v1.10.0' --force-reinstall --no-deps --no-cache-dir && ( pip check || pip install 'reachy-mini[wireless-version]' --upgrade --upgrade-strategy only-if-needed )");
  t.ok(lines.includes('Successfully installed reachy-mini-1.10.0'));
  t.ok(lines.includes('    Found existing installation: reachy-mini 1.9.0'));
  t.ok(lines.includes('Updating apps_venv SDK...'));
  t.ok(lines.includes('Apps venv SDK updated successfully'));
  t.ok(lines.includes('Running: sudo systemctl restart reachy-mini-daemon'));
  t.equal(seen[0], 'running 1.9.0');
  t.ok(seen.includes('unreachable'), `the daemon was gone during its restart: ${seen.join(' → ')}`);
  t.equal(seen[seen.length - 1], 'running 1.10.0');
  t.match(await c.installSource(), { version: '1.10.0', source: 'git', git_ref: 'v1.10.0', commit: /^[0-9a-f]{8}$/ });
  t.equal(await c.currentAppStatus(), null, 'its app stopped with the old daemon');
  await t.rejects(c.updateInfo(done.jobId), { code: 'job_not_found', detail: 'Job ID not found' }, 'the restarted daemon forgot the job');
  t.same(await c.updateAvailable(), { isAvailable: false, currentVersion: '1.10.0', availableVersion: '1.10.0' });
  await d.close();
  // The robot stays on what it was updated to, as a real one does after a reboot.
  const { c: later } = await robot(t, { appsDir: dir });
  t.equal((await later.daemonStatus()).version, '1.10.0');
  t.equal(await later.hardwareId(), id, 'the same robot');
});

t.test('a ref that no release has fails the job as pip fails it, and the daemon goes on', async (t) => {
  const { c } = await robot(t, { release: { version: '1.9.0' } });
  const err = await c.updateDaemon('9.9.9', { timeoutMs: 30_000 }).then(() => null, (e: unknown) => e);
  t.ok(err instanceof DaemonError);
  t.match(err, { code: 'update_failed', detail: "error: pathspec 'v9.9.9' did not match any file(s) known to git" });
  const logs = (err as DaemonError).logs;
  t.match(logs[logs.length - 1], /^Job 'update_reachy_mini' failed with error: Command failed with exit code 1: pip install 'reachy-mini\[wireless-version\] @ git\+https:\/\/github.com\/pollen-robotics\/reachy_mini.git@v9.9.9'/);
  t.ok(logs.includes("  WARNING: Did not find branch or tag 'v9.9.9', assuming revision or ref."));
  t.notOk(logs.includes('Running: sudo systemctl restart reachy-mini-daemon'), 'no restart');
  const st = await c.daemonStatus();
  t.match(st, { state: 'running', version: '1.9.0' });
  t.same(await c.updateAvailable(), { isAvailable: true, currentVersion: '1.9.0', availableVersion: '1.10.0' }, 'no longer busy');
  // `1.10.0` without the tag's `v` works too.
  t.equal((await c.updateDaemon('1.10.0', { ref: '1.10.0', timeoutMs: 30_000 })).status.version, '1.10.0');
});

t.test('one update at a time; its log streams on the WebSocket; /api/update/start takes the newest release', async (t) => {
  const { c } = await robot(t, { release: { version: '1.8.3' } });
  const jobId = await c.startUpdate();
  await t.rejects(c.startUpdateFromRef('v1.9.0'), { code: 'update_in_progress', status: 400, detail: 'Update already in progress' });
  await t.rejects(c.startUpdate(), { code: 'update_in_progress', detail: 'Update already in progress' });
  await t.rejects(c.updateAvailable(), { code: 'update_in_progress', detail: 'Update is in progress' });
  const lines: string[] = [];
  const follower = c.followUpdateLogs(jobId, (l) => lines.push(l));
  t.teardown(() => follower.close());
  const end = await follower.ended;
  t.ok(end === 'done' || end === 'closed', end);
  t.equal(lines[0], 'Updating daemon venv...');
  t.ok(lines.includes("Running: pip install 'reachy-mini[wireless-version]' --upgrade"), lines.join('\n'));
  t.ok(lines.includes('Successfully installed reachy-mini-1.10.0'));
  const st = await c.waitForVersion('1.10.0', { timeoutMs: 30_000 });
  t.equal(st.version, '1.10.0');
  t.same(await c.installSource(), { version: '1.10.0', source: 'pypi' });
  const unknown = c.followUpdateLogs('no-such-job');
  t.equal(await unknown.ended, 'closed', 'an unknown job: {"error": "Job ID not found"}, then the socket closes');
});

t.test('a crash-looping release never answers again: the update times out with what it last logged', async (t) => {
  const { c, d } = await robot(t, { release: { version: '1.9.0', crashloop: ['1.10.0'] } });
  const err = await c.updateDaemon('1.10.0', { timeoutMs: 3000 }).then(() => null, (e: unknown) => e);
  t.ok(err instanceof DaemonError);
  t.match(err, { code: 'update_timeout' });
  t.match((err as Error).message, /did not answer running 1\.10\.0 within 3 s of its update \(last: .*unreachable.*\); its update last logged: .*Running: sudo systemctl restart reachy-mini-daemon/);
  t.ok((err as DaemonError).logs.includes('Successfully installed reachy-mini-1.10.0'), 'the job itself went well');
  await t.rejects(c.daemonStatus(), { code: 'unreachable' });
  await d.close();
  t.pass('closing a crash-looping daemon returns');
});

t.test('the version a robot started with stays a release it can go back to (a rollback)', async (t) => {
  const { c } = await robot(t, { release: { version: '1.7.3' } });
  t.equal((await c.updateDaemon('1.10.0', { timeoutMs: 30_000 })).status.version, '1.10.0');
  t.equal((await c.updateDaemon('1.7.3', { timeoutMs: 30_000 })).status.version, '1.7.3', 'not in --releases, yet installable: it was running');
});
