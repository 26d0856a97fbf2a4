import t from 'tap';
import { join } from 'node:path';
import { createHubClient } from '../../drivers/hub/client.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { observe } from '../../reconciler/observe.js';
import { plan } from '../../reconciler/plan.js';
import { apply } from '../../reconciler/apply.js';
import { readState } from '../../state/file.js';
import { QUIET_BODY, appFiles } from '../helpers/python-apps.js';
import { embeddedHub, simDaemon } from '../helpers/servers.js';
import { fileScratch } from '../helpers/file-scratch.js';
import { app, config } from './plan-fixtures.js';

// A push that lands after the plan was made: the robot's daemon installs the
// Space's head, and the rollout's record says what it installed (the sha the
// install's result carries), not the revision the plan saw. The embedded hub
// and a simulated robot, through the drivers.

const USER = { name: 'alice', token: 'hf_alice_installed_rev_token_1' };
const SPACE = 'alice/hello_app';

t.test('the rollout records the revision the robot installed', async (t) => {
  const scratch = fileScratch('rollout-installed');
  t.teardown(() => scratch.remove());
  const hub = await embeddedHub(t, { users: [USER] });
  await hub.createRepo(USER.name, 'space', SPACE, { sdk: 'static' });
  const v1 = (await hub.commit(USER.name, 'space', SPACE, appFiles('hello_app', QUIET_BODY, { marker: 'v1' }), 'v1')).commitOid;
  const daemon = await simDaemon(t, join(scratch.dir, 'robot'), { hubEndpoint: hub.url, hubToken: USER.token, startupApp: null });
  const hubClient = createHubClient({ endpoint: hub.url, token: USER.token });
  const robot = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 120_000 });
  t.teardown(async () => { await robot.close(); await hubClient.close(); });

  const cfg = config({ apps: [app('hello_app', { source: `${hub.url}/spaces/${SPACE}` })], robots: [{ name: 'desk', url: daemon.url }] });
  cfg.hub.endpoint = hub.url;
  const statePath = join(scratch.dir, 'state.json');
  const state = await readState(statePath);
  const p = plan(cfg, await observe(cfg, { hub: hubClient, daemon: () => robot }), state);
  t.match(p.actions, [{ type: 'install', app: 'hello_app', record: { sha: v1 } }], 'planned at v1');

  const v2 = (await hub.commit(USER.name, 'space', SPACE, appFiles('hello_app', QUIET_BODY, { marker: 'v2' }), 'v2')).commitOid;
  const { report, state: after } = await apply(p, cfg, { hub: hubClient, daemon: () => robot, statePath, state }, new AbortController().signal);
  t.equal(report.robots[0]?.status, 'converged');
  t.equal((await robot.listInstalled()).find((a) => a.name === 'hello_app')?.extra.installed_sha, v2, 'the robot installed the head');
  t.same(after.rollouts?.history[0]?.revisions, [{ robot: 'desk', app: 'hello_app', from: null, to: v2 }], 'the history says v2, not the planned v1');
  t.equal(after.robots.desk?.apps.hello_app?.sha, v2, 'as the app\'s own record does');
});
