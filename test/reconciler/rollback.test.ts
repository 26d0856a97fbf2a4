import t from 'tap';
import { rollbackPlan } from '../../reconciler/execute/rollback.js';
import { rolledBack } from '../../reconciler/execute/rollback-report.js';
import type { UnitOutput } from '../../reconciler/execute/machine.js';
import type { RobotAction, StartAction, StopAction, UpdateAppAction } from '../../reconciler/types.js';
import type { UnitReport } from '../../reconciler/report.js';

// What a rollback does to one robot of a failed wave (rollback.ts): stop
// what the rollout started, reinstall each updated app at its previous
// revision where the daemon can install one, start what ran before; and
// what its report says (rollback-report.ts).

const URL = 'https://huggingface.co/spaces/alice/hello_app';
const OLD = 'a'.repeat(40);
const NEW = 'b'.repeat(40);
const at = 'robots.desk.apps.hello_app';
const stop: StopAction = { type: 'stop', robot: 'desk', app: 'hello_app', address: at, reason: 'update' };
const update: UpdateAppAction = {
  type: 'update_app', robot: 'desk', app: 'hello_app', address: at, reason: 'moved on', cause: 'revision',
  info: { name: 'hello_app', source_kind: 'hf_space', description: '', url: URL, extra: {} },
  record: { source: URL, path: null, sha: NEW }, previous: { source: URL, path: null, sha: OLD },
};
const start: StartAction = { type: 'start', robot: 'desk', app: 'hello_app', address: at, reason: 'restart' };
const out = (completed: RobotAction[], failed: RobotAction | null): UnitOutput => ({
  unit: 'desk', status: failed ? 'failed' : 'done', completed, failed: failed ? [{ action: failed, error: 'hello_app crashed 2.1 s after it started: RuntimeError: boom' }] : [], notDone: [],
});
const words = (actions: RobotAction[]): string[] => actions.map((a) => `${a.type} ${'app' in a ? a.app : a.address}${a.type === 'update_app' ? ` ${String(a.info.extra.revision)} (${a.cause})` : ''}`);

t.test('on a daemon that installs a given revision: stop, back to the previous revision, start what ran', async (t) => {
  const back = rollbackPlan('desk', { running: 'hello_app', installsRevision: true }, out([stop, update], start));
  t.same(words(back.actions), ['stop hello_app', `update_app hello_app ${OLD} (rollback)`, 'start hello_app']);
  t.match(back.actions[1], { record: { sha: OLD }, previous: { sha: NEW }, info: { source_kind: 'hf_space', url: URL } });
  t.same(back.restores, ['hello_app aaaaaaa', 'hello_app running']);
  t.same(back.notRestored, []);
});

t.test('on Pollen\'s daemon (head only): the previous app runs again, the revision it could not restore is said', async (t) => {
  const back = rollbackPlan('desk', { running: 'hello_app', installsRevision: false }, out([stop, update], start));
  t.same(words(back.actions), ['stop hello_app', 'start hello_app']);
  t.same(back.notRestored, ['hello_app aaaaaaa (the robot\'s daemon installs a Space\'s head only)']);
});

t.test('nothing ran before: the rollout\'s app is stopped and nothing started; a crashed app before counts as none', async (t) => {
  const back = rollbackPlan('desk', { running: null, installsRevision: true }, out([stop, update], start));
  t.same(words(back.actions), ['stop hello_app', `update_app hello_app ${OLD} (rollback)`]);
});

t.test('a robot whose only change was an install of a new app that is not started keeps it: nothing to do', async (t) => {
  const install: RobotAction = { type: 'install', robot: 'desk', app: 'new_app', address: 'robots.desk.apps.new_app', reason: 'not installed', info: update.info, record: update.record };
  const back = rollbackPlan('desk', { running: 'hello_app', installsRevision: true }, out([install], null));
  t.same(back.actions, []);
});

t.test('the report: rolled back with what was put back; failed when the rollback fails', async (t) => {
  const failed: UnitReport = { name: 'desk', status: 'failed', reason: 'start hello_app: hello_app crashed 2.1 s after it started: RuntimeError: boom', planned: 3, done: 2, failed: [], notDone: [] };
  const halt = { failures: 1, limit: 0, skipped: [] };
  const back = rollbackPlan('desk', { running: 'hello_app', installsRevision: false }, out([stop, update], start));
  const ok = rolledBack(failed, halt, { unit: 'desk', status: 'done', completed: back.actions, failed: [], notDone: [] }, back);
  t.equal(ok.status, 'rolled_back');
  t.equal(ok.reason, 'start hello_app: hello_app crashed 2.1 s after it started: RuntimeError: boom; rolled back: hello_app running; not restored: hello_app aaaaaaa (the robot\'s daemon installs a Space\'s head only)');
  const passed: UnitReport = { ...failed, status: 'converged', reason: null };
  t.match(rolledBack(passed, halt, null, { actions: [], restores: [], notRestored: [] }).reason, /^its wave failed \(1 failed robot\(s\), max_failures allows 0\); rolled back: nothing to put back$/);
  const broken = rolledBack(failed, halt, { unit: 'desk', status: 'failed', completed: [], failed: [{ action: back.actions[0] as RobotAction, error: 'unreachable' }], notDone: [] }, back);
  t.equal(broken.status, 'failed');
  t.match(broken.reason, /the rollback failed: stop hello_app: unreachable$/);
  t.equal(broken.rollback?.error, 'stop hello_app: unreachable');
});
