import t from 'tap';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { startDaemon } from '../../runtime/daemon/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { observe } from '../../reconciler/observe.js';
import { plan } from '../../reconciler/plan.js';
import { apply, type ApplyEvent } from '../../reconciler/apply.js';
import { newState } from '../../state/file.js';
import type { StateFile } from '../../state/types.js';
import { QUIET_BODY, appFiles, crashAfterBody } from '../helpers/python-apps.js';
import { until } from '../helpers/wait.js';
import { app, config } from './plan-fixtures.js';

// A rollback on a daemon that answers as Pollen's does (the simulator with
// robotctlExtensions: false): it installs a Space's head only, so the failed canary
// runs its previous app again, the revision that could not be restored is
// said in its report, and the failing revision is held back: not started
// again on the next plan.

const USER = { name: 'alice', token: 'hf_alice_rollback_real_token_31' };

t.test('Pollen\'s daemon: the previous active app runs again, the revision it could not restore is reported', async (t) => {
  const dir = t.testdir();
  const hub = await startHub({ users: [USER] });
  const real = await startDaemon({ appsDir: join(dir, 'real'), sim: true, port: 0, robotctlExtensions: false, hubEndpoint: hub.url, hubToken: USER.token, startupApp: null, stopTimeoutMs: 5000 });
  const hubClient = createHubClient({ endpoint: hub.url, token: USER.token });
  const daemon = createDaemonClient({ baseUrl: real.url, jobTimeoutMs: 300_000 });
  t.teardown(async () => { await daemon.close(); await hubClient.close(); await real.close(); await hub.close(); });
  const space = 'alice/hello_app';
  await hub.createRepo(USER.name, 'space', space, { sdk: 'static' });
  const v1 = (await hub.commit(USER.name, 'space', space, appFiles('hello_app', QUIET_BODY, { marker: 'v1' }), 'v1')).commitOid;
  const cfg = config({ apps: [app('hello_app', { source: `${hub.url}/spaces/${space}` })], active: 'hello_app', robots: [{ name: 'desk' }] });
  cfg.hub.endpoint = hub.url;
  (cfg.robots.desk as { url: string }).url = real.url;
  const deps = { hub: hubClient, daemon: () => daemon };
  const run = async (state: StateFile, healthyForMs: number, events: ApplyEvent[] = []) => {
    const p = plan(cfg, await observe(cfg, deps, undefined, { listWebhooks: false }), state);
    return { p, r: await apply(p, cfg, { ...deps, statePath: null, state, healthyForMs }, new AbortController().signal, (e) => events.push(e)) };
  };
  const first = await run(newState(), 300);
  t.equal(first.r.report.robots[0]?.status, 'converged', first.r.report.robots[0]?.reason ?? '');
  const v2 = (await hub.commit(USER.name, 'space', space, appFiles('hello_app', crashAfterBody(1, 'hello_app v2 boom'), { marker: 'v2' }), 'v2')).commitOid;
  const events: ApplyEvent[] = [];
  const second = await run(first.r.state, 5000, events);
  const desk = second.r.report.robots[0];
  t.equal(desk?.status, 'rolled_back', desk?.reason ?? '');
  t.match(desk?.reason, /RuntimeError: hello_app v2 boom.*; rolled back: hello_app running; not restored: hello_app [0-9a-f]{7} \(the robot's daemon installs a Space's head only\)$/);
  t.same(desk?.rollback?.notRestored, [`hello_app ${v1.slice(0, 7)} (the robot's daemon installs a Space's head only)`]);
  t.ok(events.some((e) => e.type === 'robot.rolling_back' && e.actions.map((a) => a.type).join() === 'stop,start'), 'stop, then start what ran: no install');
  t.equal(second.r.state.robots.desk?.apps.hello_app?.sha, v2, 'the state records what the robot has: the revision it could not leave');
  t.equal(second.r.state.rollouts?.held.hello_app?.sha, v2);
  // The restart ran the only revision the daemon has: it crashes again, and is not started again.
  await until(async () => (await daemon.currentAppStatus())?.state === 'error', 20_000, 'the restored app crashes on its own');
  const third = plan(cfg, await observe(cfg, deps, undefined, { listWebhooks: false }), second.r.state);
  t.same(third.actions, [], 'nothing is retried on the held revision');
  t.same(third.heldBack.map((h) => [h.robot, h.sha]), [['desk', v2]]);
});
