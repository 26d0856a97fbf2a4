import t from 'tap';
import type { AgentStatus } from '../../reconciler/agent/status-types.js';
import { startLoop, USER, type Loop, type Robot } from './fixture.js';
import { appFiles as pythonApp, crashAfterBody } from '../helpers/python-apps.js';
import { startNotifyReceiver, type NotifyReceiver } from '../helpers/notify-receiver.js';
import { until } from '../helpers/wait.js';
import { runAgent, type TestAgent } from './run-agent.js';
import { readState } from '../../state/file.js';

// Issue 32 through the agent: a push of a revision that crashes 2 s after
// it starts reaches the agent as a hub delivery; the canary's health gate
// (healthy_for: 4s) fails it, the canary is rolled back to the previous
// revision, the other robots are left on it, the notify webhook hears it,
// and the agent does not retry that revision on its next drift check. Then
// a manual stop on a robot shows on /status without a drift check (the
// agent follows each robot's app).

let loop: Loop;
let a: TestAgent | null = null;
let receiver: NotifyReceiver;

t.before(async () => {
  loop = await startLoop({ robots: ['r1', 'r2', 'r3'], apps: ['app_a'] });
  receiver = await startNotifyReceiver(null);
  loop.writeConfig({ rollout: '{ parallelism: 2, canary: 1, healthy_for: 4s }', extra: `notify: { webhook: ${receiver.url} }` });
});
t.teardown(async () => {
  await a?.stop();
  await receiver?.close();
  await loop?.close();
});

const withLog = (what: string) => (): string => `${what}; the agent logged:\n${a?.lines.join('\n') ?? '(no agent)'}`;
const status = async (): Promise<AgentStatus> => (await fetch(`${a?.agent.url}/status`)).json() as Promise<AgentStatus>;
const installedSha = async (r: Robot): Promise<unknown> => (await r.client.listInstalled()).find((x) => x.name === 'app_a')?.extra.installed_sha;
const runningState = async (r: Robot): Promise<string | null> => (await r.client.currentAppStatus())?.state ?? null;
const writes = (): number[] => loop.robots.map((r) => r.daemon.stats().writes);

t.test('a crashing revision pushed to the Space: the canary fails its health gate and is rolled back, the others keep v1', async (t) => {
  // The drift check is far away: every change below comes from a delivery or the live follow.
  a = await runAgent(loop, { intervalMs: 600_000, healthyForMs: null });
  const first = await a.agent.firstRun;
  t.equal(first.result, 'converged', a.lines.join('\n'));
  const [r1, r2, r3] = loop.robots as [Robot, Robot, Robot];
  const v1 = await installedSha(r1);
  const before = writes();
  const { commitOid: v2 } = await loop.hub.commit(USER.name, 'space', 'demo/app_a', pythonApp('app_a', crashAfterBody(2, 'app_a v2 boom on purpose'), { marker: 'v2' }), 'v2');
  await until(async () => (await readState(loop.statePath)).rollouts?.history.some((h) => h.outcome === 'rolled_back') === true, 60_000, withLog('the rollout rolled back'));
  await a.agent.idle();
  t.match(a.lines.join('\n'), /failed +start app_a on r1: app_a crashed [\d.]+ s after it started: RuntimeError: app_a v2 boom on purpose/);
  t.match(a.lines.join('\n'), /rolled back r1: .*rolled back: app_a [0-9a-f]{7}, app_a running/);
  t.equal(await installedSha(r1), v1, 'the canary is back on the previous revision');
  await until(async () => (await runningState(r1)) === 'running', 20_000, withLog('app_a runs again on r1'));
  t.same(writes().slice(1), before.slice(1), 'r2 and r3 untouched');
  for (const r of [r2, r3]) t.equal(await installedSha(r), v1);
  const state = await readState(loop.statePath);
  const rollout = state.rollouts?.history[state.rollouts.history.length - 1];
  t.match(rollout, { trigger: 'delivery', outcome: 'rolled_back', waves: [['r1'], ['r2', 'r3']], revisions: [{ robot: 'r1', app: 'app_a', from: v1, to: v2 }] });
  t.equal(state.rollouts?.held.app_a?.sha, v2, 'the failing revision is held back');
  t.equal(state.robots.r1?.apps.app_a?.sha, v1, 'the state records what r1 runs');
  t.same(receiver.notices.slice(-2).map((n) => n.body.event), ['started', 'rolled_back']);
  t.match(receiver.notices[receiver.notices.length - 1]?.body, { trigger: 'delivery', robots: [{ name: 'r1', outcome: 'rolled_back', reason: /RuntimeError: app_a v2 boom on purpose/ }] });
  const st = await status();
  t.match(st.rollout, { result: 'failed', halted: true, waves: [{ name: 'canary', robots: [{ name: 'r1', state: 'rolled_back' }] }, { name: 'rest', robots: [{ name: 'r2', state: 'skipped' }, { name: 'r3', state: 'skipped' }] }] });
  t.match(st.robots.find((r) => r.name === 'r2')?.drift, [new RegExp(`app app_a: revision ${v2.slice(0, 7)} held back \\(rollout [\\w-]+ failed with it: r1: .*RuntimeError: app_a v2 boom`)]);
});

t.test('the agent does not retry the held-back revision on its next run', async (t) => {
  const before = writes();
  const history = (await readState(loop.statePath)).rollouts?.history.length;
  a?.agent.enqueue({ key: 'full', trigger: 'interval', note: 'drift check', expect: [] });
  await a?.agent.idle();
  t.equal(a?.agent.status().last_run?.result, 'drift', 'held back is drift');
  t.same(writes(), before, 'no robot was touched');
  t.equal((await readState(loop.statePath)).rollouts?.history.length, history, 'no new rollout');
  t.match(a?.lines.join('\n'), /drift \(held back: app_a\)/);
});

t.test('a manual stop on a robot shows on /status without a drift check', async (t) => {
  const [, , r3] = loop.robots as [Robot, Robot, Robot];
  const shown = async (): Promise<{ running: string | null; app_state: string | null; drift: string[] } | undefined> => (await status()).robots.find((r) => r.name === 'r3');
  t.match(await shown(), { running: 'app_a', app_state: 'running' });
  t.notMatch((await shown())?.drift.join('\n'), /not running/);
  const runs = a?.agent.status().runs.length;
  const t0 = performance.now();
  await r3.client.stopCurrentApp();
  // Read /status until it changes (the 2 s target is bench/rollout-gate.mjs's figure).
  await until(async () => (await shown())?.running === null, 10_000, withLog('/status shows r3 stopped'));
  t.comment(`/status showed the stop ${Math.round(performance.now() - t0)} ms after it returned`);
  t.match(await shown(), { running: null, converged: false, drift: [/app app_a: the active app is not running/] });
  t.equal(a?.agent.status().runs.length, runs, 'no run of the agent saw it: the live follow did');
});
