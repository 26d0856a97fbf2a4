import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentStatus } from '../../reconciler/agent/status-types.js';
import { appFiles, startLoop, USER, writeApp, type Loop, type Robot } from './fixture.js';
import { until } from '../helpers/wait.js';
import { runAgent, type TestAgent } from './run-agent.js';

// The agent end to end: embedded hub, two simulated robots, real drivers.
// One loop for the whole file (installs cost pip runs): each subtest starts
// from the state the previous one left.

let loop: Loop;
let a: TestAgent | null = null;

t.before(async () => {
  loop = await startLoop({ robots: ['r1', 'r2'], apps: ['app_a', 'app_b'] });
  loop.writeConfig();
});
t.teardown(async () => {
  await a?.stop();
  await loop?.close();
});

const running = async (r: Robot): Promise<string | null> => {
  const st = await r.client.currentAppStatus();
  return st && st.state === 'running' ? st.info.name : null;
};
const installedSha = async (r: Robot, app: string): Promise<unknown> =>
  (await r.client.listInstalled()).find((x) => x.name === app)?.extra.installed_sha;
// Deadlines only (a loaded machine makes them slower, never wrong); on a
// timeout the agent's log says what it was doing.
const withLog = (what: string) => (): string => `${what}; the agent logged:\n${a?.lines.join('\n') ?? '(no agent)'}`;
const status = async (): Promise<AgentStatus> => (await fetch(`${a?.agent.url}/status`)).json() as Promise<AgentStatus>;

t.test('on start it applies: webhook created, apps installed, active app running', async (t) => {
  a = await runAgent(loop, { intervalMs: 1500 });
  const first = await a.agent.firstRun;
  t.equal(first.result, 'converged', a.lines.join('\n'));
  t.equal(first.trigger, 'startup');
  const [r1, r2] = loop.robots as [Robot, Robot];
  t.equal(await running(r1), 'app_a');
  t.equal(await running(r2), 'app_a');
  const hooks = await loop.hubClient.listWebhooks();
  t.equal(hooks.length, 1);
  t.equal(hooks[0]?.url, `http://127.0.0.1:${loop.receiverPort}/webhooks/redeploy`);
  const st = await status();
  t.equal(st.format_version, '2.0');
  t.equal(st.drift, false);
  t.same(st.robots.map((r) => [r.name, r.running, r.converged]), [['r1', 'app_a', true], ['r2', 'app_a', true]]);
  t.equal(st.hub?.webhooks[0]?.state, 'converged');
  t.notOk(JSON.stringify(st).includes(loop.env.WEBHOOK_SECRET as string), 'no secret in /status');
  t.notOk(a.lines.join('\n').includes(USER.token), 'no token in the log');
  const page = await fetch(`${a.agent.url}/`);
  t.equal(page.status, 200);
  t.match(await page.text(), /robotctl fleet/);
});

t.test('a save of robot.yaml is applied', async (t) => {
  const [r1, r2] = loop.robots as [Robot, Robot];
  loop.writeConfig({ overrides: { r2: 'app_b' } });
  await until(async () => (await running(r2)) === 'app_b', 20_000, withLog('r2 runs app_b'));
  t.equal(await running(r1), 'app_a', 'r1 keeps app_a');
  await a?.agent.idle();
  t.match(a?.lines.join('\n'), /reconcile \(file\)/);
});

t.test('a commit to a Space reinstalls its app where installed and restarts it where active', async (t) => {
  const [r1, r2] = loop.robots as [Robot, Robot];
  // The daemon reports an app running before its Python has written its pid:
  // the pids this test compares against must be known first.
  await until(async () => loop.pid(r1, 'app_a') !== null && loop.pid(r2, 'app_b') !== null, 30_000, withLog('app_a and app_b wrote their pids'));
  const before = { sha1: await installedSha(r1, 'app_a'), sha2: await installedSha(r2, 'app_a'), pid1: loop.pid(r1, 'app_a'), pidB: loop.pid(r2, 'app_b') };
  const { commitOid } = await loop.hub.commit(USER.name, 'space', 'demo/app_a', appFiles('app_a', 'v2'), 'v2');
  await until(async () => (await installedSha(r1, 'app_a')) === commitOid && (await installedSha(r2, 'app_a')) === commitOid, 30_000, withLog('app_a updated on both'));
  t.not(before.sha1, commitOid);
  await until(async () => loop.pid(r1, 'app_a') !== before.pid1 && (await running(r1)) === 'app_a', 30_000, withLog('app_a restarted on r1'));
  t.equal(loop.pid(r2, 'app_b'), before.pidB, 'r2 keeps running app_b, untouched');
  t.equal(await running(r2), 'app_b');
  await a?.agent.idle();
  const st = await status();
  const d = st.deliveries.find((x) => x.repo === 'space:demo/app_a');
  t.ok(d, 'the delivery is listed');
  t.equal(d?.outcome, 'ok');
  t.match(d?.action, /redeploy app_a on r1, r2/);
});

t.test('drift is healed on the interval (stopped app, disabled webhook)', async (t) => {
  const [r1] = loop.robots as [Robot, Robot];
  await r1.client.stopCurrentApp();
  const hook = (await loop.hubClient.listWebhooks())[0];
  await loop.hubClient.disableWebhook(hook?.id ?? '');
  await until(async () => (await running(r1)) === 'app_a', 15_000, withLog('r1 runs app_a again'));
  await until(async () => (await loop.hubClient.listWebhooks())[0]?.disabled === false, 10_000, withLog('webhook enabled again'));
  await a?.agent.idle();
  t.match(a?.lines.join('\n'), /reconcile \(interval\)/);
});

t.test('an invalid edit keeps the last good config and reports it', async (t) => {
  const [, r2] = loop.robots as [Robot, Robot];
  const lines = a?.lines.length ?? 0;
  writeFileSync(loop.file, 'version: 1\napps: [oops\n');
  await until(async () => (await status()).config_error, 5000, withLog('config_error'));
  const st = await status();
  t.match(st.config_error, /robot\.yaml/);
  t.match(a?.lines.slice(lines).join('\n'), /invalid; keeping the last good version/);
  t.equal(a?.agent.config.robots.r2?.active, 'app_b', 'last good config kept');
  t.equal(await running(r2), 'app_b');
  loop.writeConfig({ overrides: { r2: 'app_b' } });
  await until(async () => (await status()).config_error === null, 5000, withLog('config_error cleared'));
  t.pass('a valid save clears the error');
});

t.test('a change in a path app folder reinstalls it and restarts it where active', async (t) => {
  const [r1, r2] = loop.robots as [Robot, Robot];
  const folder = writeApp(loop.dir, 'dev_app', 'v1');
  loop.writeConfig({ overrides: { r1: 'dev_app', r2: 'app_b' }, local: { dev_app: folder } });
  await until(async () => (await running(r1)) === 'dev_app', 30_000, withLog('r1 runs dev_app'));
  await a?.agent.idle();
  await until(async () => loop.pid(r1, 'dev_app') !== null && loop.pid(r2, 'app_b') !== null, 30_000, withLog('dev_app and app_b wrote their pids'));
  const before = { sha1: await installedSha(r1, 'dev_app'), sha2: await installedSha(r2, 'dev_app'), pid: loop.pid(r1, 'dev_app'), pidB: loop.pid(r2, 'app_b') };
  t.match(before.sha1, /^local-/);
  writeFileSync(join(folder, 'dev_app', '__init__.py'), 'VERSION = "v2"\n');
  await until(async () => (await installedSha(r1, 'dev_app')) !== before.sha1 && (await installedSha(r2, 'dev_app')) !== before.sha2, 30_000, withLog('dev_app reinstalled on both'));
  await until(async () => loop.pid(r1, 'dev_app') !== before.pid && (await running(r1)) === 'dev_app', 30_000, withLog('dev_app restarted on r1'));
  t.equal(loop.pid(r2, 'app_b'), before.pidB, 'r2 keeps running app_b');
  await a?.agent.idle();
  t.match(a?.lines.join('\n'), /update_app dev_app on r1/);
});

t.test('warn mode only reports drift', async (t) => {
  await a?.stop();
  a = null;
  const [r1] = loop.robots as [Robot, Robot];
  await r1.client.stopCurrentApp();
  a = await runAgent(loop, { mode: 'warn', intervalMs: 1000 });
  const first = await a.agent.firstRun;
  t.equal(first.result, 'drift');
  t.ok(first.actions.some((x) => x.address === 'robots.r1.apps.dev_app' && x.kind === 'start' && x.outcome === 'skipped'));
  // The next drift check (every second) has run once it logs and the queue is idle.
  await until(() => a?.lines.some((l) => l.startsWith('reconcile (interval')), 20_000, withLog('an interval drift check'));
  await a.agent.idle();
  t.equal(await running(r1), null, 'nothing was started');
  const st = await status();
  t.equal(st.drift, true);
  t.equal(st.mode, 'warn');
  const robot = st.robots.find((r) => r.name === 'r1');
  t.equal(robot?.converged, false);
  t.match(robot?.drift.join('\n'), /app dev_app: the active app is not running/);
});
