import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { startDaemon } from '../../runtime/daemon/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import type { Config, RobotSpec } from '../../schema/types.js';
import type { RobotAddress } from '../../reconciler/types.js';
import { observe } from '../../reconciler/observe.js';
import { plan } from '../../reconciler/plan.js';
import { apply, type ApplyEvent } from '../../reconciler/apply.js';
import { readState } from '../../state/file.js';
import { QUIET_BODY as QUIET, makeApp } from '../helpers/python-apps.js';
import { SECRET, config, pathApp, webhook } from './plan-fixtures.js';
import { fileScratch } from '../helpers/file-scratch.js';

// apply() for real: the embedded hub and a simulated daemon through the
// drivers; the state file after every action; the start conflict resolved.

const USER = { name: 'alice', token: 'hf_alice_apply_token_1' };

t.test('apply through the drivers', async (t) => {
  // Not t.testdir(): the daemon writes in its apps folder until its close, after tap's removal.
  const scratch = fileScratch('apply-drivers');
  const dir = scratch.dir;
  const hub = await startHub({ users: [USER] });
  const daemon = await startDaemon({ appsDir: join(dir, 'robot'), sim: true, port: 0, stopTimeoutMs: 3000 });
  const hubClient = createHubClient({ endpoint: hub.url, token: USER.token });
  const clients = new Map<string, DaemonClient>();
  const daemonFor = (r: RobotAddress): DaemonClient => {
    const c = clients.get(r.url) ?? createDaemonClient({ baseUrl: r.url, timeoutMs: 5000, maxRetries: 1, retryBaseMs: 5 });
    clients.set(r.url, c);
    return c;
  };
  t.teardown(async () => {
    for (const c of clients.values()) await c.close();
    await hubClient.close();
    await daemon.close();
    await hub.close();
    scratch.remove();
  });
  const statePath = join(dir, 'state.json');
  const run = async (cfg: Config, events: ApplyEvent[] = []) => {
    const state = await readState(statePath);
    const observed = await observe(cfg, { hub: hubClient, daemon: daemonFor });
    const p = plan(cfg, observed, state);
    const result = await apply(p, cfg, { hub: hubClient, daemon: daemonFor, statePath, state, healthyForMs: 200 }, new AbortController().signal, (e) => events.push(e));
    return { p, result, events };
  };
  const quiet = makeApp(dir, 'quiet_app', QUIET);
  const other = makeApp(dir, 'other_app', QUIET);
  const withRobot = (active: string) => {
    const cfg = config({
      webhooks: [webhook('a'), webhook('b', { url: 'https://example.org/b', enabled: false })],
      apps: [pathApp('quiet_app', quiet), pathApp('other_app', other)], active, robots: [{ name: 'desk' }],
    });
    (cfg.robots.desk as RobotSpec).url = daemon.url;
    return cfg;
  };

  await t.test('from nothing: webhooks created (one disabled), apps installed and started, state after each action', async (t) => {
    const { result, events } = await run(withRobot('quiet_app'));
    t.equal(result.report.hub.status, 'converged');
    t.equal(result.report.robots[0]?.status, 'converged');
    const listed = await hubClient.listWebhooks();
    t.equal(listed.length, 2);
    t.equal(listed.find((h) => h.url === 'https://example.org/b')?.disabled, true);
    const state = await readState(statePath);
    // Two creates, two installs and each install's intent before it is sent:
    // six records, then the rollout's own; the hub and the robot finish at
    // once, so two records may share one write (group commit).
    t.ok(state.serial >= 6 && state.serial <= 7, `seven records in ${state.serial} writes`);
    t.notOk(Object.values(state.robots.desk?.apps ?? {}).some((a) => a.intent), 'no intent left once the installs are confirmed');
    t.equal(state.rollouts?.history.length, 1, 'the rollout is recorded');
    t.same(Object.keys(state.webhooks).sort(), ['a', 'b']);
    t.same(Object.keys(state.robots.desk?.apps ?? {}).sort(), ['other_app', 'quiet_app']);
    t.notOk(readFileSync(statePath, 'utf8').includes(SECRET), 'no secret in the state');
    t.ok(events.some((e) => e.type === 'action.done' && e.action.type === 'start'));
  });

  await t.test('a second run plans nothing and writes nothing', async (t) => {
    hub.resetStats();
    const before = daemon.stats().writes;
    const { p, result } = await run(withRobot('quiet_app'));
    t.equal(p.actions.length, 0);
    t.equal(result.report.robots[0]?.status, 'already_converged');
    t.equal(hub.stats().writes, 0);
    t.equal(daemon.stats().writes, before);
  });

  await t.test('switching the active app: stop then start', async (t) => {
    const { p, result } = await run(withRobot('other_app'));
    t.same(p.actions.map((a) => a.type), ['stop', 'start']);
    t.equal(result.report.robots[0]?.status, 'converged');
    const current = await daemonFor({ name: 'desk', url: daemon.url }).currentAppStatus();
    t.equal(current?.info.name, 'other_app');
  });

  await t.test('a start refused because another app runs is resolved by stopping it first', async (t) => {
    const cfg = withRobot('quiet_app');
    const state = await readState(statePath);
    const p = plan(cfg, await observe(cfg, { hub: hubClient, daemon: daemonFor }), state);
    const onlyStart = { ...p, actions: p.actions.filter((a) => a.type === 'start') };
    const events: ApplyEvent[] = [];
    const result = await apply(onlyStart, cfg, { hub: hubClient, daemon: daemonFor, statePath, state, healthyForMs: 200 }, new AbortController().signal, (e) => events.push(e));
    t.equal(result.report.robots[0]?.status, 'converged');
    t.ok(events.some((e) => e.type === 'action.resolving'));
  });

  await t.test('a robot that went away is retried, then reported failed', async (t) => {
    const cfg = withRobot('quiet_app');
    (cfg.robots.desk as RobotSpec).url = 'http://127.0.0.1:9';
    const p = {
      ...plan(cfg, { hub: { ok: true, webhooks: await hubClient.listWebhooks() }, spaces: {}, robots: { desk: { reachable: true, daemon: { robot_name: 'x', state: 'running', robotctl_simulator: true }, installed: [], current: null } } }, await readState(statePath)),
    };
    const events: ApplyEvent[] = [];
    const result = await apply(p, cfg, { hub: hubClient, daemon: daemonFor, statePath, state: await readState(statePath) }, new AbortController().signal, (e) => events.push(e));
    t.equal(result.report.robots[0]?.status, 'failed');
    t.match(result.report.robots[0]?.reason, /unreachable/);
    t.equal(events.filter((e) => e.type === 'action.retrying').length, 1);
  });

  await t.test('deleting only what the state owns', async (t) => {
    const foreign = await hubClient.createWebhook({ url: 'https://someone.else/hook', watched: [{ type: 'user', name: 'alice' }] });
    const cfg = withRobot('quiet_app');
    delete cfg.webhooks.b;
    const { p, result } = await run(cfg);
    t.same(p.actions.filter((a) => a.type === 'delete').map((a) => a.address), ['webhooks.b']);
    t.equal(result.report.hub.status, 'converged');
    const ids = (await hubClient.listWebhooks()).map((h) => h.id);
    t.ok(ids.includes(foreign.id), 'the unmanaged webhook is left alone');
    t.equal(ids.length, 2);
    t.same(Object.keys((await readState(statePath)).webhooks), ['a']);
  });
});
