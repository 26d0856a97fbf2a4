import t from 'tap';
import { buildStatus, type StatusInput } from '../../reconciler/agent/status.js';
import { plan } from '../../reconciler/plan.js';
import { app, config, hookOf, installedOf, observation, robotObs, state, webhook } from '../reconciler/plan-fixtures.js';

// GET /status from what the agent knows: converged, drifted and missing
// webhooks, robots with drift lines, unreachable robots, deliveries newest
// first with what the agent did about them. Never a secret.

const hook = webhook('redeploy');
const hello = app('hello_app');
const desired = config({ webhooks: [hook], apps: [hello], active: 'hello_app', robots: [{ name: 'desk' }, { name: 'lab' }] });

function input(over: Partial<StatusInput>): StatusInput {
  return {
    config: desired, file: '/work/robot.yaml', mode: 'heal', intervalMs: 60_000, hubEndpoint: 'http://127.0.0.1:1', watchesHub: true,
    observation: null, remaining: null, state: null, lastRun: null, deliveries: [], configError: null, runs: [], rollout: null, now: new Date(0), ...over,
  };
}

t.test('converged fleet', async (t) => {
  const st0 = state({ webhooks: { redeploy: { id: 'h1', spec: hook } } });
  const obs = observation({
    hooks: [hookOf('h1', hook)],
    robots: { desk: robotObs([installedOf(hello)], { app: installedOf(hello), state: 'running' }), lab: robotObs([installedOf(hello)], { app: installedOf(hello), state: 'running' }) },
  });
  const st = buildStatus(input({ observation: obs, remaining: plan(desired, obs, st0), state: st0 }));
  t.equal(st.drift, false);
  t.same(st.hub?.webhooks, [{ name: 'redeploy', id: 'h1', url: 'https://example.org/hooks/redeploy', enabled: true, state: 'converged', drift: [] }]);
  t.equal(st.format_version, '2.0');
  t.equal(st.generated_at, '1970-01-01T00:00:00.000Z');
  t.same(st.robots.map((r) => [r.name, r.running, r.app_state, r.converged, r.dashboard]), [
    ['desk', 'hello_app', 'running', true, 'http://127.0.0.1:8000/'],
    ['lab', 'hello_app', 'running', true, 'http://127.0.0.1:8001/'],
  ]);
  t.notOk(JSON.stringify(st).includes(hook.secret as string), 'no secret');
});

t.test('drift: disabled webhook, stopped app, unreachable robot', async (t) => {
  const st0 = state({ webhooks: { redeploy: { id: 'h1', spec: hook } } });
  const obs = observation({
    hooks: [hookOf('h1', hook, { disabled: true })],
    robots: { desk: robotObs([installedOf(hello)], null), lab: { reachable: false, error: 'connect ECONNREFUSED' } },
  });
  const st = buildStatus(input({ observation: obs, remaining: plan(desired, obs, st0), state: st0 }));
  t.equal(st.drift, true);
  t.equal(st.hub?.webhooks[0]?.state, 'drifted');
  t.match(st.hub?.webhooks[0]?.drift, [/enable/]);
  t.same(st.robots[0]?.drift, ['app hello_app: the active app is not running']);
  t.equal(st.robots[0]?.converged, false);
  t.match(st.robots[1], { reachable: false, error: 'connect ECONNREFUSED', converged: false });
});

t.test('a missing webhook, deliveries newest first, config error', async (t) => {
  const obs = observation({ robots: {} });
  const deliveries = [
    { id: 1, time: '2026-01-01T00:00:00.000Z', endpoint: '/webhooks/redeploy', event: 'repo.content/update', repo: 'space:alice/hello_app', status: 200, outcome: 'ok' as const, durationMs: 1, result: { action: 'redeploy hello_app on desk', queued: [] } },
    { id: 2, time: '2026-01-01T00:00:01.000Z', endpoint: '/webhooks/redeploy', event: null, repo: null, status: 403, outcome: 'rejected' as const, durationMs: null, error: 'Invalid webhook secret.' },
  ];
  const st = buildStatus(input({ observation: obs, remaining: plan(desired, obs, state()), deliveries, configError: 'robot.yaml:3:1: bad' }));
  t.match(st.hub?.webhooks, [{ name: 'redeploy', id: null, state: 'missing', drift: [/^create: /] }]);
  t.same(st.deliveries.map((d) => [d.status, d.action ?? null, d.error]), [[403, null, 'Invalid webhook secret.'], [200, 'redeploy hello_app on desk', null]]);
  t.equal(st.config_error, 'robot.yaml:3:1: bad');
  t.equal(st.hub?.endpoint, 'http://127.0.0.1:1');
});

t.test('before the first observation', async (t) => {
  const st = buildStatus(input({ watchesHub: false }));
  t.equal(st.hub, null);
  t.equal(st.last_run, null);
  t.same(st.robots.map((r) => [r.reachable, r.error]), [[false, 'not observed yet'], [false, 'not observed yet']]);
});

t.test('revisions per app: the state first, else what the daemon reports; a failure is said once', async (t) => {
  const dev = app('dev_app');
  const both = config({ apps: [hello, dev], active: 'hello_app', robots: [{ name: 'desk' }] });
  const st0 = state({ apps: { desk: { hello_app: { ...hello, sha: 'aaaa111' } } } });
  const obs = observation({ robots: { desk: robotObs([installedOf(hello, { installed_sha: 'bbbb222' }), installedOf(dev, { installed_sha: 'cccc333' })]) } });
  const failedRun = { trigger: 'interval' as const, startedAt: '1970-01-01T00:00:00.000Z', finishedAt: null, result: 'failed' as const,
    actions: [{ address: 'robots.desk.apps.dev_app', kind: 'install', outcome: 'failed' as const, error: 'install failed: pip exited with 1', durationMs: 5 }] };
  const st = buildStatus(input({ config: both, observation: obs, remaining: plan(both, obs, st0), state: st0, lastRun: failedRun, runs: [failedRun] }));
  t.same(st.robots[0]?.revisions, { hello_app: 'aaaa111', dev_app: 'cccc333' });
  t.equal(st.robots[0]?.error, 'install failed: pip exited with 1', 'not "install failed: install failed: …"');
  t.equal(st.runs.length, 1);
  t.equal(st.runs[0]?.started_at, '1970-01-01T00:00:00.000Z');
  t.equal(st.receiver, null, 'no receiver declared');
  t.equal(st.rollout, null);
});
