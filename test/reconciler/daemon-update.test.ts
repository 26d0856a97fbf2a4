import t, { type Test } from 'tap';
import { join } from 'node:path';
import { startDaemon, type RunningDaemon } from '../../runtime/daemon/server.js';
import type { ReleaseOptions } from '../../runtime/daemon/update/releases.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import type { HubClient } from '../../drivers/hub/types.js';
import type { Config } from '../../schema/types.js';
import type { RobotAddress } from '../../reconciler/types.js';
import { observe } from '../../reconciler/observe.js';
import { plan } from '../../reconciler/plan.js';
import { apply, type ApplyEvent } from '../../reconciler/apply.js';
import { newState } from '../../state/file.js';
import { QUIET_BODY, makeApp } from '../helpers/python-apps.js';
import { config, pathApp, type RobotInput } from './plan-fixtures.js';
import { until } from '../helpers/wait.js';

// Robots as managed resources (issue 31), through the real drivers against
// simulated daemons: a daemon update rolled out canary first, the apps of a
// robot reconciled only once its daemon runs the declared release; a failed
// update on the canary leaving the others untouched; a crash-looping release
// failing within daemon.update_timeout with what it last logged, and a daemon
// that falls over within rollout.healthy_for; a robot that
// answers another hardware id refused (at plan time, and before its first
// change when the address moved since); a rename.

const noHub = {} as HubClient; // robots-only files: observe and apply never call the hub

interface Fleet {
  daemons: RunningDaemon[];
  client: (r: RobotAddress) => DaemonClient;
  at: (i: number) => DaemonClient;
}

async function fleet(t: Test, n: number, release: ReleaseOptions): Promise<Fleet> {
  const dir = t.testdir();
  const daemons: RunningDaemon[] = [];
  for (let i = 0; i < n; i++) {
    daemons.push(await startDaemon({ sim: true, port: 0, appsDir: join(dir, `robot-${i}`), robotName: `reachy_mini-${i}`, release, stopTimeoutMs: 3000 }));
  }
  const clients = new Map<string, DaemonClient>();
  const client = (r: { url: string }): DaemonClient => {
    let c = clients.get(r.url);
    if (!c) clients.set(r.url, (c = createDaemonClient({ baseUrl: r.url, timeoutMs: 5000 })));
    return c;
  };
  t.teardown(async () => {
    for (const c of clients.values()) await c.close();
    for (const d of daemons) await d.close();
  });
  return { daemons, client, at: (i) => client({ url: (daemons[i] as RunningDaemon).url }) };
}

const NAMES = ['desk', 'lab-1', 'lab-2'];

function fleetConfig(f: Fleet, robots: Partial<RobotInput>[], over: { apps?: Config['apps'][string][]; active?: string | null; timeoutMs?: number; parallelism?: number; onFailure?: 'rollback' | 'stop' } = {}): Config {
  const cfg = config({
    apps: over.apps ?? [], active: over.active ?? null,
    robots: robots.map((r, i) => ({ name: NAMES[i] as string, url: (f.daemons[i] as RunningDaemon).url, ...r })),
  });
  cfg.rollout = { parallelism: over.parallelism ?? 2, canary: 1, maxFailures: { kind: 'count', value: 0 }, healthyForMs: 200, onFailure: over.onFailure ?? 'stop' };
  cfg.daemon = { version: null, updateTimeoutMs: over.timeoutMs ?? 60_000 };
  return cfg;
}

async function run(f: Fleet, cfg: Config) {
  const observed = await observe(cfg, { hub: noHub, daemon: f.client }, undefined, { listWebhooks: false });
  const p = plan(cfg, observed, newState());
  const events: ApplyEvent[] = [];
  const result = await apply(p, cfg, { hub: null, daemon: f.client, state: newState() }, new AbortController().signal, (e) => events.push(e));
  return { p, report: result.report, events };
}

/** `desk update_daemon started`, … in the order they happened. */
function steps(events: ApplyEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    if ((e.type === 'action.started' || e.type === 'action.done' || e.type === 'action.failed') && 'robot' in e.action) {
      out.push(`${e.action.robot} ${e.action.type} ${e.type.slice('action.'.length)}`);
    }
  }
  return out;
}

const versions = async (f: Fleet): Promise<string[]> => Promise.all(f.daemons.map(async (_, i) => String((await f.at(i).daemonStatus()).version)));

t.test('an update to the declared release: canary first, then the others; apps only once the daemon runs it', async (t) => {
  const f = await fleet(t, 3, { version: '1.9.0' });
  const quiet = makeApp(t.testdir(), 'quiet_app', QUIET_BODY);
  const cfg = fleetConfig(f, [{}, {}, {}], { apps: [pathApp('quiet_app', quiet)], active: 'quiet_app' });
  cfg.daemon.version = '1.10.0';
  for (const r of Object.values(cfg.robots)) r.daemonVersion = '1.10.0';
  cfg.rollout.canary = null; // not declared: a rollout that updates a daemon still sends one robot first
  const { p, report, events } = await run(f, cfg);
  t.same(p.actions.filter((a) => a.type === 'update_daemon').map((a) => a.address), ['robots.desk.daemon', 'robots.lab-1.daemon', 'robots.lab-2.daemon']);
  t.same(report.waves, [['desk'], ['lab-1', 'lab-2']], 'the first robot of the file is the canary wave');
  t.same(report.robots.map((r) => [r.name, r.status]), [['desk', 'converged'], ['lab-1', 'converged'], ['lab-2', 'converged']], JSON.stringify(report.robots));
  t.same(await versions(f), ['1.10.0', '1.10.0', '1.10.0']);
  const order = steps(events);
  const canaryDone = order.indexOf('desk start done');
  const othersBegin = Math.min(order.indexOf('lab-1 update_daemon started'), order.indexOf('lab-2 update_daemon started'));
  t.ok(canaryDone >= 0 && canaryDone < othersBegin, `the canary finished before the others began: ${order.join(', ')}`);
  for (const r of NAMES) {
    t.ok(order.indexOf(`${r} update_daemon done`) < order.indexOf(`${r} install started`), `${r}: its app is installed only after its daemon runs 1.10.0`);
  }
  for (let i = 0; i < 3; i++) t.equal((await f.at(i).currentAppStatus())?.info.name, 'quiet_app', `${NAMES[i]} runs its active app again after the restart`);
  const logs = events.filter((e) => e.type === 'action.log');
  for (const r of NAMES) {
    t.ok(logs.some((e) => e.type === 'action.log' && e.unit === r && e.line === 'Running: sudo systemctl restart reachy-mini-daemon'), `${r}: the update's log followed`);
  }
  const again = plan(cfg, await observe(cfg, { hub: noHub, daemon: f.client }, undefined, { listWebhooks: false }), newState());
  t.same(again.actions, [], 'nothing left: 1.10.0 is what runs');
});

t.test('an update that fails on the canary stops the rollout: the other robots are left alone', async (t) => {
  const f = await fleet(t, 3, { version: '1.9.0' });
  const cfg = fleetConfig(f, [{ daemonVersion: '1.11.0' }, { daemonVersion: '1.11.0' }, { daemonVersion: '1.11.0' }]);
  const { report, events } = await run(f, cfg);
  t.match(report.robots[0], { name: 'desk', status: 'failed', reason: "update daemon 1.9.0 → 1.11.0: daemon update to 1.11.0 failed: error: pathspec 'v1.11.0' did not match any file(s) known to git" });
  t.same(report.robots.slice(1).map((r) => [r.name, r.status]), [['lab-1', 'skipped'], ['lab-2', 'skipped']]);
  t.match(report.halt, { failures: 1, limit: 0, skipped: ['lab-1', 'lab-2'] });
  t.same(steps(events).filter((s) => !s.startsWith('desk')), [], 'no action began on the others');
  t.same(await versions(f), ['1.9.0', '1.9.0', '1.9.0'], 'the canary goes on unchanged, as the real daemon does after a failed job');
  for (const i of [1, 2]) t.same(await f.at(i).installSource(), { version: '1.9.0', source: 'pypi' }, `${NAMES[i]} was never updated`);
});

t.test('a crash-looping release: no healthy answer within update_timeout fails the robot with what it last logged', async (t) => {
  const f = await fleet(t, 1, { version: '1.9.0', crashloop: ['1.10.0'] });
  const cfg = fleetConfig(f, [{ daemonVersion: '1.10.0' }], { timeoutMs: 3000 });
  const { report } = await run(f, cfg);
  t.equal(report.robots[0]?.status, 'failed');
  t.match(report.robots[0]?.reason, /^update daemon 1\.9\.0 → 1\.10\.0: robot daemon at http:\/\/127\.0\.0\.1:\d+ did not answer running 1\.10\.0 within 3 s of its update \(last: .*\); its update last logged: .*Running: sudo systemctl restart reachy-mini-daemon/);
});

t.test('another hardware id refuses that robot only: at plan time, and before its first change when its address moved', async (t) => {
  const f = await fleet(t, 3, { version: '1.9.0' });
  const ids = await Promise.all([0, 1, 2].map((i) => f.at(i).hardwareId()));
  const cfg = fleetConfig(f, [
    { hardwareId: ids[0] as string, daemonVersion: '1.10.0' },
    { hardwareId: 'ffff000000000000', daemonVersion: '1.10.0' },
    { hardwareId: ids[2] as string, daemonVersion: '1.10.0', robotName: 'lab two' },
  ]);
  const { p, report } = await run(f, cfg);
  t.same(p.refused, [{ robot: 'lab-1', reason: `robot.yaml says hardware_id ffff000000000000; the robot at ${f.daemons[1]?.url} answers ${ids[1]}` }]);
  t.same(report.robots.map((r) => [r.name, r.status]), [['desk', 'converged'], ['lab-1', 'refused'], ['lab-2', 'converged']]);
  t.same(await versions(f), ['1.10.0', '1.9.0', '1.10.0'], 'the refused robot was not touched; the others went on');

  // The plan was made for lab-2 at its address; then another robot answers there (a DHCP change).
  const moved = config({ robots: [{ name: 'lab-2', url: f.daemons[2]?.url as string, hardwareId: ids[2] as string, robotName: 'lab three' }] });
  const observed = await observe(moved, { hub: noHub, daemon: f.client }, undefined, { listWebhooks: false });
  const made = plan(moved, observed, newState());
  t.same(made.actions.map((a) => a.type), ['rename_robot']);
  (moved.robots['lab-2'] as { url: string }).url = f.daemons[1]?.url as string;
  const result = await apply(made, moved, { hub: null, daemon: f.client, state: newState() }, new AbortController().signal);
  t.match(result.report.robots[0], { name: 'lab-2', status: 'refused', reason: `robot.yaml says hardware_id ${ids[2]}; the robot at ${f.daemons[1]?.url} answers ${ids[1]}` });
  t.equal(await f.at(1).robotName(), 'reachy_mini-1', 'the robot now at that address was not renamed');
  t.equal(await f.at(2).robotName(), 'lab two');
});

t.test('a rename: applied through the daemon, then nothing to do', async (t) => {
  const f = await fleet(t, 1, { version: '1.10.0' });
  const cfg = fleetConfig(f, [{ robotName: 'Desk one' }]);
  const { p, report } = await run(f, cfg);
  t.same(p.actions.map((a) => [a.type, 'from' in a ? a.from : null, 'to' in a ? a.to : null]), [['rename_robot', 'reachy_mini-0', 'Desk one']]);
  t.equal(report.robots[0]?.status, 'converged');
  t.equal(await f.at(0).robotName(), 'Desk one');
  t.equal((await f.at(0).daemonStatus()).robot_name, 'Desk one');
  t.same((await run(f, cfg)).p.actions, []);
});

t.test('on_failure: rollback: a failed wave\'s robots go back to the release they ran, through the same update call', async (t) => {
  // Three robots in one wave; lab-1's 1.10.0 crash-loops. The wave fails: desk and lab-2 go back to 1.9.0;
  // lab-1 does not answer, and its report says the rollback failed.
  const dir = t.testdir();
  const f = await fleet(t, 3, { version: '1.9.0' });
  const looping = await startDaemon({ sim: true, port: 0, appsDir: join(dir, 'looping'), robotName: 'looping', release: { version: '1.9.0', crashloop: ['1.10.0'] }, stopTimeoutMs: 3000 });
  await f.daemons[1]?.close(); // lab-1 is the looping one
  f.daemons[1] = looping;
  const cfg = fleetConfig(f, [{ daemonVersion: '1.10.0' }, { daemonVersion: '1.10.0' }, { daemonVersion: '1.10.0' }], { timeoutMs: 3000, parallelism: 3, onFailure: 'rollback' });
  cfg.rollout.canary = 0;
  const { report, events } = await run(f, cfg);
  t.match(report.robots[0], { name: 'desk', status: 'rolled_back', reason: /its wave failed .*; rolled back: daemon 1\.9\.0/ });
  t.match(report.robots[2], { name: 'lab-2', status: 'rolled_back' });
  t.match(report.robots[1], { name: 'lab-1', status: 'failed', reason: /did not answer running 1\.10\.0 within 3 s of its update.*; the rollback failed: update daemon 1\.10\.0 → 1\.9\.0: / });
  t.same([String((await f.at(0).daemonStatus()).version), String((await f.at(2).daemonStatus()).version)], ['1.9.0', '1.9.0'], 'back on the release they ran');
  t.ok(events.some((e) => e.type === 'robot.rolling_back' && e.robot === 'desk' && e.actions[0]?.type === 'update_daemon'), 'the rollback is an update_daemon');
});

t.test('rollout.healthy_for holds for the daemon too: one that comes back, then goes away, fails its robot', async (t) => {
  const f = await fleet(t, 1, { version: '1.9.0' });
  const cfg = fleetConfig(f, [{ daemonVersion: '1.10.0' }]);
  cfg.rollout.healthyForMs = 60_000;
  const watcher = createDaemonClient({ baseUrl: f.daemons[0]?.url as string, timeoutMs: 2000, maxRetries: 0 });
  t.teardown(() => watcher.close());
  const gates: number[] = [];
  const observed = await observe(cfg, { hub: noHub, daemon: f.client }, undefined, { listWebhooks: false });
  const applying = apply(plan(cfg, observed, newState()), cfg, { hub: null, daemon: f.client, state: newState() }, new AbortController().signal, (e) => {
    if (e.type === 'robot.gate') gates.push(e.healthyMs);
  });
  // The robot dies once its gate has begun (its daemon back on 1.10.0).
  await until(() => gates.length > 0, 60_000, 'the gate began');
  t.equal(String((await watcher.daemonStatus()).version), '1.10.0');
  await f.daemons[0]?.close();
  const { report } = await applying;
  t.match(report.robots[0], { status: 'failed', reason: /^update daemon 1\.9\.0 → 1\.10\.0: the daemon came back on 1\.10\.0, then went away \(.*\) [\d.]+ s later \(rollout\.healthy_for wants it up 60 s\)/ });
});
