import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { startDaemon, type RunningDaemon } from '../../runtime/daemon/server.js';
import { runCli, repoRoot, type CliResult } from '../helpers/cli.js';
import { QUIET_BODY, makeApp } from '../helpers/python-apps.js';
import { freePort as closedPort } from '../helpers/ports.js';
import { SECRET, USER, env, writeYaml } from './helpers.js';
import { fileScratch } from '../helpers/file-scratch.js';

// robotctl apply/diff/status end to end: the embedded hub and three
// simulated daemons started here, driven only through the built CLI with
// HF_ENDPOINT + HF_TOKEN. Servers start once; the subtests run in order.

let hub: RunningHub;
const daemons: RunningDaemon[] = [];
const outputs: string[] = [];
let dir: string;
let quiet: string;
const crash = join(repoRoot, 'examples', 'apps', 'crash_app');

const scratch = fileScratch('e2e-fleet');
t.before(async () => {
  dir = scratch.dir;
  hub = await startHub({ users: [USER] });
  for (const name of ['r1', 'r2', 'r3']) {
    daemons.push(await startDaemon({ appsDir: join(dir, `robot-${name}`), sim: true, port: 0, hubEndpoint: hub.url, stopTimeoutMs: 5000 }));
  }
  quiet = makeApp(dir, 'quiet_app', QUIET_BODY);
});
t.teardown(async () => {
  for (const d of daemons) await d.close();
  await hub.close();
  scratch.remove();
});

function yaml(opts: { active?: string | null; extraRobot?: string; r1?: string; rollout?: string } = {}): string {
  const robots = daemons.map((d, i) => `  r${i + 1}: { url: ${d.url}${i === 0 && opts.r1 ? `, ${opts.r1}` : ''} }`);
  if (opts.extraRobot) robots.unshift(opts.extraRobot);
  return `version: 1
webhooks:
  redeploy-apps:
    url: http://127.0.0.1:7860/webhooks/redeploy
    watched: [space:alice/quiet_app]
    domains: [repo]
    secret: \${WEBHOOK_SECRET}
apps:
  quiet_app: { path: ${quiet} }
  crash_app: { path: ${crash} }
active: ${opts.active === undefined ? 'quiet_app' : opts.active ?? 'null'}
robots:
${robots.join('\n')}
rollout: ${opts.rollout ?? '{ parallelism: 3, healthy_for: 1.5s }'}
`;
}

async function cli(args: string[]): Promise<CliResult> {
  const r = await runCli(args, { env: env(hub.url), cwd: dir, timeoutMs: 120_000 });
  outputs.push(r.stdout, r.stderr);
  return r;
}

const writes = () => daemons.map((d) => d.stats().writes);

t.test('apply from nothing converges the hub and three robots', async (t) => {
  writeYaml(dir, 'robot.yaml', yaml().replace(/\n {2}crash_app:.*\n/, '\n'));
  const r = await cli(['apply', '-f', 'robot.yaml', '--yes']);
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, /webhooks\.redeploy-apps: created \(id \w+\)/);
  for (const n of ['r1', 'r2', 'r3']) {
    t.match(r.stdout, new RegExp(`robots\\.${n}: install quiet_app ok`));
    t.match(r.stdout, new RegExp(`robots\\.${n}: start quiet_app ok`));
    t.match(r.stdout, new RegExp(`\\n${n} +converged`));
  }
  t.match(r.stdout, /Apply complete: 7 action\(s\) done, 0 failed, 0 not done/);
  const status = JSON.parse((await cli(['status', '-f', 'robot.yaml', '--json'])).stdout) as { format_version: string; robots: { running: string; converged: boolean }[]; hub: { webhooks: { state: string }[] } };
  t.equal(status.format_version, '2.0');
  t.same(status.robots.map((x) => [x.running, x.converged]), [['quiet_app', true], ['quiet_app', true], ['quiet_app', true]]);
  t.same(status.hub.webhooks.map((w) => w.state), ['converged']);
});

t.test('a second apply makes zero writes (counted at the servers) and diff says no drift', async (t) => {
  hub.resetStats();
  const before = writes();
  const r = await cli(['apply', '-f', 'robot.yaml', '--yes']);
  t.equal(r.code, 0);
  t.match(r.stdout, /No changes/);
  t.equal(hub.stats().writes, 0);
  t.equal(hub.stats().byRoute['GET /api/settings/webhooks'], 1, 'one list call');
  t.same(writes(), before, 'no write to any robot');
  t.equal((await cli(['diff', '-f', 'robot.yaml'])).code, 0);
});

t.test('an unreachable robot is reported and does not stop the others', async (t) => {
  const port = await closedPort();
  writeYaml(dir, 'down.yaml', yaml({ active: null, extraRobot: `  r0: { url: http://127.0.0.1:${port} }`, rollout: '{ parallelism: 1, healthy_for: 1.5s }' }).replace(/\n {2}crash_app:.*\n/, '\n'));
  const r = await cli(['apply', '-f', 'down.yaml', '--yes']);
  t.equal(r.code, 1, 'not converged');
  t.match(r.stdout, /\nr0 +unreachable +robot daemon at http:\/\/127\.0\.0\.1:\d+ is unreachable/);
  for (const n of ['r1', 'r2', 'r3']) t.match(r.stdout, new RegExp(`robots\\.${n}: stop quiet_app ok`));
  t.match(r.stdout, '\nApply incomplete: 3 action(s) done, 0 failed, 0 not done; not reached: r0. Run apply again once they can be reached.\n');
  const diff = await cli(['diff', '-f', 'down.yaml']);
  t.equal(diff.code, 1, 'an unreachable robot is an error for diff, never drift');
  const back = await cli(['apply', '-f', 'robot.yaml', '--yes']);
  t.equal(back.code, 0);
  t.match(back.stdout, /robots\.r3: start quiet_app ok/);
});

t.test('the hub unreachable: the robots converge, the summary says the apply is incomplete', async (t) => {
  const port = await closedPort();
  writeYaml(dir, 'hub-down.yaml', yaml({ active: null }).replace(/\n {2}crash_app:.*\n/, '\n'));
  const r = await runCli(['apply', '-f', 'hub-down.yaml', '--yes'], { env: env(`http://127.0.0.1:${port}`), cwd: dir, timeoutMs: 120_000 });
  outputs.push(r.stdout, r.stderr);
  t.equal(r.code, 1, 'not converged');
  for (const n of ['r1', 'r2', 'r3']) t.match(r.stdout, new RegExp(`robots\\.${n}: stop quiet_app ok`));
  t.match(r.stdout, /\nhub \(webhooks\) +unreachable +/);
  t.match(r.stdout, '\nApply incomplete: 3 action(s) done, 0 failed, 0 not done; not reached: hub. Run apply again once they can be reached.\n');
  t.notMatch(r.stdout, 'Apply complete');
  const back = await cli(['apply', '-f', 'robot.yaml', '--yes']);
  t.equal(back.code, 0, back.stdout);
});

t.test('a failed canary stops the rollout: the others are skipped', async (t) => {
  // crash_app crashes 0.3 s into its run(); the daemon calls it running once
  // its process exists, and on a loaded machine Python's imports alone can
  // outlast a short window, so the start would count as done.
  writeYaml(dir, 'canary.yaml', yaml({ active: null, r1: 'apps: [quiet_app, crash_app], active: crash_app', rollout: '{ parallelism: 3, canary: 1, max_failures: 0, healthy_for: 20s }' }));
  const before = writes();
  const r = await cli(['apply', '-f', 'canary.yaml', '--yes']);
  t.equal(r.code, 1);
  t.match(r.stdout, /robots\.r1: start crash_app FAILED .*crashed/);
  t.match(r.stdout, /Rollout stopped: 1 robot\(s\) failed, rollout\.max_failures allows 0/);
  t.match(r.stdout, /\nr2 +skipped +rollout stopped/);
  t.match(r.stdout, /\nr3 +skipped +rollout stopped/);
  t.same(writes().slice(1), before.slice(1), 'r2 and r3 untouched');
  t.match(r.stdout, /robots\.r2\.apps\.quiet_app: stop/, 'what was not done is listed');
});

t.test('no secret in any output or in the state file', async (t) => {
  const all = outputs.join('\n');
  t.notOk(all.includes(SECRET));
  t.notOk(all.includes(USER.token));
  t.notOk(readFileSync(join(dir, '.robotctl', 'state.json'), 'utf8').includes(SECRET));
});
