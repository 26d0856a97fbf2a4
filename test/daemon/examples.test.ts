import t from 'tap';
import { packagePath } from '../../lib/paths.js';
import { startDaemon, type RunningDaemon } from '../../runtime/daemon/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import type { AppStatus } from '../../lib/wire/daemon.js';
import { alive } from '../helpers/processes.js';
import { until } from '../helpers/wait.js';

// The shipped example apps (examples/apps, real Reachy Mini apps that import reachy_mini) run
// unchanged on the bundled daemon: installed from their folders like a
// developer would (`source_kind: local`).

const logs: string[] = [];
let daemon: RunningDaemon;
let client: DaemonClient;

t.before(async () => {
  // A free port for the apps' settings pages, so parallel tests never fight over 8042.
  daemon = await startDaemon({ appsDir: t.testdir(), sim: true, port: 0, stopTimeoutMs: 1000, env: { ...process.env, ROBOTCTL_APP_SETTINGS_URL: 'http://127.0.0.1:0' }, log: (l) => logs.push(l) });
  client = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 120_000 });
  for (const name of ['hello_app', 'crash_app', 'stubborn_app']) {
    await client.install({ name, source_kind: 'local', description: '', url: null, extra: { path: packagePath('examples', 'apps', name) } });
  }
});
t.teardown(async () => {
  await client.close();
  await daemon.close();
});

async function state(): Promise<{ antennas_position: number[]; head_pose: { yaw: number } }> {
  return (await fetch(`${daemon.url}/api/state/full`)).json() as Promise<{ antennas_position: number[]; head_pose: { yaw: number } }>;
}

t.test('hello_app moves the robot through the SDK and stops cleanly', async (t) => {
  const installed = await client.listInstalled();
  t.same(installed.map((a) => a.name).sort(), ['crash_app', 'hello_app', 'stubborn_app']);
  // Read from the installed main.py for the dashboard's settings icon.
  t.equal(installed.find((a) => a.name === 'hello_app')?.extra.custom_app_url, 'http://0.0.0.0:8042');
  await client.startApp('hello_app');
  await until(async () => Math.abs((await state()).head_pose.yaw) > 0.01, 10_000, 'head moves');
  const t0 = Date.now();
  await client.stopCurrentApp();
  t.ok(Date.now() - t0 < 3000, 'stopped within the return move');
  t.same((await state()).antennas_position, [-0.1745, 0.1745]);
  t.equal(await client.currentAppStatus(), null);
});

t.test('crash_app ends in error with its exit code and stderr tail', async (t) => {
  await client.startApp('crash_app');
  const st = (await until(async () => { const s = await client.currentAppStatus(); return s?.state === 'error' ? s : null; }, 10_000, 'error')) as AppStatus;
  t.match(st.error, /^Process exited with code 1\n/);
  t.match(st.error, /RuntimeError: crash_app crashed on purpose/);
  await client.stopCurrentApp();
});

t.test('stubborn_app and its child are killed after the stop timeout', async (t) => {
  logs.length = 0;
  await client.startApp('stubborn_app');
  const line = (await until(() => logs.find((l) => /stubborn_app pid \d+ child pid \d+/.test(l)), 10_000, 'pids')) as string;
  const [, pid, child] = /pid (\d+) child pid (\d+)/.exec(line) ?? [];
  await client.stopCurrentApp();
  t.ok(logs.includes('App did not stop within timeout, forcing termination'));
  await until(() => !alive(Number(pid)) && !alive(Number(child)), 2000, 'processes gone');
  t.pass('no process left');
});
