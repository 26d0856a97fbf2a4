import t from 'tap';
import { loadConfigText } from '../../schema/load.js';
import { RolloutProgress } from '../../reconciler/agent/rollout-progress.js';
import type { StartAction, UpdateAppAction } from '../../reconciler/types.js';
import type { RolloutRobot } from '../../reconciler/agent/rollout-progress.js';
import type { UnitReport } from '../../reconciler/report.js';

// The fleet page's rollout: waves (canary first), a count per robot, failures
// against max_failures, from the executor's events alone.

const loaded = loadConfigText(`version: 1
apps:
  hello_app: { source: https://huggingface.co/spaces/demo/hello_app }
active: hello_app
robots:
  desk: { url: http://127.0.0.1:8001 }
  lab-1: { url: http://127.0.0.1:8002 }
  lab-2: { url: http://127.0.0.1:8003 }
  lab-3: { url: http://127.0.0.1:8004 }
rollout: { parallelism: 2, canary: 1, max_failures: 1 }
`, 'robot.yaml', '/tmp', {});
if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
const config = loaded.config;

const start = (robot: string): StartAction => ({ type: 'start', robot, app: 'hello_app', address: `robots.${robot}.apps.hello_app`, reason: 'active' });
const report = (name: string, status: UnitReport['status']): UnitReport => ({ name, status, reason: null, planned: 1, done: status === 'converged' ? 1 : 0, failed: [], notDone: [] });

t.test('waves, counts and failures follow the events', async (t) => {
  // lab-3 has nothing to do: it is not part of the rollout.
  const p = new RolloutProgress({ actions: [start('desk'), start('lab-1'), start('lab-2')] }, config);
  const idle = { phase: null, health: null };
  t.same(p.snapshot(), {
    id: null, result: 'running', failures: 0, max_failures: 1, halted: false,
    waves: [
      { name: 'canary', robots: [{ name: 'desk', state: 'pending', done: 0, total: 1, ...idle }] },
      { name: 'rest', robots: [{ name: 'lab-1', state: 'pending', done: 0, total: 1, ...idle }, { name: 'lab-2', state: 'pending', done: 0, total: 1, ...idle }] },
    ],
  });
  p.onEvent({ type: 'action.started', unit: 'desk', action: start('desk') });
  t.equal(p.snapshot().waves[0]?.robots[0]?.state, 'running');
  p.onEvent({ type: 'action.done', unit: 'desk', action: start('desk'), ms: 5, performed: { result: {}, detail: '' } });
  p.onEvent({ type: 'robot.finished', report: report('desk', 'converged') });
  p.onEvent({ type: 'action.failed', unit: 'lab-1', action: start('lab-1'), ms: 5, error: 'boom' });
  p.onEvent({ type: 'robot.finished', report: report('lab-1', 'failed') });
  p.onEvent({ type: 'robot.finished', report: report('lab-2', 'unreachable') });
  p.onEvent({ type: 'rollout.halted', halt: { failures: 2, limit: 1, skipped: [] } });
  p.finish('failed');
  t.same(p.snapshot(), {
    id: null, result: 'failed', failures: 2, max_failures: 1, halted: true,
    waves: [
      { name: 'canary', robots: [{ name: 'desk', state: 'ok', done: 1, total: 1, ...idle }] },
      { name: 'rest', robots: [{ name: 'lab-1', state: 'failed', done: 0, total: 1, ...idle }, { name: 'lab-2', state: 'failed', done: 0, total: 1, ...idle }] },
    ],
  });
});

t.test('each robot says what it does: reinstalling, starting, checking health (4 s of 10), rolling back', async (t) => {
  const update: UpdateAppAction = {
    type: 'update_app', robot: 'desk', app: 'hello_app', address: 'robots.desk.apps.hello_app', reason: 'moved on',
    info: { name: 'hello_app', source_kind: 'hf_space', description: '', url: 'https://huggingface.co/spaces/demo/hello_app', extra: {} },
    record: { source: 'https://huggingface.co/spaces/demo/hello_app', path: null, sha: 'b'.repeat(40) },
    previous: { source: 'https://huggingface.co/spaces/demo/hello_app', path: null, sha: 'a'.repeat(40) }, cause: 'revision',
  };
  const p = new RolloutProgress({ actions: [update, start('desk'), start('lab-1'), start('lab-2'), start('lab-3')] }, config);
  t.same(p.snapshot().waves.map((w) => [w.name, w.robots.map((r) => r.name)]), [['canary', ['desk']], ['rest', ['lab-1', 'lab-2']], ['rest', ['lab-3']]],
    'the canary, then parallelism (2) robots a wave');
  const desk = (): RolloutRobot | undefined => p.snapshot().waves[0]?.robots[0];
  p.onEvent({ type: 'rollout.started', id: 'r-1', trigger: 'delivery' });
  t.equal(p.snapshot().id, 'r-1');
  p.onEvent({ type: 'action.started', unit: 'desk', action: update });
  t.equal(desk()?.phase, 'reinstalling');
  p.onEvent({ type: 'action.done', unit: 'desk', action: update, ms: 5, performed: { result: {}, detail: '' } });
  p.onEvent({ type: 'action.started', unit: 'desk', action: start('desk') });
  t.equal(desk()?.phase, 'starting');
  p.onEvent({ type: 'robot.gate', robot: 'desk', app: 'hello_app', healthyMs: 4000, healthyForMs: 10_000 });
  t.same([desk()?.phase, desk()?.health], ['checking_health', { healthy_ms: 4000, healthy_for_ms: 10_000 }]);
  p.onEvent({ type: 'action.failed', unit: 'desk', action: start('desk'), ms: 5, error: 'hello_app crashed 4.2 s after it started: RuntimeError: boom' });
  p.onEvent({ type: 'robot.rolling_back', robot: 'desk', actions: [] });
  t.same([desk()?.phase, desk()?.health], ['rolling_back', null]);
  p.onEvent({ type: 'action.started', unit: 'desk', action: start('desk') });
  t.equal(desk()?.phase, 'rolling_back', 'a rollback\'s own actions keep the robot rolling back');
  const failedStart = { action: start('desk'), error: 'boom' };
  p.onEvent({ type: 'robot.finished', report: { ...report('desk', 'rolled_back'), failed: [failedStart] } });
  t.same([desk()?.state, desk()?.phase, p.snapshot().failures], ['rolled_back', null, 1]);
});

t.test('a daemon update: the robot\'s step and the last lines its job logged', async (t) => {
  const update = { type: 'update_daemon' as const, robot: 'desk', address: 'robots.desk.daemon', from: '1.9.0', to: '1.10.0', reason: 'robot.yaml says 1.10.0' };
  const p = new RolloutProgress({ actions: [update, start('desk')] }, config);
  p.onEvent({ type: 'action.started', unit: 'desk', action: update });
  for (const line of ['a', 'b', 'c', 'd', 'e']) p.onEvent({ type: 'action.log', unit: 'desk', action: update, line });
  t.match(p.snapshot().waves[0]?.robots[0], { state: 'running', phase: 'updating_daemon', step: 'update daemon 1.9.0 → 1.10.0', log: ['b', 'c', 'd', 'e'] }, 'the last four lines');
  p.onEvent({ type: 'action.done', unit: 'desk', action: update, ms: 900, performed: { result: {}, detail: '' } });
  p.onEvent({ type: 'action.started', unit: 'desk', action: start('desk') });
  t.equal(p.snapshot().waves[0]?.robots[0]?.step, 'start hello_app');
  p.onEvent({ type: 'robot.finished', report: { ...report('desk', 'converged'), planned: 2, done: 2 } });
  const done = p.snapshot().waves[0]?.robots[0];
  t.notOk(done && 'step' in done, 'no step once it finished');
  t.same(done?.log, ['b', 'c', 'd', 'e'], 'what it last logged stays');
});

t.test('rollout.canary not declared: one wave for apps, the first robot alone first when a daemon is updated', async (t) => {
  const undeclared = { ...config, rollout: { ...config.rollout, canary: null } };
  const apps = new RolloutProgress({ actions: [start('desk'), start('lab-1'), start('lab-2')] }, undeclared);
  t.same(apps.snapshot().waves.map((w) => [w.name, w.robots.map((r) => r.name)]), [['rest', ['desk', 'lab-1']], ['rest', ['lab-2']]]);
  const update = (robot: string) => ({ type: 'update_daemon' as const, robot, address: `robots.${robot}.daemon`, from: '1.9.0', to: '1.10.0', reason: 'robot.yaml says 1.10.0' });
  const daemons = new RolloutProgress({ actions: [update('desk'), update('lab-1'), update('lab-2')] }, undeclared);
  t.same(daemons.snapshot().waves.map((w) => [w.name, w.robots.map((r) => r.name)]), [['canary', ['desk']], ['rest', ['lab-1', 'lab-2']]]);
  const zero = new RolloutProgress({ actions: [update('desk'), update('lab-1')] }, { ...config, rollout: { ...config.rollout, canary: 0, parallelism: 10 } });
  t.same(zero.snapshot().waves.map((w) => w.robots.map((r) => r.name)), [['desk', 'lab-1']], 'canary: 0 declared keeps them together');
});
