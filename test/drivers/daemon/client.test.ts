import t from 'tap';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDaemonClient } from '../../../drivers/daemon/client.js';
import { DaemonError } from '../../../drivers/daemon/errors.js';
import { watchJobEnd } from '../../../drivers/daemon/job-end.js';
import { startDaemon, type RunningDaemon } from '../../../runtime/daemon/server.js';
import { fileScratch } from '../../helpers/file-scratch.js';

// The daemon driver's error mapping and waits, against the bundled daemon
// (and, for network conditions, a socket that never answers).

let d: RunningDaemon;
const scratch = fileScratch('daemon');
t.before(async () => { d = await startDaemon({ appsDir: scratch.dir, sim: true, port: 0 }); });
t.teardown(async () => {
  await d.close();
  scratch.remove();
});

t.test('status and typed errors from the real messages', async (t) => {
  const c = createDaemonClient({ baseUrl: `${d.url}/` });
  t.teardown(() => c.close());
  t.equal(c.baseUrl, d.url, 'trailing slash dropped');
  t.match(await c.daemonStatus(), { type: 'daemon_status', state: 'running', robot_name: 'reachy_mini' });
  t.same(await c.listInstalled(), []);
  t.equal(await c.currentAppStatus(), null);
  // The real daemon's plain 500 (spec §9 Names), read as "not installed" from the installed list.
  await t.rejects(c.startApp('ghost'), { name: 'DaemonError', code: 'app_not_found', status: 500, detail: 'Internal Server Error', transient: false });
  await t.rejects(c.stopCurrentApp(), { code: 'no_app_running', status: 400, detail: 'No app is currently running' });
  await t.rejects(c.restartCurrentApp(), { code: 'no_app_running' });
  await t.rejects(c.install({ name: 'x', source_kind: 'installed', description: '', url: null, extra: {} }), { code: 'bad_request', detail: "source_kind 'installed' is not installable via the API" });
  // Issue 30.6: the real daemon's failing remove job of an app it lacks (spec §9 Remove) is a code the reconciler takes as done.
  await t.rejects(c.remove('ghost'), { code: 'not_installed', logs: ["Job 'remove' failed with error: Cannot uninstall app 'ghost': it is not installed"] });
  t.same(await c.checkUpdates(), []);
});

t.test('a local install with a missing path fails with the job logs', async (t) => {
  const c = createDaemonClient({ baseUrl: d.url });
  t.teardown(() => c.close());
  const err = await c.install({ name: 'nowhere', source_kind: 'local', description: '', url: null, extra: { path: '/nonexistent/app' } }).then(() => null, (e: unknown) => e);
  t.ok(err instanceof DaemonError);
  t.match(err, { code: 'job_failed', logs: ['ERROR: no pyproject.toml in /nonexistent/app', "Job 'install' failed with error: Failed to install app 'nowhere'"] });
  // Issue 30.1: the reason is the robot's ERROR line, not the job's last line.
  t.match(err, { reason: ['ERROR: no pyproject.toml in /nonexistent/app'] });
  t.match((err as Error).message, /^install failed: ERROR: no pyproject.toml in \/nonexistent\/app\n/);
});

t.test('waitUntilRunning follows a daemon restart', async (t) => {
  const c = createDaemonClient({ baseUrl: d.url });
  t.teardown(() => c.close());
  const r = await fetch(`${d.url}/api/daemon/restart?goto_sleep=true`, { method: 'POST' });
  t.equal(r.status, 200);
  t.not((await c.daemonStatus()).state, 'running', 'stopping while it goes to sleep');
  const st = await c.waitUntilRunning(10_000);
  t.equal(st.state, 'running');
});

t.test('unreachable and silent daemons are typed transient errors', async (t) => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  const gone = createDaemonClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 2000 });
  t.teardown(() => gone.close());
  await t.rejects(gone.daemonStatus(), { code: 'unreachable', transient: true, message: /is unreachable: ECONNREFUSED \(connection refused: nothing listens on that port\)$/ });
  await t.rejects(gone.waitUntilRunning(600), { code: 'timeout' });

  const sockets = new Set<import('node:net').Socket>();
  const silent: Server = createServer(() => { /* never answers */ });
  silent.on('connection', (s) => sockets.add(s));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  t.teardown(() => { for (const s of sockets) s.destroy(); return new Promise((r) => silent.close(r)); });
  const slow = createDaemonClient({ baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeoutMs: 300 });
  t.teardown(() => slow.close());
  await t.rejects(slow.currentAppStatus(), { code: 'timeout', transient: true });
  const ac = new AbortController();
  const p = slow.listInstalled(ac.signal);
  ac.abort();
  const err = await p.then(() => null, (e: unknown) => e);
  t.notOk(err instanceof DaemonError, 'the caller abort passes through as-is');
});

t.test("a job's log WebSocket hints that it ended; a job the daemon does not know closes it at once", async (t) => {
  // The job is started by hand (POST), so the hint is watched apart from the client's own polls.
  const started = await fetch(`${d.url}/api/apps/remove/ghost`, { method: 'POST' });
  const { job_id } = await started.json() as { job_id: string };
  const hint = watchJobEnd(d.url, job_id);
  t.teardown(() => hint.close());
  await hint.ended;
  const info = await (await fetch(`${d.url}/api/apps/job-status/${job_id}`)).json() as { status: string };
  t.equal(info.status, 'failed', 'the hint came once the job had ended');
  const unknown = watchJobEnd(d.url, 'no-such-job');
  t.teardown(() => unknown.close());
  await unknown.ended;
  t.pass('the unknown job ends the hint too (the polls then report the 404)');
  const nowhere = watchJobEnd('http://127.0.0.1:1', 'x');
  await nowhere.ended;
  t.pass('no daemon: the hint ends and the polls report the error');
});
