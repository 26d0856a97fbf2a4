import t from 'tap';
import { plan } from '../../reconciler/plan.js';
import { renderStatus, statusJson } from '../../cli/views/status-view.js';
import { fleetStatus } from '../../reconciler/agent/status-fleet.js';
import type { Config } from '../../schema/types.js';
import type { StateFile } from '../../state/types.js';
import type { Observation, Plan } from '../../reconciler/types.js';
import { renderState, stateJson } from '../../cli/views/state-view.js';
import { driftedResources, renderDiff } from '../../cli/views/diff-view.js';
import { renderPlan } from '../../cli/views/plan-view.js';
import { actionText } from '../../cli/views/format.js';
import { SECRET, app, config, hookOf, installedOf, observation, pathApp, robotObs, state, webhook } from '../reconciler/plan-fixtures.js';

// The human and JSON views of `robotctl status` and `robotctl state show`,
// from data built inline (the commands around them are tested end to end).

const hook = webhook('redeploy');
const hello = app('hello_app');
const desired = config({ webhooks: [hook], apps: [hello], active: 'hello_app', robots: [{ name: 'desk' }, { name: 'lab' }] });
const owned = state({ webhooks: { redeploy: { id: 'wh1', spec: hook } }, apps: { desk: { hello_app: hello } } });

/** What `robotctl status` builds: the fleet status at a fixed time. */
const statusDoc = (c: Config, observation: Observation, s: StateFile, remaining: Plan) =>
  fleetStatus({ config: c, file: '/x/robot.yaml', hubEndpoint: 'http://127.0.0.1:1', watchesHub: true, observation, remaining, state: s, lastRun: null, now: new Date(0) });

t.test('status: converged webhook, converged robot, drifted robot, unreachable robot', async (t) => {
  const observed = observation({
    hooks: [hookOf('wh1', hook), hookOf('other', webhook('foreign', { url: 'https://elsewhere.example/x' }))],
    robots: {
      desk: robotObs([installedOf(hello)], { app: installedOf(hello), state: 'running' }),
      lab: { reachable: false, error: 'connect ECONNREFUSED 127.0.0.1:8001' },
    },
  });
  const doc = statusDoc(desired, observed, owned, plan(desired, observed, owned));
  const text = renderStatus(doc, false);
  t.equal(text, [
    'Webhooks:',
    '  NAME      ID   URL                                 ENABLED  CONVERGED',
    '  redeploy  wh1  https://example.org/hooks/redeploy  true     yes',
    '  1 other webhook(s) on the account are not managed by this file',
    '',
    'Robots:',
    '  NAME  URL                    REACHABLE                               DAEMON   RUNNING              AT BOOT  CONVERGED',
    '  desk  http://127.0.0.1:8000  yes                                     running  hello_app (running)  -        yes',
    '  lab   http://127.0.0.1:8001  no connect ECONNREFUSED 127.0.0.1:8001  -        -                    -        -',
    '',
    '  NAME  ROBOT NAME   HARDWARE ID  INSTALLED',
    '  desk  reachy_mini  -            hello_app',
    '  lab   -            -            -',
    '',
  ].join('\n'));
  t.notMatch(text, SECRET);
  const json = JSON.parse(statusJson(doc)) as { format_version: string; robots: { name: string; converged: boolean; reachable: boolean }[] };
  t.equal(json.format_version, '2.0');
  t.match(json, { generated_at: '1970-01-01T00:00:00.000Z', file: '/x/robot.yaml', drift: true, hub: { reachable: true, unmanaged_webhooks: 1, webhooks: [{ name: 'redeploy', state: 'converged' }] } });
  t.same(json.robots.map((r) => [r.name, r.reachable, r.converged]), [['desk', true, true], ['lab', false, false]]);
  t.notMatch(statusJson(doc), SECRET);
});

t.test('status: a drifted webhook says why, and the hub being down is shown', async (t) => {
  const drifted = observation({ hooks: [hookOf('wh1', hook, { disabled: true, secret: 'rotated-elsewhere-42' })], robots: { desk: robotObs(), lab: robotObs() } });
  const text = renderStatus(statusDoc(desired, drifted, owned, plan(desired, drifted, owned)), false);
  t.match(text, '  redeploy  wh1  https://example.org/hooks/redeploy  false    no update: secret changed; enable: disabled on the hub, enabled in robot.yaml\n');
  t.match(text, /^  desk  http:\/\/127\.0\.0\.1:8000  yes\s+running\s+-\s+-\s+no$/m, 'desk lacks its app');
  t.notMatch(text, SECRET);
  t.notMatch(text, 'rotated-elsewhere-42', 'the secret found on the hub is never shown either');
  const down = observation({ hubError: 'hub unreachable: ECONNREFUSED', robots: { desk: robotObs(), lab: robotObs() } });
  const downText = renderStatus(statusDoc(desired, down, owned, plan(desired, down, owned)), false);
  t.match(downText, '  hub not observed: hub unreachable: ECONNREFUSED');
  t.match(downText, /redeploy\s+wh1\s+\S+\s+-\s+no hub not observed/, 'the id recorded in the state, state unknown');
});

t.test('status: a drifted robot lists each difference, a held-back revision with the robot\'s reason (issue 30.1)', async (t) => {
  const held = 'b'.repeat(40);
  const good = 'a'.repeat(40);
  const s = state({ webhooks: { redeploy: { id: 'wh1', spec: hook } }, apps: { desk: { hello_app: { ...hello, sha: good } } } });
  s.rollouts = { history: [], held: { hello_app: { sha: held, reason: "desk: install failed: ERROR: Package 'hello-app' requires a different Python: 3.11.7 not in '>=3.99'", rollout: 'r-1', at: '2026-01-01T00:00:00.000Z' } } };
  const observed = observation({
    hooks: [hookOf('wh1', hook)],
    robots: { desk: robotObs([installedOf(hello, { installed_sha: good })], { app: installedOf(hello, { installed_sha: good }), state: 'running' }), lab: robotObs() },
    spaces: { 'alice/hello_app': held },
  });
  const text = renderStatus(statusDoc(desired, observed, s, plan(desired, observed, s)), false);
  t.match(text, "  desk: app hello_app: revision bbbbbbb held back (rollout r-1 failed with it: desk: install failed: ERROR: Package 'hello-app' requires a different Python: 3.11.7 not in '>=3.99')\n");
  t.match(text, /^ {2}lab: app hello_app: revision bbbbbbb held back \(rollout r-1 failed with it: desk: install failed: ERROR: /m, 'lab, which lacks the app, is not given it either, and says why');
  t.equal(text.split('\n').filter((l) => /^ {2}(desk|lab): /.test(l)).length, 2, 'one line each');
});

t.test('state show: owned webhooks and apps, the lock holder, never a secret', async (t) => {
  const text = renderState('/x/.robotctl/state.json', true, owned, { pid: 4242, host: 'desk-pc', time: '2026-11-22T05:00:00.000Z', operation: 'apply', token: 'tok-hidden' });
  t.match(text, 'State: /x/.robotctl/state.json (lineage test-lineage, serial 1)');
  t.match(text, /redeploy\s+wh1\s+[0-9a-f]{12}…/);
  t.match(text, /desk\s+hello_app\s+https:\/\/huggingface\.co\/spaces\/alice\/hello_app\s+-/);
  t.match(text, 'Lock: state is locked by pid 4242 on host desk-pc since 2026-11-22T05:00:00.000Z (apply)');
  t.notMatch(text, 'tok-hidden', 'the lock token is internal');
  t.notMatch(text, SECRET);
  t.equal(renderState('/x/s.json', false, state(), null), 'No state at /x/s.json yet: nothing has been applied with this file.\n\nLock: not locked\n');
  const json = JSON.parse(stateJson('/x/s.json', true, owned, null)) as { format_version: string; lock: null; state: { webhooks: Record<string, { id: string }> } };
  t.equal(json.format_version, '1.0');
  t.equal(json.lock, null);
  t.equal(json.state.webhooks.redeploy?.id, 'wh1');
});

t.test('diff: each drifted resource once, its actions together, whether or not the plan lists them side by side', async (t) => {
  const quiet = webhook('quiet', { enabled: false });
  const a = app('a_app');
  const b = app('b_app');
  const c = config({ webhooks: [quiet, webhook('fresh', { url: 'https://example.org/fresh' })], apps: [a, b], active: 'a_app', robots: [{ name: 'desk' }] });
  const p = plan(c, observation({ hooks: [hookOf('q1', quiet, { disabled: false })], robots: { desk: robotObs() } }), state());
  const order = p.actions.map((x) => `${x.type} ${x.address}`);
  const install = order.indexOf('install robots.desk.apps.a_app');
  const start = order.indexOf('start robots.desk.apps.a_app');
  t.ok(install >= 0 && start > install + 1, `a_app's install and start are apart in the plan (${order.join('; ')})`);
  const drifted = driftedResources(p);
  t.same(drifted.map((d) => [d.address, d.actions.map((x) => x.type)]), [
    ['webhooks.quiet', ['adopt', 'disable']],
    ['webhooks.fresh', ['create']],
    ['robots.desk.apps.a_app', ['install', 'start']],
    ['robots.desk.apps.b_app', ['install']],
  ]);
  t.match(renderDiff(p, false), /^Drift detected in 4 resources:\n {2}webhooks\.quiet: adopt \(.*\), disable \(.*\)\n/);
  // The text groups as the JSON does, line for line.
  const expected = drifted.map((d) => `  ${d.address}: ${d.actions.map((x) => `${x.type} (${x.reason})`).join(', ')}`);
  t.same(renderDiff(p, false).split('\n').slice(1, 1 + drifted.length), expected);
});

t.test('status: each robot\'s daemon (and the declared release while they differ), name, hardware id, startup app; refused and mDNS-found robots', async (t) => {
  const fleet = config({ apps: [hello], robots: [
    { name: 'desk', daemonVersion: '1.10.0', hardwareId: 'aaaa000011112222' },
    { name: 'lab', daemonVersion: 'latest', hardwareId: 'bbbb000011112222' },
    { name: 'far', url: null, hardwareId: 'cccc000011112222' },
  ] });
  const obs = (version: string, id: string, extra: object = {}) => ({ ...robotObs([installedOf(hello, { installed_sha: 'f00dfeed12345' })]), daemon: { robot_name: 'reachy_mini', state: 'running' as const, version, hardware_id: id }, startupApp: 'hello_app', ...extra });
  const observed = {
    ...observation({ robots: { desk: obs('1.9.0', 'aaaa000011112222'), lab: obs('1.9.0', 'ffff000011112222', { latestDaemon: '1.10.0' }), far: obs('1.10.0', 'cccc000011112222') } }),
    located: { far: 'http://10.0.0.9:8000' },
  };
  const doc = statusDoc(fleet, observed, state(), plan(fleet, observed, state()));
  const text = renderStatus(doc, false);
  t.match(text, /desk +http:\/\/127\.0\.0\.1:8000 +yes +running 1\.9\.0 \(robot\.yaml: 1\.10\.0\) +- +hello_app +no/);
  t.match(text, /far +http:\/\/10\.0\.0\.9:8000 \(mDNS\) +yes +running 1\.10\.0 +- +hello_app +yes/);
  t.match(text, /desk +reachy_mini +aaaa000011112222 +hello_app f00dfee/);
  t.match(text, '  lab: refused: robot.yaml says hardware_id bbbb000011112222; the robot at http://127.0.0.1:8001 answers ffff000011112222');
  const json = JSON.parse(statusJson(doc)) as { robots: Record<string, unknown>[] };
  t.match(json.robots[0], { daemon_version: '1.9.0', declared_daemon_version: '1.10.0', daemon_update_to: '1.10.0', robot_name: 'reachy_mini', hardware_id: 'aaaa000011112222', startup_app: 'hello_app', located: false });
  t.match(json.robots[1], { declared_daemon_version: 'latest', daemon_update_to: null, converged: false });
  t.match(json.robots[2], { url: 'http://10.0.0.9:8000', dashboard: 'http://10.0.0.9:8000/', located: true, converged: true });
});

t.test('plan, apply and diff: an update away from a local folder reads `local files → <sha>`, as rollout history does', async (t) => {
  const FOLDER = pathApp('oneshot_app');
  const SPACE = app('oneshot_app');
  const HEAD = '80dee84' + 'c'.repeat(33);
  const c = config({ apps: [SPACE], active: null, robots: [{ name: 'desk' }] });
  const spaces = { 'alice/oneshot_app': HEAD };
  // The daemon reports a folder's install with its own revision, `local-<hash>`.
  const fromFolder = installedOf(FOLDER, { installed_sha: 'local-bd7d14b26d46' });
  const cases = [
    {
      name: 'the state knows the folder', info: fromFolder, owned: state({ apps: { desk: { oneshot_app: { ...FOLDER, sha: 'local-bd7d14b26d46' } } } }),
      plan: '  ~ update_app oneshot_app local files → 80dee84 from https://huggingface.co/spaces/alice/oneshot_app (installed from /work/apps/oneshot_app, robot.yaml wants https://huggingface.co/spaces/alice/oneshot_app)',
    },
    {
      name: 'only the daemon\'s local- revision says so', info: { ...fromFolder, extra: { installed_sha: 'local-bd7d14b26d46' } }, owned: state(),
      plan: '  ~ update_app oneshot_app local files → 80dee84 (installed under this name and adopted (from local files); Space alice/oneshot_app is at 80dee84)',
    },
  ];
  for (const k of cases) {
    const p = plan(c, observation({ robots: { desk: robotObs([k.info]) }, spaces }), k.owned);
    const update = p.actions.find((a) => a.type === 'update_app');
    if (update === undefined) { t.fail(`${k.name}: no update_app in ${p.actions.map((a) => a.type).join(', ')}`); continue; }
    t.equal(renderPlan(p).split('\n').find((l) => l.includes('update_app')), k.plan, `${k.name}: plan`);
    t.notMatch(renderPlan(p), /local-/, `${k.name}: the daemon's revision is not shown`);
    t.equal(actionText(update), 'update oneshot_app local files → 80dee84', `${k.name}: apply`);
    t.equal(renderDiff(p, false).split('\n')[1], `  robots.desk.apps.oneshot_app: update_app local files → 80dee84 (${update.reason})`, `${k.name}: diff`);
  }
});
