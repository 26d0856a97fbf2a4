import t from 'tap';
import { join } from 'node:path';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { startDaemon, type RunningDaemon } from '../../runtime/daemon/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { QUIET_BODY, appFiles, crashAfterBody } from '../helpers/python-apps.js';
import { startNotifyReceiver, type NotifyReceiver } from '../helpers/notify-receiver.js';
import { fileScratch } from '../helpers/file-scratch.js';
import { until } from '../helpers/wait.js';
import { USER, writeYaml } from './helpers.js';

// Issue 32 end to end through the built CLI: three simulated robots, a Space
// whose new revision crashes 2 s after it starts. The canary's health gate
// fails it, the canary is rolled back to the previous revision (which runs
// again), the other robots are never touched, the notify webhook (a receiver
// started here) and the Space's discussion hear the outcome, `rollout
// history` shows it, and the revision is held back (diff exits 2) until
// `rollout retry`. Then the defaults (healthy_for 10s, on_failure rollback),
// then on_failure: stop. The subtests run in order on one fleet.

const NOTIFY_SECRET = 'rollout-notify-secret-never-print';
const SPACE = `${USER.name}/hello_app`;
let hub: RunningHub;
let receiver: NotifyReceiver;
const daemons: RunningDaemon[] = [];
const clients: DaemonClient[] = [];
const outputs: string[] = [];
const shas: { v1: string; v2: string } = { v1: '', v2: '' };
const scratch = fileScratch('e2e-rollout');
const dir = scratch.dir;

t.before(async () => {
  hub = await startHub({ users: [USER] });
  await hub.createRepo(USER.name, 'space', SPACE, { sdk: 'static' });
  shas.v1 = (await hub.commit(USER.name, 'space', SPACE, appFiles('hello_app', QUIET_BODY, { marker: 'v1' }), 'v1')).commitOid;
  for (const name of ['r1', 'r2', 'r3']) {
    const d = await startDaemon({ appsDir: join(dir, `robot-${name}`), sim: true, port: 0, robotName: name, hubEndpoint: hub.url, hubToken: USER.token, stopTimeoutMs: 5000, startupApp: null });
    daemons.push(d);
    clients.push(createDaemonClient({ baseUrl: d.url, jobTimeoutMs: 120_000 }));
  }
  receiver = await startNotifyReceiver(NOTIFY_SECRET);
});
t.teardown(async () => {
  for (const c of clients) await c.close();
  for (const d of daemons) await d.close();
  await receiver?.close();
  await hub?.close();
  scratch.remove();
});

function yaml(rollout: string): string {
  return `version: 1
apps:
  hello_app: { source: ${hub.url}/spaces/${SPACE} }
active: hello_app
robots:
${daemons.map((d, i) => `  r${i + 1}: { url: ${d.url} }`).join('\n')}
rollout: ${rollout}
notify: { webhook: ${receiver.url}, secret: "\${NOTIFY_SECRET}", discussion: true }
`;
}

async function cli(args: string[]): Promise<CliResult> {
  const r = await runCli(args, { env: { HF_ENDPOINT: hub.url, HF_TOKEN: USER.token, NOTIFY_SECRET, HF_HOME: join(dir, 'hf') }, cwd: dir, timeoutMs: 240_000 });
  outputs.push(r.stdout, r.stderr);
  return r;
}

/** What runs on robot i, and at which revision. */
async function runs(i: number): Promise<{ app: string | null; state: string | null; sha: unknown }> {
  const c = clients[i] as DaemonClient;
  const [current, installed] = await Promise.all([c.currentAppStatus(), c.listInstalled()]);
  return { app: current?.info.name ?? null, state: current?.state ?? null, sha: installed.find((a) => a.name === 'hello_app')?.extra.installed_sha };
}

const writes = (): number[] => daemons.map((d) => d.stats().writes);
const short = (sha: string): string => sha.slice(0, 7);
const last = (): Record<string, unknown> => receiver.notices[receiver.notices.length - 1]?.body ?? {};

async function pushCrash(marker: string): Promise<string> {
  return (await hub.commit(USER.name, 'space', SPACE, appFiles('hello_app', crashAfterBody(2, `hello_app ${marker} boom on purpose`), { marker }), marker)).commitOid;
}

t.test('apply brings v1 to every robot, canary first, each wave through the health gate', async (t) => {
  writeYaml(dir, 'robot.yaml', yaml('{ parallelism: 2, canary: 1, max_failures: 0, healthy_for: 4s }'));
  const r = await cli(['apply', '-f', 'robot.yaml', '--yes']);
  t.equal(r.code, 0, r.stdout + r.stderr);
  t.match(r.stdout, /Wave 1: r1\n/);
  t.match(r.stdout, /Wave 2: r2, r3\n/);
  t.match(r.stdout, new RegExp(`robots\\.r1: install hello_app ${short(shas.v1)} ok`), 'apply names the revision');
  for (let i = 0; i < 3; i++) t.same(await runs(i), { app: 'hello_app', state: 'running', sha: shas.v1 });
  t.same(receiver.notices.map((n) => n.body.event), ['started', 'succeeded']);
  t.ok(receiver.notices.every((n) => n.signed), 'every notice is signed with the secret');
});

t.test('a revision that crashes 2 s after start fails the canary (healthy_for: 4s) and rolls it back to v1', async (t) => {
  shas.v2 = await pushCrash('v2');
  const plan = await cli(['plan', '-f', 'robot.yaml']);
  t.match(plan.stdout, new RegExp(`update_app hello_app ${short(shas.v1)} → ${short(shas.v2)}`), 'plan names the revisions per robot');
  const before = writes();
  const r = await cli(['apply', '-f', 'robot.yaml', '--yes']);
  t.equal(r.code, 1, r.stdout);
  t.match(r.stdout, /robots\.r1: start hello_app FAILED .*: hello_app crashed [\d.]+ s after it started: RuntimeError: hello_app v2 boom on purpose \(exit code 1\)/,
    'the failure in the app\'s own words: its last traceback line');
  t.match(r.stdout, /robots\.r1: rolling back: stop hello_app, update hello_app [0-9a-f]{7} → [0-9a-f]{7}, start hello_app/);
  t.match(r.stdout, /\nr1 +rolled back +.*RuntimeError: hello_app v2 boom.*rolled back: hello_app [0-9a-f]{7}, hello_app running/);
  t.match(r.stdout, /\nr2 +skipped +rollout stopped/);
  t.match(r.stdout, /Rollout [\w-]+: rolled back/);
  t.same(await runs(0), { app: 'hello_app', state: 'running', sha: shas.v1 }, 'the canary runs the previous revision again');
  t.same(writes().slice(1), before.slice(1), 'r2 and r3 untouched');
  for (const i of [1, 2]) t.same(await runs(i), { app: 'hello_app', state: 'running', sha: shas.v1 });
  const outcome = last();
  t.match(outcome, {
    format_version: '1.0', event: 'rolled_back', trigger: 'apply', app: 'hello_app',
    revisions: [{ robot: 'r1', app: 'hello_app', from: shas.v1, to: shas.v2 }],
    robots: [{ name: 'r1', outcome: 'rolled_back', reason: /RuntimeError: hello_app v2 boom on purpose/ }, { name: 'r2', outcome: 'skipped' }, { name: 'r3', outcome: 'skipped' }],
  });
  t.ok(receiver.notices[receiver.notices.length - 1]?.signed, 'signed: X-Robotctl-Signature sha256=HMAC of the body');
  t.equal(receiver.notices[receiver.notices.length - 2]?.body.event, 'started');
  const list = await (await fetch(`${hub.url}/api/spaces/${SPACE}/discussions`)).json() as { discussions: { num: number; title: string }[] };
  const own = list.discussions.filter((d) => d.title === 'robotctl rollouts');
  t.equal(own.length, 1, 'one discussion robotctl opened, reused by every rollout');
  const details = await (await fetch(`${hub.url}/api/spaces/${SPACE}/discussions/${own[0]?.num}`)).json() as { events: { type: string; data?: { latest?: { raw?: string } } }[] };
  const comments = details.events.filter((e) => e.type === 'comment').map((e) => e.data?.latest?.raw ?? '');
  t.match(comments[comments.length - 1], /rolled back\*\* \(hello_app, apply\)[\s\S]*r1: rolled back — .*RuntimeError: hello_app v2 boom/);
});

t.test('rollout history shows it; the revision is held back: diff exits 2 and says why, apply leaves it', async (t) => {
  const h = await cli(['rollout', 'history', '-f', 'robot.yaml']);
  t.equal(h.code, 0, h.stderr);
  t.match(h.stdout, new RegExp(`apply +hello_app ${short(shas.v1)} → ${short(shas.v2)} +r1 \\| r2,r3 +rolled back`));
  t.match(h.stdout, /r1 \(wave 1\): rolled back: .*RuntimeError: hello_app v2 boom on purpose/);
  t.match(h.stdout, new RegExp(`Held back:\\n  hello_app ${short(shas.v2)} is held back`));
  const json = JSON.parse((await cli(['rollout', 'history', '-f', 'robot.yaml', '--json'])).stdout) as { rollouts: { outcome: string; waves: string[][] }[]; held: Record<string, { sha: string }> };
  t.same(json.rollouts.map((x) => x.outcome), ['rolled_back', 'succeeded'], 'newest first');
  t.same(json.rollouts[0]?.waves, [['r1'], ['r2', 'r3']]);
  t.equal(json.held.hello_app?.sha, shas.v2);
  const diff = await cli(['diff', '-f', 'robot.yaml']);
  t.equal(diff.code, 2, 'held back is drift');
  t.match(diff.stdout, new RegExp(`held back: hello_app ${short(shas.v2)} is held back on r1, r2, r3: rollout [\\w-]+ failed with it \\(r1: .*RuntimeError: hello_app v2 boom on purpose.*\\); \`(robotctl|node \\S+/bin/robotctl\\.js) rollout retry hello_app\` tries it again`), 'robotctl as it runs here (cli/views/command-line.ts)');
  const before = writes();
  const again = await cli(['apply', '-f', 'robot.yaml', '--yes']);
  t.equal(again.code, 0, again.stdout);
  t.match(again.stdout, /No changes to make, but revisions are held back/);
  t.same(writes(), before, 'nothing is retried');
});

t.test('rollout retry releases it; with the defaults (healthy_for 10s, on_failure rollback) the canary fails again and runs v1', async (t) => {
  const retry = await cli(['rollout', 'retry', 'hello_app', '-f', 'robot.yaml']);
  t.equal(retry.code, 0, retry.stderr);
  t.match(retry.stdout, `Released hello_app ${short(shas.v2)}`);
  t.match((await cli(['rollout', 'retry', '-f', 'robot.yaml'])).stdout, 'No revision is held back');
  writeYaml(dir, 'robot.yaml', yaml('{ canary: 1 }'));
  const before = writes();
  const r = await cli(['apply', '-f', 'robot.yaml', '--yes']);
  t.equal(r.code, 1, r.stdout);
  t.match(r.stdout, /robots\.r1: start hello_app FAILED .*RuntimeError: hello_app v2 boom on purpose/);
  t.match(r.stdout, /\nr1 +rolled back/);
  t.same(await runs(0), { app: 'hello_app', state: 'running', sha: shas.v1 }, 'the canary runs the previous revision');
  t.same(writes().slice(1), before.slice(1), 'the rest untouched');
  t.equal(last().event, 'rolled_back');
});

t.test('on_failure: stop leaves the failed canary as it is; later waves are untouched', async (t) => {
  await cli(['rollout', 'retry', '-f', 'robot.yaml']);
  writeYaml(dir, 'robot.yaml', yaml('{ parallelism: 2, canary: 1, healthy_for: 4s, on_failure: stop }'));
  const before = writes();
  const r = await cli(['apply', '-f', 'robot.yaml', '--yes']);
  t.equal(r.code, 1, r.stdout);
  t.notMatch(r.stdout, /rolling back/);
  t.match(r.stdout, /\nr1 +failed +start hello_app: hello_app crashed/);
  await until(async () => (await runs(0)).state === 'error', 20_000, 'the crashed app stays crashed');
  t.equal((await runs(0)).sha, shas.v2, 'the canary keeps the failing revision');
  t.same(writes().slice(1), before.slice(1), 'r2 and r3 untouched');
  t.equal(last().event, 'failed');
  t.match(last(), { robots: [{ name: 'r1', outcome: 'failed' }] });
});

t.test('no secret in any output', async (t) => {
  for (const o of outputs) t.notMatch(o, NOTIFY_SECRET);
  for (const n of receiver.notices) t.notMatch(n.raw, NOTIFY_SECRET);
});
