import t, { type Test } from 'tap';
import { packagePath } from '../../lib/paths.js';
import { startDaemon, type RunningDaemon } from '../../runtime/daemon/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import { until } from '../helpers/wait.js';

// Two simulated robots on one machine, each running real Reachy Mini apps:
// each app reaches its own daemon (ROBOT_DAEMON_URL) and serves its settings
// page on a free port of its own (ROBOTCTL_APP_SETTINGS_URL), reported as its
// custom_app_url. No app here binds 8042 or talks to 127.0.0.1:8000.

interface Robot { daemon: RunningDaemon; client: DaemonClient }

async function robot(t: Test, apps: string[]): Promise<Robot> {
  // The apps inherit this environment: no settings URL, so the daemon picks one.
  const { ROBOTCTL_APP_SETTINGS_URL: _none, ...env } = process.env;
  const daemon = await startDaemon({ appsDir: t.testdir(), sim: true, port: 0, startupApp: null, stopTimeoutMs: 2000, env });
  const client = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 300_000 });
  for (const name of apps) {
    await client.install({ name, source_kind: 'local', description: '', url: null, extra: { path: packagePath('examples', 'apps', name) } });
  }
  return { daemon, client };
}

async function state(r: Robot): Promise<{ body_yaw: number; antennas_position: number[]; head_pose: { yaw: number } }> {
  return (await fetch(`${r.daemon.url}/api/state/full`)).json() as Promise<{ body_yaw: number; antennas_position: number[]; head_pose: { yaw: number } }>;
}

t.test('two robots, two apps at once, each moving only its own robot, two settings pages', async (t) => {
  const a = await robot(t, ['hello_app']);
  const b = await robot(t, ['hello_app', 'wave_app']);
  t.teardown(async () => {
    for (const r of [a, b]) {
      await r.client.close();
      await r.daemon.close();
    }
  });
  await a.client.startApp('hello_app');
  await b.client.startApp('hello_app');
  for (const r of [a, b]) await until(async () => Math.abs((await state(r)).head_pose.yaw) > 0.01, 20_000, 'hello_app moves its robot');
  const urls = await Promise.all([a, b].map(async (r) => (await r.client.currentAppStatus())?.info.extra.custom_app_url as string));
  t.not(urls[0], urls[1], `distinct settings URLs (${urls.join(', ')})`);
  for (const url of urls) {
    t.notMatch(url, ':8042', 'not the shared default port');
    const page = await until(async () => fetch(url.replace('0.0.0.0', '127.0.0.1')).then((res) => (res.ok ? res.text() : null), () => null), 20_000, `settings page ${url}`);
    t.match(page, '<', `settings page served at ${url}`);
  }

  await b.client.stopCurrentApp();
  await b.client.startApp('wave_app');
  await until(async () => Math.abs((await state(b)).body_yaw) > 0.01, 20_000, 'wave_app sways robot b');
  const [sa, sb] = [await state(a), await state(b)];
  t.equal(sa.body_yaw, 0, 'robot a never got wave_app\'s body yaw');
  t.ok(Math.abs(sa.antennas_position[0]! + sa.antennas_position[1]!) < 1e-9, 'robot a still has hello_app\'s mirrored antennas');
  t.ok(Math.abs(sb.antennas_position[0]! - sb.antennas_position[1]!) < 1e-9, 'robot b has wave_app\'s parallel antennas');
  await a.client.stopCurrentApp();
  await b.client.stopCurrentApp();
});
