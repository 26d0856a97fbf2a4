import t from 'tap';
import { DaemonError } from '../../drivers/daemon/errors.js';
import { HubError } from '../../drivers/hub/errors.js';
import { runUnit, type UnitEffects } from '../../reconciler/execute/run-unit.js';
import { executePlan, failureLimit } from '../../reconciler/execute/fleet.js';
import type { UnitEmitted } from '../../reconciler/execute/machine.js';
import type { Action, Plan, RobotAction } from '../../reconciler/types.js';
import { applyExitCode } from '../../cli/exit-codes.js';
import { retrying } from '../../lib/retry.js';

// The unit machine and the fleet rollout with injected effects
// (machine.provide under the hood) and an injected retry clock. The same machines run for real in apply.test.ts and e2e.

const start = (robot: string, app: string): RobotAction => ({ type: 'start', address: `robots.${robot}.apps.${app}`, robot, app, reason: 'test' });
const stop = (robot: string, app: string): RobotAction => ({ type: 'stop', address: `robots.${robot}.apps.${app}`, robot, app, reason: 'test' });
const del = (name: string): Action => ({ type: 'delete', address: `webhooks.${name}`, name, id: `id-${name}`, reason: 'test' });
const flush = () => new Promise((r) => setImmediate(r));

function effects(perform: UnitEffects['perform'], log: string[] = []): UnitEffects {
  return {
    perform,
    record: async (a) => { log.push(`record ${a.address}`); },
    resolveConflict: async (a) => { log.push(`resolve ${a.address}`); },
  };
}

const input = (actions: Action[], over: Partial<{ continueOnError: boolean }> = {}) =>
  ({ unit: 'u', actions, continueOnError: false, ...over });

t.test('retries happen in the drivers (lib/retry.ts) and are reported per action; the machine adds none', async (t) => {
  let calls = 0;
  const waits: number[] = [];
  const clock = { sleep: async (ms: number) => { waits.push(ms); }, random: () => 1, now: () => 0 };
  const events: UnitEmitted[] = [];
  const out = await runUnit(input([start('desk', 'a')]), effects(() => retrying(
    { policy: { attempts: 5, baseMs: 100, maxDelayMs: 1000 }, clock, idempotent: true, judge: (e) => (e as DaemonError).failure },
    async () => {
      calls += 1;
      if (calls < 3) throw new DaemonError('unreachable', 'robot daemon unreachable');
      return { result: {}, detail: '' };
    },
  )), { onEvent: (e) => events.push(e) });
  t.equal(out.status, 'done');
  t.equal(calls, 3);
  t.same(waits, [100, 200], 'exponential backoff from the one policy');
  t.same(events.filter((e) => e.type === 'action.retrying').map((e) => e.type === 'action.retrying' && [e.unit, e.action.address, e.attempt, e.delayMs]),
    [['u', 'robots.desk.apps.a', 2, 100], ['u', 'robots.desk.apps.a', 3, 200]]);
});

t.test('a terminal error is not retried; the robot stops there', async (t) => {
  let calls = 0;
  const log: string[] = [];
  const out = await runUnit(input([stop('desk', 'a'), start('desk', 'b')]), effects(async () => {
    calls += 1;
    throw new DaemonError('job_failed', 'install failed: boom');
  }, log));
  t.equal(calls, 1);
  t.equal(out.status, 'failed');
  t.equal(out.failed[0]?.error, 'install failed: boom');
  t.same(out.notDone.map((a) => a.address), ['robots.desk.apps.b']);
  t.same(log, []);
});

t.test('a transient failure that reaches the machine is final: the drivers already retried it', async (t) => {
  let calls = 0;
  const out = await runUnit(input([start('desk', 'a')]), effects(async () => {
    calls += 1;
    throw new HubError('503', { status: 503, retriable: true });
  }));
  t.equal(calls, 1, 'one layer retries, not two');
  t.equal(out.status, 'failed');
});

t.test('a create is never sent twice after an unknown outcome', async (t) => {
  let calls = 0;
  const create: Action = { type: 'create', address: 'webhooks.x', name: 'x', reason: 't',
    desired: { url: 'u', jobId: null, watched: [], domains: [], hasSecret: false, enabled: true } };
  const out = await runUnit(input([create]), effects(async () => { calls += 1; throw new HubError('reset', { status: null, retriable: true }); }));
  t.equal(calls, 1);
  t.equal(out.status, 'failed');
});

t.test('"An app is already running" → resolving (stop) → start again', async (t) => {
  const log: string[] = [];
  let calls = 0;
  const out = await runUnit(input([start('desk', 'a')]), effects(async () => {
    calls += 1;
    if (calls === 1) throw new DaemonError('app_already_running', 'An app is already running', { status: 400 });
    return { result: {}, detail: '' };
  }, log));
  t.equal(out.status, 'done');
  t.same(log, ['resolve robots.desk.apps.a', 'record robots.desk.apps.a']);
});

t.test('STOP lets the action in flight finish and be recorded, then ends', async (t) => {
  const log: string[] = [];
  const stopper = new AbortController();
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => { release = r; });
  const done = runUnit(input([start('desk', 'a'), start('desk', 'b')]), effects(async () => { await gate; return { result: {}, detail: '' }; }, log), { stop: stopper.signal });
  await flush();
  stopper.abort();
  release();
  const out = await done;
  t.equal(out.status, 'stopped');
  t.same(out.completed.map((a) => a.address), ['robots.desk.apps.a']);
  t.same(out.notDone.map((a) => a.address), ['robots.desk.apps.b']);
  t.same(log, ['record robots.desk.apps.a']);
});

t.test('the hard stop (a lost lock, a second Ctrl-C) aborts the action in flight and says what was done', async (t) => {
  const log: string[] = [];
  const hard = new AbortController();
  let aborted = false;
  const done = runUnit(input([start('desk', 'a'), start('desk', 'b'), start('desk', 'c')]), effects(async (a, signal) => {
    if (a.address.endsWith('.a')) return { result: {}, detail: '' };
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => { aborted = true; resolve(); }, { once: true }));
    throw new Error('aborted');
  }, log), { hard: hard.signal });
  while (log.length === 0) await flush();
  await flush();
  hard.abort();
  const out = await done;
  t.ok(aborted, 'the action in flight saw its signal abort');
  t.equal(out.status, 'stopped');
  t.same(out.completed.map((a) => a.address), ['robots.desk.apps.a']);
  t.same(out.notDone.map((a) => a.address), ['robots.desk.apps.b', 'robots.desk.apps.c']);
  t.same(log, ['record robots.desk.apps.a']);
});

t.test('the hub unit goes on after a failed webhook', async (t) => {
  const out = await runUnit(input([del('a'), del('b')], { continueOnError: true }), effects(async (a) => {
    if (a.address === 'webhooks.a') throw new HubError('403 Forbidden', { status: 403, retriable: false });
    return { result: {}, detail: '' };
  }));
  t.equal(out.status, 'done');
  t.same(out.completed.map((a) => a.address), ['webhooks.b']);
  t.same(out.failed.map((f) => f.action.address), ['webhooks.a']);
});

function fleetPlan(robots: string[], unreachable: string[] = []): Plan {
  const actions = robots.filter((r) => !unreachable.includes(r)).map((r) => start(r, 'app'));
  return {
    format_version: '2.1', actions, unmanaged: { webhooks: [], apps: [] }, heldDeletes: [], unreachable, hubError: null, located: {}, refused: [],
    secretSalt: 'z', targets: [],
    summary: { create: 0, adopt: 0, update: 0, delete: 0, robot: actions.length, total: actions.length }, heldBack: [],
  };
}

function fleetOpts(robots: string[], failing: Set<string>, over: { canary?: number; max?: number; parallelism?: number; percent?: boolean } = {}) {
  const started: string[] = [];
  let running = 0;
  let peak = 0;
  const opts = {
    robots,
    rollout: { parallelism: 10, canary: over.canary ?? 1, maxFailures: over.percent ? { kind: 'percent' as const, value: over.max ?? 0 } : { kind: 'count' as const, value: over.max ?? 0 } },
    parallelism: over.parallelism ?? 10, stop: new AbortController().signal,
    effects: effects(async (a) => {
      const robot = 'robot' in a ? a.robot : 'hub';
      started.push(robot);
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running -= 1;
      if (failing.has(robot)) throw new DaemonError('job_failed', `${robot} broke`);
      return { result: {}, detail: '' };
    }),
  };
  return { opts, started, peak: () => peak };
}

t.test('a failed canary with max_failures 0 skips every other robot', async (t) => {
  const robots = ['c1', 'r1', 'r2', 'r3'];
  const { opts, started } = fleetOpts(robots, new Set(['c1']));
  const report = await executePlan(fleetPlan(robots), opts);
  t.same(started, ['c1']);
  t.same(report.robots.map((r) => r.status), ['failed', 'skipped', 'skipped', 'skipped']);
  t.same(report.halt?.skipped, ['r1', 'r2', 'r3']);
  t.match(report.robots[1]?.reason, /rollout stopped/);
  t.equal(applyExitCode(report), 1);
});

t.test('failures within max_failures let the rollout go on', async (t) => {
  const robots = ['c1', 'r1', 'r2'];
  const { opts } = fleetOpts(robots, new Set(['c1']), { max: 1 });
  const report = await executePlan(fleetPlan(robots), opts);
  t.same(report.robots.map((r) => r.status), ['failed', 'converged', 'converged']);
  t.equal(report.halt, null);
});

t.test('a percentage of the fleet, rounded down', async (t) => {
  t.equal(failureLimit({ kind: 'percent', value: 20 }, 10), 2);
  t.equal(failureLimit({ kind: 'percent', value: 20 }, 4), 0);
  t.equal(failureLimit({ kind: 'count', value: 3 }, 4), 3);
});

t.test('parallelism bounds robots at once; canaries go first, alone', async (t) => {
  const robots = ['c1', 'c2', 'r1', 'r2', 'r3', 'r4', 'r5'];
  const { opts, started, peak } = fleetOpts(robots, new Set(), { canary: 2, parallelism: 2 });
  const report = await executePlan(fleetPlan(robots), opts);
  t.same(started.slice(0, 2).sort(), ['c1', 'c2']);
  t.equal(peak(), 2);
  t.ok(report.robots.every((r) => r.status === 'converged'));
});

t.test('an unreachable robot does not stop the others; an unreachable canary counts as a failure', async (t) => {
  const robots = ['c1', 'r1', 'r2'];
  const a = fleetOpts(robots, new Set(), { canary: 1 });
  const r1 = await executePlan(fleetPlan(robots, ['r1']), a.opts);
  t.same(r1.robots.map((r) => r.status), ['converged', 'unreachable', 'converged']);
  const b = fleetOpts(robots, new Set(), { canary: 1 });
  const r2 = await executePlan(fleetPlan(robots, ['c1']), b.opts);
  t.same(r2.robots.map((r) => r.status), ['unreachable', 'skipped', 'skipped']);
  t.same(b.started, []);
});

t.test('an action done but not recorded ends the unit, even one that goes on after failures', async (t) => {
  const events: UnitEmitted[] = [];
  const performed: string[] = [];
  const out = await runUnit(input([del('a'), del('b'), del('c')], { continueOnError: true }), {
    perform: async (a) => { performed.push(a.address); return { result: {}, detail: '' }; },
    record: async (a) => { if (a.address === 'webhooks.b') throw new Error('disk full\nsecond line'); },
    resolveConflict: async () => {},
  }, { onEvent: (e) => events.push(e) });
  t.equal(out.status, 'failed');
  t.same(performed, ['webhooks.a', 'webhooks.b'], 'c never starts');
  t.same(out.completed.map((a) => a.address), ['webhooks.a']);
  t.same(out.failed, [{ action: del('b'), error: 'disk full' }], 'the record\'s own reason, first line');
  t.same(out.notDone.map((a) => a.address), ['webhooks.c']);
  t.same(events.map((e) => `${e.type} ${e.action.address}`), [
    'action.started webhooks.a', 'action.done webhooks.a', 'action.started webhooks.b', 'action.failed webhooks.b',
  ]);
});
