import t from 'tap';
import { plan } from '../../reconciler/plan.js';
import { simulateApply } from '../../reconciler/simulate.js';
import { planToJson, parsePlan } from '../../reconciler/plan-file.js';
import { sealPlan } from '../../reconciler/seal.js';
import { renderPlan } from '../../cli/views/plan-view.js';
import { renderDiff, diffJson } from '../../cli/views/diff-view.js';
import { observationDigest } from '../../reconciler/digest.js';
import type { RobotObservation } from '../../reconciler/types.js';
import { app, config, installedOf, observation, state, type RobotInput } from './plan-fixtures.js';

// The robot itself before its apps (issue 31): a robot that is not the one
// robot.yaml names is refused whole; a daemon on another release gets one
// update_daemon first, and its apps are planned as after the restart (nothing
// runs); a name that differs gets a rename_robot. Plain data through the JSON
// plan, the human plan and diff.

const hello = app('hello_app');

function robot(over: { version?: string | null; name?: string; hardwareId?: string | null; latest?: string | null; running?: boolean } = {}): RobotObservation {
  const info = installedOf(hello);
  return {
    reachable: true,
    daemon: { robot_name: over.name ?? 'reachy_mini', state: 'running', version: over.version === undefined ? '1.9.0' : over.version, hardware_id: over.hardwareId === undefined ? 'aaaa000011112222' : over.hardwareId },
    installed: [info],
    current: over.running === false ? null : { info, state: 'running', error: null },
    ...(over.latest === undefined ? {} : { latestDaemon: over.latest }),
  };
}

const fleet = (robots: RobotInput[]) => config({ apps: [hello], active: 'hello_app', robots });

t.test('another release: update_daemon first, then the app the restart stopped is started again', async (t) => {
  const desired = fleet([{ name: 'desk', daemonVersion: '1.10.0' }]);
  const p = plan(desired, observation({ robots: { desk: robot() } }), state());
  t.same(p.actions.map((a) => [a.type, a.address]), [['update_daemon', 'robots.desk.daemon'], ['start', 'robots.desk.apps.hello_app']]);
  t.match(p.actions[0], { from: '1.9.0', to: '1.10.0', reason: 'robot.yaml says 1.10.0' });
  t.equal(p.summary.robot, 2);
  const after = simulateApply(observation({ robots: { desk: robot() } }), p, desired, state());
  t.same(plan(desired, after.observation, after.state).actions, [], 'converged after the modelled apply');
});

t.test('release numbers compare: 1.10.0.dev0 and 1.10.0-robotctl-sim are 1.10.0; a downgrade is said', async (t) => {
  const desired = fleet([{ name: 'a', daemonVersion: '1.10.0' }, { name: 'b', daemonVersion: '1.10.0' }, { name: 'c', daemonVersion: '1.9.0' }]);
  const p = plan(desired, observation({ robots: { a: robot({ version: '1.10.0.dev0' }), b: robot({ version: '1.10.0-robotctl-sim' }), c: robot({ version: '1.10.0' }) } }), state());
  t.same(p.actions.map((a) => a.address), ['robots.c.daemon', 'robots.c.apps.hello_app']);
  t.match(p.actions[0], { from: '1.10.0', to: '1.9.0', reason: 'downgrade: robot.yaml says 1.9.0' });
});

t.test('latest: the newest release the daemon names; never below a pre-release it runs; unknown plans nothing', async (t) => {
  const desired = fleet([{ name: 'a', daemonVersion: 'latest' }, { name: 'b', daemonVersion: 'latest' }, { name: 'c', daemonVersion: 'latest' }]);
  const p = plan(desired, observation({ robots: { a: robot({ latest: '1.10.0' }), b: robot({ version: '1.11.0rc1', latest: '1.10.0' }), c: robot({ latest: null }) } }), state());
  t.same(p.actions.filter((a) => a.type === 'update_daemon').map((a) => [a.address, 'to' in a ? a.to : '']), [['robots.a.daemon', '1.10.0']]);
  t.match(p.actions[0], { reason: 'a newer release is out (robot.yaml says latest)' });
});

t.test('another hardware id (or none) refuses that robot only, naming both', async (t) => {
  const desired = fleet([
    { name: 'desk', hardwareId: 'aaaa000011112222', daemonVersion: '1.10.0' },
    { name: 'lab', hardwareId: 'bbbb000011112222', daemonVersion: '1.10.0', robotName: 'lab' },
    { name: 'bare', hardwareId: 'cccc000011112222', daemonVersion: '1.10.0' },
  ]);
  const observed = observation({ robots: { desk: robot(), lab: robot(), bare: robot({ hardwareId: null }) } });
  const p = plan(desired, observed, state());
  t.same([...new Set(p.actions.map((a) => ('robot' in a ? a.robot : '')))], ['desk'], 'the others go on');
  t.same(p.refused, [
    { robot: 'lab', reason: 'robot.yaml says hardware_id bbbb000011112222; the robot at http://127.0.0.1:8001 answers aaaa000011112222' },
    { robot: 'bare', reason: 'robot.yaml says hardware_id cccc000011112222; the robot at http://127.0.0.1:8002 answers no hardware id (null)' },
  ]);
  const text = renderPlan(p);
  t.match(text, 'Refused, nothing planned for them (not the robot robot.yaml names):\n  lab: robot.yaml says hardware_id bbbb000011112222; the robot at http://127.0.0.1:8001 answers aaaa000011112222\n');
  t.match(diffJson(p), /"complete": false/);
  const none = plan(fleet([{ name: 'desk', hardwareId: null }]), observation({ robots: { desk: robot({ hardwareId: null }) } }), state());
  t.same(none.refused, [], 'hardware_id: null matches a robot with none');
});

t.test('a name that differs is a rename_robot, after the update', async (t) => {
  const desired = fleet([{ name: 'desk', robotName: 'Desk one', daemonVersion: '1.10.0' }]);
  const p = plan(desired, observation({ robots: { desk: robot({ running: false }) } }), state());
  t.same(p.actions.map((a) => a.type), ['update_daemon', 'rename_robot', 'start']);
  t.match(p.actions[1], { address: 'robots.desk.robot_name', from: 'reachy_mini', to: 'Desk one' });
  const same = plan(fleet([{ name: 'desk', robotName: ' reachy_mini ' }]), observation({ robots: { desk: robot() } }), state());
  t.same(same.actions, [], 'the daemon trims the name: no change');
});

t.test('the plan says it in words: human, JSON (read back), diff', async (t) => {
  const desired = fleet([{ name: 'desk', daemonVersion: '1.10.0', robotName: 'desk' }, { name: 'lab', url: null, hardwareId: 'aaaa000011112222' }]);
  const observed = { ...observation({ robots: { desk: robot({ version: '1.8.3' }), lab: robot() } }), located: { lab: 'http://10.0.0.7:8000' } };
  const p = plan(desired, observed, state());
  const text = renderPlan(p);
  t.match(text, 'Robot desk:\n  ~ update daemon 1.8.3 → 1.10.0 (robot.yaml says 1.10.0)\n  ~ rename robot \'reachy_mini\' → \'desk\' (renamed in robot.yaml)\n');
  t.match(text, 'Found over mDNS by hardware id: lab at http://10.0.0.7:8000');
  t.same(p.located, { lab: 'http://10.0.0.7:8000' });
  const sealed = sealPlan(p, desired, observed);
  const back = parsePlan(planToJson(sealed));
  t.same(back.actions, p.actions, 'the JSON plan reads back');
  t.same(back.located, p.located);
  t.match(JSON.parse(planToJson(sealed)), { actions: [{ type: 'update_daemon', address: 'robots.desk.daemon', robot: 'desk', from: '1.8.3', to: '1.10.0' }] });
  t.match(renderDiff(p, false), '  robots.desk.daemon: update daemon 1.8.3 → 1.10.0 (robot.yaml says 1.10.0)\n');
  t.match(JSON.parse(diffJson(p)), { resources: [{ address: 'robots.desk.daemon', actions: [{ type: 'update_daemon', from: '1.8.3', to: '1.10.0' }] }] });
  const older = JSON.parse(planToJson(sealed)) as Record<string, unknown>;
  delete older.located;
  delete older.refused;
  t.same(parsePlan(JSON.stringify(older)).refused, [], 'a 2.1 plan from before reads as none refused');
});

t.test('a robot found by no one is unreachable; --target takes robots.NAME.daemon', async (t) => {
  const desired = fleet([{ name: 'lab', url: null, hardwareId: 'aaaa000011112222', daemonVersion: '1.10.0' }, { name: 'desk', daemonVersion: '1.10.0' }]);
  const observed = observation({ robots: { lab: { reachable: false, error: 'no robot with this hardware_id answered over mDNS' }, desk: robot() } });
  const p = plan(desired, observed, state(), { targets: ['robots.desk.daemon'] });
  t.same(p.unreachable, ['lab']);
  t.same(p.actions.map((a) => a.address), ['robots.desk.daemon']);
});

t.test('a saved plan is stale once the robot itself changed (identity, release, name), not for daemon chatter', async (t) => {
  const desired = fleet([{ name: 'desk', daemonVersion: '1.10.0' }]);
  const digest = (r: RobotObservation) => observationDigest(observation({ robots: { desk: r } }), desired, 'salt');
  const base = digest(robot());
  const chatty = robot();
  if (chatty.reachable && chatty.daemon) chatty.daemon.uptime_s = 42;
  t.equal(digest(chatty), base, 'chatter does not count');
  t.not(digest(robot({ version: '1.10.0' })), base, 'another release');
  t.equal(digest(robot({ version: '1.9.0.dev0' })), base, 'a dev build of the same release is the same');
  t.not(digest(robot({ name: 'someone' })), base, 'another name');
  t.not(digest(robot({ hardwareId: 'bbbb000011112222' })), base, 'another robot');
});
