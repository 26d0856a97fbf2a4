import t from 'tap';
import { join } from 'node:path';
import { createHubClient } from '../../drivers/hub/client.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import { startDaemon, type RunningDaemon } from '../../runtime/daemon/server.js';
import { observe } from '../../reconciler/observe.js';
import { plan } from '../../reconciler/plan.js';
import { apply } from '../../reconciler/apply.js';
import { fleetStatus } from '../../reconciler/agent/status-fleet.js';
import { newState } from '../../state/file.js';
import type { Config } from '../../schema/types.js';
import type { StateFile } from '../../state/types.js';
import { QUIET_BODY, appFiles } from '../helpers/python-apps.js';
import { embeddedHub } from '../helpers/servers.js';
import { until } from '../helpers/wait.js';
import { app, config } from './plan-fixtures.js';

// startup_app (issue 30.5; spec §9 Startup app) planned, diffed and applied
// through GET/PUT /api/apps/startup-app of the simulator: by the entry
// point; robot.yaml wins over the simulator's --startup-app once applied
// (both set the one saved value, which the next boot starts); null clears.

const USER = { name: 'demo', token: 'hf_demo_startup_app_token_30' };

t.test('startup_app: set, diffed, kept over the simulator\'s flag, cleared', async (t) => {
  const hub = await embeddedHub(t, { users: [USER] });
  const hubClient = createHubClient({ endpoint: hub.url, token: USER.token });
  const appsDir = join(t.testdir(), 'apps');
  let daemon: RunningDaemon = await startDaemon({ appsDir, sim: true, port: 0, hubEndpoint: hub.url, hubToken: USER.token });
  let client: DaemonClient = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 120_000 });
  t.teardown(async () => { await client.close(); await daemon.close(); await hubClient.close(); });
  for (const pkg of ['hello_rt', 'wave_rt']) {
    await hub.createRepo(USER.name, 'space', `demo/${pkg}`, { sdk: 'static' });
    await hub.commit(USER.name, 'space', `demo/${pkg}`, appFiles(pkg, QUIET_BODY), 'app');
  }
  const cfg = (startup: string | null): Config => {
    const c = config({ apps: [app('greeter', { source: `${hub.url}/spaces/demo/hello_rt`, spaceId: 'demo/hello_rt' }), app('wave', { source: `${hub.url}/spaces/demo/wave_rt`, spaceId: 'demo/wave_rt' })], robots: [{ name: 'desk' }] });
    c.hub.endpoint = hub.url;
    for (const r of Object.values(c.robots)) { r.url = daemon.url; r.startupApp = startup; }
    return c;
  };
  const deps = () => ({ hub: hubClient, daemon: () => client });
  const planned = async (c: Config, state: StateFile) => plan(c, await observe(c, deps(), undefined, { listWebhooks: false }), state);
  const run = async (c: Config, state: StateFile) => {
    const p = await planned(c, state);
    return { p, ...(await apply(p, c, { ...deps(), statePath: null, state }, new AbortController().signal)) };
  };

  const first = await run(cfg('greeter'), newState());
  t.same(first.p.actions.map((a) => a.type), ['install', 'install', 'startup_app']);
  t.match(first.p.actions[2], { address: 'robots.desk.startup_app', app: 'greeter', name: 'hello_rt', reason: 'the robot starts no app at boot' });
  t.equal(first.report.robots[0]?.status, 'converged', first.report.robots[0]?.reason ?? '');
  t.equal(await client.startupApp(), 'hello_rt', 'set by the entry point');
  t.same((await planned(cfg('greeter'), first.state)).actions, [], 'the diff is clean');
  const observed = await observe(cfg('greeter'), deps(), undefined, { listWebhooks: false, daemonStatus: true });
  const status = fleetStatus({ config: cfg('greeter'), file: 'robot.yaml', hubEndpoint: hub.url, watchesHub: false, observation: observed, remaining: plan(cfg('greeter'), observed, first.state), state: first.state, lastRun: null, now: new Date() });
  t.equal(status.robots[0]?.startup_app, 'hello_rt', 'status shows it');

  // The simulator restarted with --startup-app wave_rt: the saved value changes, and the robot starts it.
  await client.close();
  await daemon.close();
  daemon = await startDaemon({ appsDir, sim: true, port: 0, hubEndpoint: hub.url, hubToken: USER.token, startupApp: 'wave_rt' });
  client = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 120_000 });
  await until(async () => (await client.currentAppStatus())?.info.name === 'wave_rt', 20_000, 'the flag\'s app started');
  const back = await run(cfg('greeter'), first.state);
  t.match(back.p.actions.find((a) => a.type === 'startup_app'), { name: 'hello_rt', reason: 'the robot starts wave_rt at boot' });
  t.equal(await client.startupApp(), 'hello_rt', 'robot.yaml wins once applied');

  // The next boot starts what robot.yaml set.
  await client.close();
  await daemon.close();
  daemon = await startDaemon({ appsDir, sim: true, port: 0, hubEndpoint: hub.url, hubToken: USER.token });
  client = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 120_000 });
  await until(async () => (await client.currentAppStatus())?.info.name === 'hello_rt', 20_000, 'the saved startup app started');

  const cleared = await run(cfg(null), back.state);
  t.match(cleared.p.actions.filter((a) => a.type === 'startup_app'), [{ app: null, name: null, reason: 'the robot starts hello_rt at boot' }]);
  t.equal(await client.startupApp(), null, 'null clears it');
  const unmanaged = cfg(null);
  for (const r of Object.values(unmanaged.robots)) delete r.startupApp;
  await client.setStartupApp('wave_rt');
  t.notOk((await planned(unmanaged, cleared.state)).actions.some((a) => a.type === 'startup_app'), 'absent: the robot\'s own setting is left alone');
});
