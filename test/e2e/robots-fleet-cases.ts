import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runCli, type CliResult } from '../helpers/cli.js';
import { spawnCli, type Child } from './helpers.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { inNamespace } from '../helpers/netns.js';

// Run inside a private network namespace by robots-fleet.test.ts. The
// sequence a user follows: three simulated robots on 1.9.0, `robots discover
// --yaml` pasted into a robot.yaml that declares `daemon: { version: 1.10.0 }`,
// `plan` (three daemon updates), `apply` (all three on 1.10.0, the canary
// first), `status`; then a wrong hardware_id refuses that robot only, and a
// robot declared by its hardware_id alone is found over mDNS.

if (!inNamespace()) throw new Error('robots-fleet-cases.ts runs only inside the namespace robots-fleet.test.ts makes');

const dir = t.testdir();
const env = { HOME: dir };
const file = join(dir, 'robot.yaml');
const cli = (args: string[], timeoutMs = 120_000): Promise<CliResult> => runCli(args, { env, cwd: dir, timeoutMs });

let fleet: Child;
let urls: string[] = [];

t.before(async () => {
  fleet = spawnCli(['daemon', '--sim', '--port', '0', '--robots', '3', '--daemon-version', '1.9.0', '--apps-dir', join(dir, 'apps')], { env, cwd: repoRoot });
  await fleet.waitFor(/listening on /, 3, 60_000);
  urls = [...fleet.stdout().matchAll(/^listening on (\S+)/gm)].map((m) => m[1] as string);
});
t.teardown(async () => {
  if (fleet.proc.exitCode !== null) return;
  fleet.proc.kill('SIGTERM');
  await fleet.exited;
});

const versions = async (): Promise<string[]> => Promise.all(urls.map(async (url) => {
  const c = createDaemonClient({ baseUrl: url });
  try {
    return String((await c.daemonStatus()).version);
  } finally {
    await c.close();
  }
}));

let block = '';

t.test('discover --yaml lists the three robots', async (t) => {
  const r = await cli(['robots', 'discover', '--timeout', '1s', '--yaml']);
  t.equal(r.code, 0, r.stderr);
  block = r.stdout;
  t.equal((block.match(/^ {2}reachy_mini-\d:$/gm) ?? []).length, 3, block);
  t.equal((block.match(/hardware_id: [0-9a-f]{16}$/gm) ?? []).length, 3);
});

t.test('a robot.yaml made from it with daemon: { version: 1.10.0 } plans three daemon updates', async (t) => {
  writeFileSync(file, `version: 1\ndaemon: { version: 1.10.0 }\nrollout: { canary: 1, parallelism: 2, healthy_for: 1s }\n${block}`);
  const r = await cli(['plan', '-f', file]);
  t.equal(r.code, 2, `changes: ${r.stderr}`);
  for (const name of ['reachy_mini-0', 'reachy_mini-1', 'reachy_mini-2']) {
    t.match(r.stdout, `Robot ${name}:\n  ~ update daemon 1.9.0 → 1.10.0 (robot.yaml says 1.10.0)\n`);
  }
  t.match(r.stdout, 'Plan: 0 to create, 0 to update, 0 to delete, 3 robot changes.');
  const json = JSON.parse((await cli(['plan', '-f', file, '--json'])).stdout) as { actions: { type: string; from: string; to: string }[] };
  t.same(json.actions.map((a) => [a.type, a.from, a.to]), [['update_daemon', '1.9.0', '1.10.0'], ['update_daemon', '1.9.0', '1.10.0'], ['update_daemon', '1.9.0', '1.10.0']]);
  const diff = await cli(['diff', '-f', file]);
  t.equal(diff.code, 2);
  t.match(diff.stdout, 'robots.reachy_mini-0.daemon: update daemon 1.9.0 → 1.10.0 (robot.yaml says 1.10.0)');
});

t.test('apply brings all three to 1.10.0, the canary first', async (t) => {
  const r = await cli(['apply', '-f', file, '--yes']);
  t.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  const done = [...r.stdout.matchAll(/^robots\.(\S+): update daemon 1\.9\.0 → 1\.10\.0 ok \(running 1\.10\.0\)/gm)].map((m) => m[1]);
  t.equal(done[0], 'reachy_mini-0', `the canary's update finished first: ${done.join(', ')}`);
  t.same([...done].sort(), ['reachy_mini-0', 'reachy_mini-1', 'reachy_mini-2']);
  t.match(r.stdout, /Apply complete: 3 action\(s\) done, 0 failed, 0 not done\./);
  t.same(await versions(), ['1.10.0', '1.10.0', '1.10.0']);
  const again = await cli(['plan', '-f', file]);
  t.equal(again.code, 0, again.stdout);
  const status = await cli(['status', '-f', file]);
  t.equal(status.code, 0, status.stderr);
  t.match(status.stdout, /reachy_mini-0 +http:\/\/127\.0\.0\.1:\d+ +yes +running 1\.10\.0 /);
  t.match(status.stdout, /reachy_mini-1 +reachy_mini-1 +[0-9a-f]{16} /);
  const doc = JSON.parse((await cli(['status', '-f', file, '--json'])).stdout) as { robots: { daemon_version: string; declared_daemon_version: string; hardware_id: string; robot_name: string }[] };
  t.same(doc.robots.map((x) => [x.daemon_version, x.declared_daemon_version, x.robot_name]),
    [['1.10.0', '1.10.0', 'reachy_mini-0'], ['1.10.0', '1.10.0', 'reachy_mini-1'], ['1.10.0', '1.10.0', 'reachy_mini-2']]);
});

t.test('a wrong hardware_id refuses that robot; the others go on', async (t) => {
  const wrong = block.replace(/(reachy_mini-1:\n {4}url: \S+\n {4}hardware_id: )[0-9a-f]{16}/, '$1ffff000000000000');
  t.not(wrong, block);
  const named = wrong.replace(/^( {2}(reachy_mini-\d):\n {4}url: \S+\n {4}hardware_id: \S+\n)/gm, '$1    robot_name: $2-renamed\n');
  writeFileSync(file, `version: 1\ndaemon: { version: 1.10.0 }\nrollout: { canary: 1, parallelism: 2, healthy_for: 1s }\n${named}`);
  const plan = await cli(['plan', '-f', file]);
  t.equal(plan.code, 1, 'a refused robot: the plan is incomplete');
  t.match(plan.stdout, /Refused, nothing planned for them \(not the robot robot\.yaml names\):\n {2}reachy_mini-1: robot\.yaml says hardware_id ffff000000000000; the robot at http:\/\/127\.0\.0\.1:\d+ answers [0-9a-f]{16}\n/);
  t.match(plan.stderr, /^Error: robot reachy_mini-1 is refused: robot\.yaml says hardware_id ffff000000000000/m);
  const apply = await cli(['apply', '-f', file, '--yes']);
  t.equal(apply.code, 1);
  t.match(apply.stdout, /reachy_mini-1 +refused +robot\.yaml says hardware_id ffff000000000000; the robot at http:\/\/127\.0\.0\.1:\d+ answers [0-9a-f]{16}/);
  t.match(apply.stdout, /Apply incomplete: 2 action\(s\) done, 0 failed, 0 not done; refused \(not the robot robot\.yaml names\): reachy_mini-1\. Check their hardware_id in robot\.yaml\./);
  const names = await Promise.all(urls.map(async (url) => {
    const c = createDaemonClient({ baseUrl: url });
    try { return await c.robotName(); } finally { await c.close(); }
  }));
  t.same(names, ['reachy_mini-0-renamed', 'reachy_mini-1', 'reachy_mini-2-renamed'], 'the refused robot was not renamed');
});

t.test('a robot declared by its hardware_id alone is found over mDNS: plan, apply and status show where', async (t) => {
  const idOf = (name: string): string => new RegExp(`${name}:\\n {4}url: \\S+\\n {4}hardware_id: ([0-9a-f]{16})`).exec(block)?.[1] ?? '';
  const id2 = idOf('reachy_mini-2');
  t.match(id2, /^[0-9a-f]{16}$/);
  writeFileSync(file, `version: 1\nrobots:\n  far:\n    hardware_id: ${id2}\n    robot_name: far away\n`);
  const plan = await cli(['plan', '-f', file]);
  t.equal(plan.code, 2, plan.stderr);
  t.match(plan.stdout, `Robot far (found over mDNS at ${urls[2]}):\n  ~ rename robot 'reachy_mini-2-renamed' → 'far away' (renamed in robot.yaml)\n`);
  const apply = await cli(['apply', '-f', file, '--yes']);
  t.equal(apply.code, 0, `${apply.stdout}${apply.stderr}`);
  const c = createDaemonClient({ baseUrl: urls[2] as string });
  t.teardown(() => c.close());
  t.equal(await c.robotName(), 'far away');
  const status = await cli(['status', '-f', file]);
  t.match(status.stdout, `far   ${urls[2]} (mDNS)`);
  const doc = JSON.parse((await cli(['status', '-f', file, '--json'])).stdout) as { robots: { url: string; located: boolean; hardware_id: string }[] };
  t.match(doc.robots[0], { url: urls[2], located: true, hardware_id: id2 });
  writeFileSync(file, `version: 1\nrobots:\n  nowhere: { hardware_id: "0000000000000000" }\n`);
  const lost = await cli(['plan', '-f', file]);
  t.equal(lost.code, 1);
  t.match(lost.stdout, 'Robots not reachable, nothing planned for them: nowhere');
  t.match(lost.stderr, 'robot nowhere could not be reached');
});
