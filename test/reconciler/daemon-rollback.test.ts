import t from 'tap';
import { daemonRollback } from '../../reconciler/execute/daemon-rollback.js';
import { rollbackPlan } from '../../reconciler/execute/rollback.js';
import type { Action, StartAction, UpdateDaemonAction } from '../../reconciler/types.js';

// The robot's half of a rollback (pure): back to the release it ran, when
// this rollout updated its daemon or tried to; first in the robot's
// rollback plan (execute/rollback.ts).

const update = (from: string | null): UpdateDaemonAction => ({ type: 'update_daemon', robot: 'desk', address: 'robots.desk.daemon', from, to: '1.10.0', reason: 'robot.yaml says 1.10.0' });
const start: StartAction = { type: 'start', robot: 'desk', app: 'hello_app', address: 'robots.desk.apps.hello_app', reason: 'active' };

t.test('an update done or tried is undone through the same action type', async (t) => {
  const tried: Action[] = [update('1.9.0'), start];
  t.same(daemonRollback('desk', tried), { type: 'update_daemon', robot: 'desk', address: 'robots.desk.daemon', from: '1.10.0', to: '1.9.0', reason: 'rollback: back to 1.9.0' });
  t.equal(daemonRollback('desk', [start]), null, 'its daemon was not touched');
  t.equal(daemonRollback('desk', [update(null)]), null, 'the release it ran is unknown: nothing to go back to');
  t.equal(daemonRollback('lab', tried), null, "another robot's update is not this one's");
});

t.test('in a robot\'s rollback plan: the daemon first (its restart stops the app), then what ran is started again', async (t) => {
  const out = (completed: Action[], failed: Action | null) => ({
    unit: 'desk', status: failed ? 'failed' as const : 'done' as const, completed, notDone: [],
    failed: failed ? [{ action: failed, error: 'boom' }] : [],
  });
  const after = rollbackPlan('desk', { running: 'hello_app', installsRevision: true }, out([update('1.9.0')], start));
  t.same(after.actions.map((a) => [a.type, 'to' in a ? a.to : 'app' in a ? a.app : '']), [['update_daemon', '1.9.0'], ['start', 'hello_app']]);
  t.same(after.restores, ['daemon 1.9.0', 'hello_app running']);
  const crashed = rollbackPlan('desk', { running: null, installsRevision: false }, out([], update('1.9.0')));
  t.same(crashed.actions.map((a) => a.type), ['update_daemon'], 'an update that failed is undone too (a no-op where the daemon still runs 1.9.0)');
  const appsOnly = rollbackPlan('desk', { running: 'hello_app', installsRevision: true }, out([], start));
  t.same(appsOnly.actions.map((a) => a.type), ['stop', 'start'], 'no daemon touched: as before');
});
