import t, { type Test } from 'tap';
import { join } from 'node:path';
import { createHubClient } from '../../drivers/hub/client.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { observe } from '../../reconciler/observe.js';
import { plan, PlanError } from '../../reconciler/plan.js';
import { apply } from '../../reconciler/apply.js';
import { newState } from '../../state/file.js';
import type { Config } from '../../schema/types.js';
import type { StateFile } from '../../state/types.js';
import { QUIET_BODY, appFiles, appMain, pyproject } from '../helpers/python-apps.js';
import { embeddedHub, simDaemon } from '../helpers/servers.js';
import { app, config } from './plan-fixtures.js';

// Issue 30.3 (spec §9 Names) through observe → plan → apply against the
// embedded hub and the simulator, which names apps by their entry point as
// Pollen's daemon does: the key is the user's label, the daemon calls use the
// entry point read from the Space's pyproject.toml; one install counts only
// once the installed list shows it; a ghost of an older state is dropped.

const USER = { name: 'demo', token: 'hf_demo_entry_points_token_30' };

async function world(t: Test) {
  const hub = await embeddedHub(t, { users: [USER] });
  const daemon = await simDaemon(t, join(t.testdir(), 'apps'), { hubEndpoint: hub.url, hubToken: USER.token });
  const hubClient = createHubClient({ endpoint: hub.url, token: USER.token });
  const daemonClient = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 120_000 });
  t.teardown(async () => { await daemonClient.close(); await hubClient.close(); });
  const space = async (id: string, files: Record<string, string>): Promise<string> => {
    await hub.createRepo(USER.name, 'space', id, { sdk: 'static' }).catch(() => {});
    await hub.commit(USER.name, 'space', id, files, 'files');
    return `${hub.url}/spaces/${id}`;
  };
  const cfg = (apps: Record<string, string>, active: string | null = null): Config => {
    const c = config({ apps: Object.entries(apps).map(([key, url]) => app(key, { source: url, spaceId: url.split('/spaces/')[1] ?? null })), active, robots: [{ name: 'desk' }] });
    c.hub.endpoint = hub.url;
    for (const r of Object.values(c.robots)) r.url = daemon.url;
    return c;
  };
  const deps = { hub: hubClient, daemon: () => daemonClient };
  const planned = async (c: Config, state: StateFile) => plan(c, await observe(c, deps, undefined, { listWebhooks: false }), state, { allowEmpty: true });
  const run = async (c: Config, state: StateFile) => {
    const p = await planned(c, state);
    return { p, ...(await apply(p, c, { ...deps, statePath: null, state, healthyForMs: 300 }, new AbortController().signal)) };
  };
  return { hub, daemonClient, space, cfg, planned, run };
}

t.test('a key that is not the entry point: installed and started as hello_rt, recorded under the key, converged after', async (t) => {
  const w = await world(t);
  const url = await w.space('demo/hello_rt', appFiles('hello_rt', QUIET_BODY));
  const c = w.cfg({ greeter: url }, 'greeter');
  const first = await w.run(c, newState());
  t.same(first.p.actions.map((a) => ['app' in a ? a.app : '', 'name' in a ? a.name : '', a.type]), [['greeter', 'hello_rt', 'install'], ['greeter', 'hello_rt', 'start']]);
  const install = first.p.actions[0];
  t.match(install, { type: 'install', info: { name: 'hello_rt', extra: { id: 'demo/hello_rt', private: false } } }, 'the daemon\'s name, and the dashboard\'s extra (issue 30.4)');
  t.equal(first.report.robots[0]?.status, 'converged', first.report.robots[0]?.reason ?? '');
  t.match(first.state.robots.desk?.apps.greeter, { source: url, entryPoint: 'hello_rt' });
  t.same((await w.daemonClient.listInstalled()).map((a) => a.name), ['hello_rt']);
  t.equal((await w.daemonClient.currentAppStatus())?.info.name, 'hello_rt');
  const again = await w.planned(c, first.state);
  t.same(again.actions, [], 'nothing left to do: the second diff is clean');
  const dropped = await w.run(w.cfg({}), first.state);
  t.match(dropped.p.actions.map((a) => [a.type, 'name' in a ? a.name : '']), [['stop', 'hello_rt'], ['remove', 'hello_rt']]);
  t.same(await w.daemonClient.listInstalled(), [], 'removed by its entry point');
  t.same(dropped.state.robots.desk?.apps ?? {}, {});
});

t.test('several entry points, none, or pyproject.toml that is not TOML: the plan refuses, naming them', async (t) => {
  const w = await world(t);
  const two = await w.space('demo/two_rt', {
    'pyproject.toml': pyproject('two_rt', { entries: { first_rt: 'first_rt', second_rt: 'second_rt' }, packages: ['first_rt', 'second_rt'] }),
    'first_rt/__init__.py': '', 'first_rt/main.py': appMain(QUIET_BODY), 'second_rt/__init__.py': '', 'second_rt/main.py': appMain(QUIET_BODY),
  });
  const none = await w.space('demo/none_rt', { 'pyproject.toml': '[project]\nname = "none_rt"\nversion = "0.1.0"\n' });
  const broken = await w.space('demo/broken_rt', { 'pyproject.toml': '[project]\nname = "broken_rt\n' });
  const err = await w.planned(w.cfg({ two: two, none: none, broken: broken }), newState()).then(() => null, (e: unknown) => e);
  t.ok(err instanceof PlanError);
  const msg = (err as Error).message;
  t.match(msg, /apps\.two: Space demo\/two_rt declares 2 entry points in \[project\.entry-points\."reachy_mini_apps"\] \(first_rt, second_rt\)/);
  t.match(msg, /apps\.none: Space demo\/none_rt declares no entry point in \[project\.entry-points\."reachy_mini_apps"\]/);
  t.match(msg, /apps\.broken: pyproject\.toml of Space demo\/broken_rt:2:\d+: not valid TOML/);
});

t.test('an install the installed list does not show fails, naming what the robot installed; nothing is recorded', async (t) => {
  const w = await world(t);
  const url = await w.space('demo/moving_rt', appFiles('moving_rt', QUIET_BODY));
  const c = w.cfg({ moving: url });
  c.rollout.onFailure = 'stop'; // nothing to roll back to: the failure is the report
  const p = await w.planned(c, newState());
  t.match(p.actions[0], { type: 'install', name: 'moving_rt' });
  // The Space changes its package between plan and apply: the robot installs what it downloads.
  await w.space('demo/moving_rt', appFiles('moving_rt', QUIET_BODY, { pkg: 'other_rt' }));
  const r = await apply(p, c, { hub: null, daemon: () => w.daemonClient, statePath: null, state: newState() }, new AbortController().signal);
  t.equal(r.report.robots[0]?.status, 'failed');
  t.match(r.report.robots[0]?.failed[0]?.error, /the robot reported the install done, but lists no app 'moving_rt': it installed 'other_rt'/);
  t.same(r.state.robots.desk?.apps.moving, { source: url, path: null, sha: null, intent: 'install', entryPoint: 'moving_rt' }, 'only the intent of issue 29.4 (by the entry point), which never reads as installed');
});

t.test('a ghost of an older state (recorded, not on the robot) is dropped with a note', async (t) => {
  const w = await world(t);
  const url = await w.space('demo/kept_rt', appFiles('kept_rt', QUIET_BODY));
  const state = newState();
  // What robotctl before issue 30 recorded for `greeter` after the robot installed hello_rt.
  state.robots.desk = { apps: { greeter: { source: `${w.hub.url}/spaces/demo/hello_rt`, path: null, sha: null } } };
  const r = await w.run(w.cfg({ kept: url }), state);
  const ghost = r.p.actions.find((a) => a.address === 'robots.desk.apps.greeter');
  t.match(ghost, { type: 'remove', reason: /in the state but not on the robot \(no app 'greeter' there\): dropped from the state/ });
  t.equal(r.report.robots[0]?.status, 'converged', 'the robot\'s "not installed" counts as done');
  t.same(Object.keys(r.state.robots.desk?.apps ?? {}), ['kept']);
});
