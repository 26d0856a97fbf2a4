import t from 'tap';
import { join } from 'node:path';
import { startDaemon } from '../../runtime/daemon/server.js';
import { startHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import type { Config, RobotSpec } from '../../schema/types.js';
import type { StateFile } from '../../state/types.js';
import { newState } from '../../state/file.js';
import { observe } from '../../reconciler/observe.js';
import { plan } from '../../reconciler/plan.js';
import { apply } from '../../reconciler/apply.js';
import { QUIET_BODY, makeApp } from '../helpers/python-apps.js';
import { config, pathApp } from './plan-fixtures.js';
import { fileScratch } from '../helpers/file-scratch.js';
import { until } from '../helpers/wait.js';

// Issue 29.5: an app that is slow to stop (it ignores SIGINT; the daemon
// kills it after its 3 s stop timeout) is still `stopping` when the next
// apply comes. A second stop answers "No app is currently running" then, and
// the driver took that as done: the start that followed failed with "An app
// is already running", the remove with "Cannot remove … while it is running".
// Now the driver waits while the daemon's app state says `stopping`.

const STUBBORN = `
def main():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        time.sleep(0.05)
`;

t.test('a stop in progress is waited for before a start or a remove', async (t) => {
  const scratch = fileScratch('stopping-app');
  const daemon = await startDaemon({ appsDir: join(scratch.dir, 'robot'), sim: true, port: 0, stopTimeoutMs: 3000 });
  const client = createDaemonClient({ baseUrl: daemon.url, timeoutMs: 5000 });
  const hub = await startHub({ users: [] });
  const hubClient = createHubClient({ endpoint: hub.url, token: null });
  t.teardown(async () => {
    await hubClient.close();
    await hub.close();
    await client.close();
    await daemon.close();
    scratch.remove();
  });
  const stubborn = pathApp('stubborn_app', makeApp(scratch.dir, 'stubborn_app', STUBBORN));
  const quiet = pathApp('quiet_app', makeApp(scratch.dir, 'quiet_app', QUIET_BODY));
  let state: StateFile = newState();
  const cfg = (apps: typeof stubborn[], active: string | null): Config => {
    const c = config({ apps, active, robots: [{ name: 'desk' }] });
    (c.robots.desk as RobotSpec).url = daemon.url;
    return c;
  };
  const run = async (c: Config) => {
    const p = plan(c, await observe(c, { hub: hubClient, daemon: () => client }, undefined, { listWebhooks: false }), state);
    const out = await apply(p, c, { hub: null, daemon: () => client, state, healthyForMs: 200 }, new AbortController().signal);
    state = out.state;
    return out.report.robots[0];
  };
  /** Ask the daemon to stop its app without waiting, as a killed apply or a person would, until it says `stopping`. */
  const stopInProgress = async (): Promise<void> => {
    void fetch(`${daemon.url}/api/apps/stop-current-app`, { method: 'POST' }).then((r) => r.arrayBuffer(), () => null);
    await until(async () => (await client.currentAppStatus())?.state === 'stopping', 10_000, 'the app is stopping');
  };

  t.equal((await run(cfg([stubborn, quiet], 'stubborn_app')))?.status, 'converged', 'both installed, stubborn_app runs');
  await stopInProgress();
  const switched = await run(cfg([stubborn, quiet], 'quiet_app'));
  t.equal(switched?.status, 'converged', `switching to quiet_app waits for the stop: ${JSON.stringify(switched)}`);
  t.equal((await client.currentAppStatus())?.info.name, 'quiet_app');
  t.equal((await client.currentAppStatus())?.state, 'running');

  t.equal((await run(cfg([stubborn, quiet], 'stubborn_app')))?.status, 'converged', 'stubborn_app runs again');
  await stopInProgress();
  const removed = await run(cfg([quiet], null));
  t.equal(removed?.status, 'converged', `removing it waits for the stop: ${JSON.stringify(removed)}`);
  t.same((await client.listInstalled()).map((a) => a.name), ['quiet_app'], 'stubborn_app is gone');

  t.equal((await run(cfg([stubborn, quiet], 'stubborn_app')))?.status, 'converged', 'stubborn_app installed and running once more');
  await stopInProgress();
  await client.stopCurrentApp();
  t.equal(await client.currentAppStatus(), null, 'a stop asked during a stop resolves once that stop is done');
});
