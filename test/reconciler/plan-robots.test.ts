import t, { type Test } from 'tap';
import { plan } from '../../reconciler/plan.js';
import { loadConfigText } from '../../schema/load.js';
import type { Config } from '../../schema/types.js';
import type { Observation, Plan, PlanOptions } from '../../reconciler/types.js';
import type { StateFile } from '../../state/types.js';
import { app, config, installedOf, observation, pathApp, robotObs, state } from './plan-fixtures.js';

// Table-driven robot planning: each row is desired + observed + state → the
// ordered actions, written as `type address`.

interface Case {
  name: string;
  desired: Config;
  observed: Observation;
  state?: StateFile;
  opts?: PlanOptions;
  expect: string[];
  check?: (t: Test, p: Plan) => void;
}

const hello = app('hello_app');
const other = app('other_app');
const dev = pathApp('dev_app');
const both = { apps: [hello, other], active: 'hello_app', robots: [{ name: 'desk' }] };
const at = (app: string, robot = 'desk'): string => `robots.${robot}.apps.${app}`;
const running = (spec = hello, st: 'running' | 'starting' | 'done' | 'error' | 'stopping' = 'running') => ({ app: installedOf(spec), state: st });
const converged = { desk: robotObs([installedOf(hello), installedOf(other)], running()) };
/** A state whose desk records `apps` as install intents only (other_app, where not named, as installed). */
const intentState = (apps: string[]): StateFile => {
  const s = state({ apps: { desk: { other_app: other } } });
  for (const a of apps) (s.robots.desk as StateFile['robots'][string]).apps[a] = { source: `https://huggingface.co/spaces/alice/${a}`, path: null, sha: null, intent: 'install' };
  return s;
};

const cases: Case[] = [
  { name: 'fresh robot: install everything, then start the active app', desired: config(both), observed: observation({ robots: { desk: robotObs() } }),
    expect: [`install ${at('hello_app')}`, `install ${at('other_app')}`, `start ${at('hello_app')}`],
    check: (t, p) => { t.match(p.actions[0], { info: { name: 'hello_app', source_kind: 'hf_space', url: hello.source } }); } },
  { name: 'converged robot: no action', desired: config(both), observed: observation({ robots: converged }), expect: [] },
  { name: 'a starting app counts as running', desired: config(both), observed: observation({ robots: { desk: robotObs([installedOf(hello), installedOf(other)], running(hello, 'starting')) } }), expect: [] },
  { name: 'a done app is started again without a stop', desired: config(both), observed: observation({ robots: { desk: robotObs([installedOf(hello), installedOf(other)], running(hello, 'done')) } }),
    expect: [`start ${at('hello_app')}`] },
  { name: 'an app in error is stopped before it starts again', desired: config(both), observed: observation({ robots: { desk: robotObs([installedOf(hello), installedOf(other)], running(hello, 'error')) } }),
    expect: [`stop ${at('hello_app')}`, `start ${at('hello_app')}`], check: (t, p) => { t.match(p.actions[0]?.reason, /error/); } },
  { name: 'another app in error blocks the switch', desired: config(both), observed: observation({ robots: { desk: robotObs([installedOf(hello), installedOf(other)], running(other, 'error')) } }),
    expect: [`stop ${at('other_app')}`, `start ${at('hello_app')}`] },
  { name: 'an app in error with nothing to run is left alone', desired: config({ ...both, active: null }), observed: observation({ robots: { desk: robotObs([installedOf(hello), installedOf(other)], running(other, 'error')) } }),
    expect: [] },
  { name: 'switch the active app: stop then start', desired: config({ ...both, active: 'other_app' }), observed: observation({ robots: converged }),
    expect: [`stop ${at('hello_app')}`, `start ${at('other_app')}`], check: (t, p) => { t.match(p.actions[0]?.reason, /switching to other_app/); } },
  { name: 'active null stops the running app', desired: config({ ...both, active: null }), observed: observation({ robots: converged }), expect: [`stop ${at('hello_app')}`] },
  { name: 'an unmanaged running app is stopped for the active one', desired: config(both),
    observed: observation({ robots: { desk: robotObs([installedOf(hello), installedOf(other), installedOf(app('toy'))], running(app('toy'))) } }),
    expect: [`stop ${at('toy')}`, `start ${at('hello_app')}`] },
  { name: 'Space moved on (daemon reports sha): update_app', desired: config(both),
    observed: observation({ robots: { desk: robotObs([installedOf(hello, { sha: 'aaa' }), installedOf(other)], running(other)) }, spaces: { 'alice/hello_app': 'bbb' } }),
    expect: [`stop ${at('other_app')}`, `update_app ${at('hello_app')}`, `start ${at('hello_app')}`],
    check: (t, p) => { t.match(p.actions[1], { cause: 'revision', record: { sha: 'bbb' }, previous: { sha: 'aaa' } }); } },
  { name: 'Space moved on (daemon reports installed_sha, as robotctl daemon does): update_app', desired: config(both),
    observed: observation({ robots: { desk: robotObs([installedOf(hello, { installed_sha: 'aaa' }), installedOf(other)], running(other)) }, spaces: { 'alice/hello_app': 'bbb' } }),
    expect: [`stop ${at('other_app')}`, `update_app ${at('hello_app')}`, `start ${at('hello_app')}`],
    check: (t, p) => { t.match(p.actions[1], { type: 'update_app', cause: 'revision', record: { sha: 'bbb' }, previous: { sha: 'aaa' } }); } },
  { name: 'a running app that is not the active one is updated: stopped, and the active one starts', desired: config(both),
    observed: observation({ robots: { desk: robotObs([installedOf(hello), installedOf(other, { installed_sha: 'aaa' })], running(other)) }, spaces: { 'alice/other_app': 'bbb' } }),
    expect: [`stop ${at('other_app')}`, `update_app ${at('other_app')}`, `start ${at('hello_app')}`],
    check: (t, p) => { t.equal(p.actions[0]?.reason, 'other_app runs: stopped for its update'); } },
  { name: 'daemon reports installed_sha equal to the Space sha: no update_app', desired: config(both),
    observed: observation({ robots: { desk: robotObs([installedOf(hello, { installed_sha: 'bbb' }), installedOf(other)], running(hello)) }, spaces: { 'alice/hello_app': 'bbb' } }),
    expect: [] },
  { name: 'Space moved on (sha from the state): update of the running app is stop, update, start', desired: config(both),
    observed: observation({ robots: converged, spaces: { 'alice/hello_app': 'bbb' } }), state: state({ apps: { desk: { hello_app: { ...hello, sha: 'aaa' } } } }),
    expect: [`stop ${at('hello_app')}`, `update_app ${at('hello_app')}`, `start ${at('hello_app')}`],
    check: (t, p) => {
      t.match(p.actions[2]?.reason, /restart/);
      t.equal(p.actions[0]?.reason, 'hello_app runs: stopped for its update, then started again', 'the stop says what happens');
    } },
  { name: 'Space at the installed sha: no action', desired: config(both), observed: observation({ robots: converged, spaces: { 'alice/hello_app': 'aaa' } }),
    state: state({ apps: { desk: { hello_app: { ...hello, sha: 'aaa' } } } }), expect: [] },
  { name: 'unknown Space sha: no revision update', desired: config(both), observed: observation({ robots: converged, spaces: { 'alice/hello_app': null } }), expect: [] },
  { name: 'installed revision unknown but Space known: reinstall once', desired: config(both), observed: observation({ robots: converged, spaces: { 'alice/other_app': 'ccc' } }),
    expect: [`update_app ${at('other_app')}`], check: (t, p) => { t.match(p.actions[0]?.reason, /unknown revision/); } },
  { name: 'source changed: update_app (source)', desired: config({ ...both, apps: [app('hello_app', { source: 'https://huggingface.co/spaces/bob/hello_app', spaceId: 'bob/hello_app' }), other] }),
    observed: observation({ robots: converged }), expect: [`stop ${at('hello_app')}`, `update_app ${at('hello_app')}`, `start ${at('hello_app')}`],
    check: (t, p) => { t.match(p.actions[1], { cause: 'source', previous: { source: hello.source } }); } },
  { name: 'a trailing slash is the same source', desired: config(both),
    observed: observation({ robots: { desk: robotObs([{ ...installedOf(hello), url: `${hello.source ?? ''}/` }, installedOf(other)], running()) } }), expect: [] },
  { name: 'the daemon does not say the source: the state record decides', desired: config(both),
    observed: observation({ robots: { desk: robotObs([{ ...installedOf(hello), url: null, source_kind: 'installed' }, installedOf(other)], running()) } }),
    state: state({ apps: { desk: { hello_app: hello } } }), expect: [] },
  { name: 'path app: installed with source_kind local', desired: config({ apps: [dev], active: 'dev_app', robots: [{ name: 'desk' }] }), observed: observation({ robots: { desk: robotObs() } }),
    expect: [`install ${at('dev_app')}`, `start ${at('dev_app')}`], check: (t, p) => { t.match(p.actions[0], { info: { source_kind: 'local', extra: { path: dev.path } } }); } },
  { name: 'path app moved: update_app', desired: config({ apps: [pathApp('dev_app', '/elsewhere/dev_app')], robots: [{ name: 'desk' }] }),
    observed: observation({ robots: { desk: robotObs([installedOf(dev)]) } }), expect: [`update_app ${at('dev_app')}`] },
  { name: 'remove an app this file installed and no longer wants', desired: config({ apps: [hello], active: 'hello_app', robots: [{ name: 'desk' }] }),
    observed: observation({ robots: converged }), state: state({ apps: { desk: { other_app: other } } }), expect: [`remove ${at('other_app')}`] },
  { name: 'keep an app this file never installed', desired: config({ apps: [hello], active: 'hello_app', robots: [{ name: 'desk' }] }),
    observed: observation({ robots: converged }), expect: [], check: (t, p) => { t.same(p.unmanaged.apps, [{ robot: 'desk', app: 'other_app' }]); } },
  { name: 'removing the running app stops it first', desired: config({ apps: [hello], active: 'hello_app', robots: [{ name: 'desk' }] }),
    observed: observation({ robots: { desk: robotObs([installedOf(hello), installedOf(other)], running(other)) } }), state: state({ apps: { desk: { other_app: other } } }),
    expect: [`stop ${at('other_app')}`, `remove ${at('other_app')}`, `start ${at('hello_app')}`],
    check: (t, p) => { t.equal(p.actions[0]?.reason, 'other_app runs: stopped before it is removed'); } },
  // Issue 30.3: a ghost (recorded, never on the robot) is dropped from the state through a remove the robot answers "not installed".
  { name: 'an owned app already gone is dropped from the state with a note', desired: config({ apps: [hello], active: 'hello_app', robots: [{ name: 'desk' }] }),
    observed: observation({ robots: { desk: robotObs([installedOf(hello)], running()) } }), state: state({ apps: { desk: { other_app: other } } }),
    expect: [`remove ${at('other_app')}`], check: (t, p) => { t.match(p.actions[0]?.reason, /in the state but not on the robot .*dropped from the state/); } },
  { name: 'unreachable robot: no actions, listed', desired: config({ ...both, robots: [{ name: 'desk' }, { name: 'lab' }] }),
    observed: observation({ robots: { desk: converged.desk, lab: { reachable: false, error: 'ECONNREFUSED' } } }), expect: [],
    check: (t, p) => { t.same(p.unreachable, ['lab']); } },
  { name: 'a robot missing from the observation is unreachable', desired: config(both), observed: observation(), expect: [], check: (t, p) => { t.same(p.unreachable, ['desk']); } },
  { name: 'an unreachable robot does not stop the others', desired: config({ ...both, robots: [{ name: 'desk' }, { name: 'lab' }] }),
    observed: observation({ robots: { lab: robotObs(), desk: { reachable: false, error: 'timeout' } } }),
    expect: [`install ${at('hello_app', 'lab')}`, `install ${at('other_app', 'lab')}`, `start ${at('hello_app', 'lab')}`] },
  { name: 'per-robot apps: only the robot\'s apps are installed', desired: config({ ...both, robots: [{ name: 'desk', apps: ['hello_app'] }] }),
    observed: observation({ robots: { desk: robotObs() } }), expect: [`install ${at('hello_app')}`, `start ${at('hello_app')}`] },
  { name: 'per-robot active override beats the fleet value', desired: config({ ...both, robots: [{ name: 'desk' }, { name: 'lab', active: 'other_app' }] }),
    observed: observation({ robots: { desk: converged.desk, lab: converged.desk } }), expect: [`stop ${at('hello_app', 'lab')}`, `start ${at('other_app', 'lab')}`] },
  { name: 'per-robot active null override', desired: config({ ...both, robots: [{ name: 'desk', active: null }] }), observed: observation({ robots: converged }),
    expect: [`stop ${at('hello_app')}`] },
  { name: 'fleet of three robots in different states', desired: config({ ...both, robots: [{ name: 'r1' }, { name: 'r2' }, { name: 'r3' }] }),
    observed: observation({ robots: { r1: converged.desk, r2: robotObs([installedOf(hello)]), r3: robotObs([installedOf(hello), installedOf(other)], running(other)) } }),
    expect: [`install ${at('other_app', 'r2')}`, `start ${at('hello_app', 'r2')}`, `stop ${at('other_app', 'r3')}`, `start ${at('hello_app', 'r3')}`],
    check: (t, p) => { t.equal(p.summary.robot, 4); } },
  { name: 'target one robot of a fleet', desired: config({ ...both, robots: [{ name: 'r1' }, { name: 'r2' }] }), observed: observation({ robots: { r1: robotObs(), r2: robotObs() } }),
    opts: { targets: ['robots.r2'] }, expect: [`install ${at('hello_app', 'r2')}`, `install ${at('other_app', 'r2')}`, `start ${at('hello_app', 'r2')}`] },
  { name: 'emptying every robot needs allowEmpty: allowed', desired: config({ robots: [{ name: 'desk' }] }), observed: observation({ robots: { desk: robotObs([installedOf(hello)]) } }),
    state: state({ apps: { desk: { hello_app: hello } } }), opts: { allowEmpty: true }, expect: [`remove ${at('hello_app')}`] },
  // Issue 29.4: an install is recorded as an intent before it is sent; a kill leaves only that.
  { name: 'an intent record and the app found installed: adopted (nothing sent), then owned', desired: config(both),
    observed: observation({ robots: converged }), state: intentState(['hello_app']),
    expect: [`adopt_app ${at('hello_app')}`], check: (t, p) => { t.same((p.actions[0] as { record?: unknown }).record, { source: hello.source, path: null, sha: null }, 'recorded without the intent'); } },
  { name: 'an intent record, the app found installed, robot.yaml dropped it: removed like any app of this file', desired: config({ apps: [other], active: 'other_app', robots: [{ name: 'desk' }] }),
    observed: observation({ robots: { desk: robotObs([installedOf(hello), installedOf(other)], running(other)) } }), state: intentState(['hello_app']),
    expect: [`remove ${at('hello_app')}`], check: (t, p) => { t.same(p.unmanaged.apps, [], 'not reported as left alone'); } },
  { name: 'an intent record and the app not installed: it never reads as installed', desired: config(both),
    observed: observation({ robots: { desk: robotObs([installedOf(other)]) } }), state: intentState(['hello_app']),
    expect: [`install ${at('hello_app')}`, `start ${at('hello_app')}`] },
  { name: 'an intent record, the app not installed and dropped from robot.yaml: kept (its install may still land), nothing to do', desired: config({ apps: [other], active: 'other_app', robots: [{ name: 'desk' }] }),
    observed: observation({ robots: { desk: robotObs([installedOf(other)], running(other)) } }), state: intentState(['hello_app']),
    expect: [] },
  { name: 'an intent record and the app installed at another revision than the Space: updated, which records it', desired: config(both),
    observed: observation({ robots: { desk: robotObs([installedOf(hello, { installed_sha: 'aaa' }), installedOf(other)], running(other)) }, spaces: { 'alice/hello_app': 'bbb' } }), state: intentState(['hello_app']),
    expect: [`stop ${at('other_app')}`, `update_app ${at('hello_app')}`, `start ${at('hello_app')}`] },
];

for (const c of cases) {
  t.test(c.name, (t) => {
    const p = plan(c.desired, c.observed, c.state ?? state(), c.opts);
    t.same(p.actions.map((x) => `${x.type} ${x.address}`), c.expect);
    c.check?.(t, p);
    t.end();
  });
}

t.test('emptying every robot without allowEmpty is refused', (t) => {
  const obs = observation({ robots: { desk: robotObs([installedOf(hello)]) } });
  t.throws(() => plan(config({ robots: [{ name: 'desk' }] }), obs, state({ apps: { desk: { hello_app: hello } } })), /--allow-empty/);
  t.end();
});

t.test('overrides through a loaded robot.yaml', (t) => {
  const yaml = [
    'version: 1',
    'apps:',
    '  hello_app: { source: https://huggingface.co/spaces/alice/hello_app }',
    '  dev_app: { path: ./apps/dev_app }',
    'active: hello_app',
    'robots:',
    '  desk: { url: http://127.0.0.1:8000 }',
    '  lab-1: { url: http://127.0.0.1:8001, active: dev_app }',
  ].join('\n');
  const loaded = loadConfigText(yaml, 'robot.yaml', '/tmp/robotctl-plan', {});
  if (!loaded.ok) { t.fail(JSON.stringify(loaded.diagnostics)); t.end(); return; }
  const p = plan(loaded.config, observation({ robots: { desk: robotObs(), 'lab-1': robotObs() } }), state());
  const starts = p.actions.filter((a) => a.type === 'start').map((a) => a.address);
  t.same(starts, ['robots.desk.apps.hello_app', 'robots.lab-1.apps.dev_app']);
  t.end();
});
