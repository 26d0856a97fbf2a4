import t from 'tap';
import { pollIntervalMs, MAX_POLLS_PER_S } from '../../reconciler/agent/app-watch.js';
import { liveView } from '../../reconciler/agent/status-live.js';
import { plan } from '../../reconciler/plan.js';
import { app, config, installedOf, observation, robotObs, state } from '../reconciler/plan-fixtures.js';

// Between runs, /status reads each robot's current app as the robot last
// told it (app-watch.ts), and that robot's remaining actions are planned
// again from it: a manual stop is drift at once. Polls (Pollen's daemon)
// come every second for up to 50 robots, and never more than 50 a second.

t.test('polls: every second up to 50 robots, then spread to 50 a second in all', async (t) => {
  t.equal(pollIntervalMs(1), 1000);
  t.equal(pollIntervalMs(50), 1000);
  t.equal(pollIntervalMs(51), 1020);
  t.equal(pollIntervalMs(1000), 20_000);
  for (const n of [1, 3, 49, 50, 51, 120, 1000]) t.ok((n * 1000) / pollIntervalMs(n) <= MAX_POLLS_PER_S, `${n} robots: ≤ 50 requests a second`);
});

t.test('a manual stop told by the robot: /status shows it stopped, and its start as drift', async (t) => {
  const hello = app('hello_app');
  const desired = config({ apps: [hello], active: 'hello_app', robots: [{ name: 'desk' }, { name: 'lab' }] });
  const runs = robotObs([installedOf(hello)], { app: installedOf(hello), state: 'running' });
  const observed = observation({ robots: { desk: runs, lab: runs } });
  const s = state({ apps: { desk: { hello_app: hello }, lab: { hello_app: hello } } });
  const remaining = plan(desired, observed, s);
  t.same(remaining.actions, []);
  const unchanged = liveView(desired, observed, remaining, s, new Map([['desk', { current: runs.reachable ? runs.current : null, error: null }]]));
  t.equal(unchanged.observation, observed, 'nothing changed: the same documents');
  const view = liveView(desired, observed, remaining, s, new Map([['desk', { current: null, error: null }], ['lab', { current: null, error: 'unreachable' }]]));
  t.equal(view.observation?.robots.desk?.reachable && view.observation.robots.desk.current, null, 'desk: nothing runs');
  t.same(view.observation?.robots.lab, runs, 'a robot that cannot be read keeps what was observed');
  t.same(view.remaining?.actions.map((a) => `${a.type} ${a.address}`), ['start robots.desk.apps.hello_app']);
  t.same(observed.robots.desk, runs, 'the run\'s own observation is not changed');
});
