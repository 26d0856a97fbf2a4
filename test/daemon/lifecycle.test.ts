import t, { type Test } from 'tap';
import { DaemonError } from '../../drivers/daemon/errors.js';
import type { AppStatus } from '../../lib/wire/daemon.js';
import { BODIES, makeBundle } from '../helpers/python-apps.js';
import { alive, groupAlive } from '../helpers/processes.js';
import { closePair, daemonPair, type Pair } from '../helpers/servers.js';
import { until } from '../helpers/wait.js';
import { fileScratch } from '../helpers/file-scratch.js';

// App lifecycle (spec §3) through the driver against a daemon with real
// Python apps, all installed once into one apps dir.

const scratch = fileScratch('lifecycle-test');
const root = scratch.dir;
const logs: string[] = [];
let pair: Pair;
const installLogs: string[] = [];

t.before(async () => {
  const t0 = Date.now();
  pair = await daemonPair(`${root}/apps`, { stopTimeoutMs: 1000, log: (l) => logs.push(l) });
  const apps = Object.fromEntries(Object.entries(BODIES).map(([k, body]) => [`${k}_app`, body]));
  const path = makeBundle(`${root}/src`, 'lifecycle_apps', apps);
  const job = await pair.client.install({ name: 'lifecycle_apps', source_kind: 'local', description: '', url: null, extra: { path } });
  installLogs.push(...job.logs);
  t.comment(`installed after ${Date.now() - t0} ms`);
});
t.teardown(async () => {
  await closePair(pair);
  scratch.remove();
});

async function rejects(t: Test, p: Promise<unknown>, code: string, detail: string): Promise<void> {
  const err = await p.then(() => null, (e: unknown) => e);
  t.ok(err instanceof DaemonError, 'a DaemonError');
  t.match(err, { code, detail });
}

t.test('install names the declared dependencies the offline venv lacks', async (t) => {
  t.ok(installLogs.includes("Warning: 'lifecycle_apps' depends on robotctl-missing-dep, not installed (offline install without dependencies): the app may fail to start"), installLogs.join("\n"));
});

t.test('installed apps are listed from their entry points', async (t) => {
  const names = (await pair.client.listInstalled()).map((a) => a.name).sort();
  t.same(names, ['cooperative_app', 'crash_app', 'mover_app', 'oneshot_app', 'stubborn_app']);
});

t.test('unknown app: the real daemon\'s plain 500 (spec §9 Names), which the driver reads as not installed', async (t) => {
  await rejects(t, pair.client.startApp('ghost'), 'app_not_found', 'Internal Server Error');
});

t.test('start, already running, stop, no process left', async (t) => {
  const st = await pair.client.startApp('cooperative_app');
  t.equal(st.state, 'starting');
  t.equal(st.info.name, 'cooperative_app');
  await rejects(t, pair.client.startApp('oneshot_app'), 'app_already_running', 'An app is already running');
  await until(async () => (await pair.client.currentAppStatus())?.state === 'running', 5000, 'running');
  const pid = Number(((await until(() => logs.find((l) => l.startsWith('pid ')), 5000, 'pid')) as string).split(' ')[1]);
  const before = (await fetch(`${pair.daemon.url}/api/state/full`).then((r) => r.json())) as { antennas_position: number[] };
  await until(async () => ((await fetch(`${pair.daemon.url}/api/state/full`).then((r) => r.json())) as { antennas_position: number[] }).antennas_position[0] === 0.2, 5000, 'app moves');
  t.not(before, null);
  const t0 = Date.now();
  await pair.client.stopCurrentApp();
  t.ok(Date.now() - t0 < 3000, 'a cooperative app stops fast');
  t.equal(alive(pid), false, 'the app process is gone');
  t.equal(groupAlive(pid), false, 'its process group is gone');
  t.equal(await pair.client.currentAppStatus(), null);
  const full = (await fetch(`${pair.daemon.url}/api/state/full`).then((r) => r.json())) as { antennas_position: number[]; head_pose: { yaw: number } };
  t.same(full.antennas_position, [-0.1745, 0.1745], 'back at the rest pose');
  t.ok(Math.abs(full.head_pose.yaw) < 1e-9);
  t.ok(logs.includes('Returning robot to zero position'));
  await rejects(t, pair.client.stopCurrentApp(), 'no_app_running', 'No app is currently running');
});

t.test('an app that exits by itself stays done; a new start is allowed; stop says none running', async (t) => {
  await pair.client.startApp('oneshot_app');
  const st = (await until(async () => { const s = await pair.client.currentAppStatus(); return s?.state === 'done' ? s : null; }, 5000, 'done')) as AppStatus;
  t.same(st, { info: st.info, state: 'done', error: null });
  t.ok(logs.includes('hello once'));
  t.ok(logs.includes('App oneshot_app finished'));
  await rejects(t, pair.client.stopCurrentApp(), 'no_app_running', 'No app is currently running');
  await rejects(t, pair.client.restartCurrentApp(), 'no_app_running', 'No app is currently running');
  await pair.client.startApp('oneshot_app');
  await until(async () => (await pair.client.currentAppStatus())?.state === 'done', 5000, 'done again');
});

t.test('a crash is reported with the exit code and the last 10 stderr lines, and blocks starts until stop', async (t) => {
  await pair.client.startApp('crash_app');
  const st = (await until(async () => { const s = await pair.client.currentAppStatus(); return s?.state === 'error' ? s : null; }, 5000, 'error')) as AppStatus;
  const tail = Array.from({ length: 10 }, (_, i) => `line ${i + 2}`);
  t.equal(st.error, ['Process exited with code 3', ...tail].join('\n'));
  await rejects(t, pair.client.startApp('oneshot_app'), 'app_already_running', 'An app is already running');
  // restart clears the error and runs it again
  const again = await pair.client.restartCurrentApp();
  t.equal(again.state, 'starting');
  await until(async () => (await pair.client.currentAppStatus())?.state === 'error', 5000, 'error again');
  await pair.client.stopCurrentApp();
  t.equal(await pair.client.currentAppStatus(), null);
});

t.test('an app ignoring SIGINT is killed with its children after the timeout', async (t) => {
  logs.length = 0;
  await pair.client.startApp('stubborn_app');
  const childLine = (await until(() => logs.find((l) => l.startsWith('child ')), 5000, 'child pid')) as string;
  const childPid = Number(childLine.split(' ')[1]);
  const t0 = Date.now();
  await pair.client.stopCurrentApp();
  const took = Date.now() - t0;
  t.ok(took >= 1000 && took < 4000, `stop waited for the 1 s timeout (${took} ms)`);
  t.ok(logs.includes('App did not stop within timeout, forcing termination'));
  await until(() => !alive(childPid), 2000, 'child gone');
  t.equal(alive(childPid), false, 'the child in its group is gone too');
});

t.test('restart of a running app: stop then start the same app', async (t) => {
  await pair.client.startApp('cooperative_app');
  await until(async () => (await pair.client.currentAppStatus())?.state === 'running', 5000, 'running');
  const st = await pair.client.restartCurrentApp();
  t.equal(st.state, 'starting');
  t.equal(st.info.name, 'cooperative_app');
  await until(async () => (await pair.client.currentAppStatus())?.state === 'running', 5000, 'running again');
  await pair.client.stopCurrentApp();
});

t.test('stop cancels the app moves: the motion lock never sticks', async (t) => {
  await pair.client.startApp('mover_app');
  const url = pair.daemon.url;
  await until(async () => ((await fetch(`${url}/api/move/running`).then((r) => r.json())) as unknown[]).length === 1, 5000, 'move running');
  const ignored = await fetch(`${url}/api/move/set_target`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ target_antennas: [0, 0] }) }).then((r) => r.json());
  t.same(ignored, { status: 'ignored', reason: 'move_running' });
  await pair.client.stopCurrentApp();
  t.same(await fetch(`${url}/api/move/running`).then((r) => r.json()), []);
  const ok = await fetch(`${url}/api/move/set_target`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ target_antennas: [0, 0] }) }).then((r) => r.json());
  t.same(ok, { status: 'ok' });
});
