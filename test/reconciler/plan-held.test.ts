import t from 'tap';
import { plan } from '../../reconciler/plan.js';
import type { StateFile } from '../../state/types.js';
import { app, config, installedOf, observation, robotObs, state } from './plan-fixtures.js';

// A revision held back after a failed rollout (state/rollouts.ts) is neither
// installed nor updated to, an app installed at it is not started, and the
// plan says so (diff exits 2 on it); a new revision of the Space is planned
// as usual.

const hello = app('hello_app');
const desired = config({ apps: [hello], active: 'hello_app', robots: [{ name: 'desk' }, { name: 'lab' }] });
const HELD = 'b'.repeat(40);
const GOOD = 'a'.repeat(40);
const at = (robot: string): string => `robots.${robot}.apps.hello_app`;

function holding(): StateFile {
  const s = state({ apps: { desk: { hello_app: { ...hello, sha: GOOD } }, lab: { hello_app: { ...hello, sha: GOOD } } } });
  s.rollouts = { history: [], held: { hello_app: { sha: HELD, reason: 'desk: hello_app crashed 2.1 s after it started: RuntimeError: boom', rollout: 'r-1', at: '2026-01-01T00:00:00.000Z' } } };
  return s;
}

const running = (sha: string, st: 'running' | 'error' = 'running') => robotObs([installedOf(hello, { installed_sha: sha })], { app: installedOf(hello, { installed_sha: sha }), state: st });

t.test('the held revision is not installed: robots on the previous one keep it, the plan says why', async (t) => {
  const p = plan(desired, observation({ robots: { desk: running(GOOD), lab: running(GOOD) }, spaces: { 'alice/hello_app': HELD } }), holding());
  t.same(p.actions, [], 'no update, no stop, no restart');
  t.same(p.heldBack.map((h) => [h.robot, h.app, h.sha, h.rollout]), [['desk', 'hello_app', HELD, 'r-1'], ['lab', 'hello_app', HELD, 'r-1']]);
  t.match(p.heldBack[0]?.reason, /RuntimeError: boom/);
});

t.test('a robot that lacks the app does not get the held revision either', async (t) => {
  const p = plan(desired, observation({ robots: { desk: running(GOOD), lab: robotObs() }, spaces: { 'alice/hello_app': HELD } }), holding());
  t.same(p.actions.map((a) => `${a.type} ${a.address}`), []);
  t.same(p.heldBack.map((h) => h.robot), ['desk', 'lab']);
});

t.test('an app installed at the held revision (a daemon that could not restore the previous one) is not started again', async (t) => {
  const p = plan(desired, observation({ robots: { desk: running(HELD, 'error'), lab: running(GOOD) }, spaces: { 'alice/hello_app': HELD } }), holding());
  t.same(p.actions, [], 'its crash is left to be seen: no stop, no start');
  t.equal(p.heldBack.length, 2);
});

t.test('the Space moved on: the new revision is planned as usual', async (t) => {
  const next = 'c'.repeat(40);
  const p = plan(desired, observation({ robots: { desk: running(GOOD), lab: running(HELD, 'error') }, spaces: { 'alice/hello_app': next } }), holding());
  t.same(p.actions.map((a) => `${a.type} ${a.address}`), [
    `stop ${at('desk')}`, `update_app ${at('desk')}`, `start ${at('desk')}`,
    `stop ${at('lab')}`, `update_app ${at('lab')}`, `start ${at('lab')}`,
  ]);
  t.same(p.heldBack, []);
});

t.test('targets narrow what is held back too', async (t) => {
  const p = plan(desired, observation({ robots: { desk: running(GOOD), lab: running(GOOD) }, spaces: { 'alice/hello_app': HELD } }), holding(), { targets: ['robots.lab'] });
  t.same(p.heldBack.map((h) => h.robot), ['lab']);
});
