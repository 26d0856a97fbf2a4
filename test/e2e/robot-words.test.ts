import t from 'tap';
import { join } from 'node:path';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { startDaemon, type RunningDaemon } from '../../runtime/daemon/server.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { QUIET_BODY, appFiles, appMain } from '../helpers/python-apps.js';
import { USER, env, writeYaml } from './helpers.js';
import { fileScratch } from '../helpers/file-scratch.js';

// Issue 30, done when: through the built CLI, against the embedded hub and a
// simulator that answers as Pollen's daemon (spec §9), a robot.yaml whose
// app key is not its Space's entry point converges and a second diff exits
// 0; a failing install and a crash print their reasons in the robot's words,
// with `reason` and `log_tail` in --json and the crash in status --json.

let hub: RunningHub;
let daemon: RunningDaemon;
const scratch = fileScratch('e2e-robot-words');
const dir = scratch.dir;

const CRASH = `
def main():
    raise RuntimeError("crash_rt boom on purpose")
`;

t.before(async () => {
  hub = await startHub({ users: [USER] });
  daemon = await startDaemon({ appsDir: join(dir, 'robot'), sim: true, port: 0, hubEndpoint: hub.url, hubToken: USER.token, stopTimeoutMs: 5000 });
  const push = async (name: string, files: Record<string, string>): Promise<void> => {
    await hub.createRepo(USER.name, 'space', `${USER.name}/${name}`, { sdk: 'static' });
    await hub.commit(USER.name, 'space', `${USER.name}/${name}`, files, 'app');
  };
  await push('hello_rt', appFiles('hello_rt', QUIET_BODY));
  const bad = appFiles('bad_rt', QUIET_BODY);
  bad['pyproject.toml'] = (bad['pyproject.toml'] ?? '').replace('>=3.10', '>=3.99').replace('name = "bad_rt"', 'name = "bad-rt"');
  await push('bad_rt', bad);
  await push('crash_rt', { ...appFiles('crash_rt', ''), 'crash_rt/main.py': appMain(CRASH) });
});
t.teardown(async () => {
  await daemon.close();
  await hub.close();
  scratch.remove();
});

function yaml(apps: string[], active: string): string {
  const spaces: Record<string, string> = { greeter: 'hello_rt', bad: 'bad_rt', crasher: 'crash_rt' };
  return `version: 1
apps:
${apps.map((a) => `  ${a}: { source: ${hub.url}/spaces/${USER.name}/${spaces[a]} }`).join('\n')}
active: ${active}
rollout: { healthy_for: 2s, on_failure: stop }
robots:
  desk: { url: ${daemon.url} }
`;
}

const cli = (args: string[]): Promise<CliResult> => runCli(args, { env: env(hub.url), cwd: dir, timeoutMs: 180_000 });

t.test('a key that is not the entry point converges, and the second diff exits 0', async (t) => {
  writeYaml(dir, 'robot.yaml', yaml(['greeter'], 'greeter'));
  const applied = await cli(['apply', '-f', 'robot.yaml', '--yes']);
  t.equal(applied.code, 0, applied.stdout + applied.stderr);
  t.match(applied.stdout, /install greeter( [0-9a-f]{7})? \(as hello_rt, its entry point\) from/);
  const diff = await cli(['diff', '-f', 'robot.yaml']);
  t.equal(diff.code, 0, diff.stdout + diff.stderr);
  const status = JSON.parse((await cli(['status', '-f', 'robot.yaml', '--json'])).stdout) as { robots: { installed: string[]; running: string; active: string; converged: boolean }[] };
  t.match(status.robots[0], { installed: ['hello_rt'], running: 'hello_rt', active: 'hello_rt', converged: true });
});

t.test('a failing install prints pip\'s reason; --json has reason and log_tail', async (t) => {
  writeYaml(dir, 'robot.yaml', yaml(['greeter', 'bad'], 'greeter'));
  const human = await cli(['apply', '-f', 'robot.yaml', '--yes']);
  t.equal(human.code, 1);
  t.match(human.stdout, /ERROR: Package 'bad-rt' requires a different Python: 3\.\d+\.\d+ not in '>=3\.99'/);
  t.match(human.stdout, /Why, in the robot's words:\n {2}robots\.desk\.apps\.bad: install\n {4}ERROR: Package 'bad-rt'/);
  t.notMatch(human.stdout, /\x1b\[/, 'no colour escapes from pip');
  // A new revision (the failed one is held back after a failed rollout), which fails the same way.
  await hub.commit(USER.name, 'space', `${USER.name}/bad_rt`, { 'bad_rt/__init__.py': 'MARKER = "v2"\n' }, 'v2');
  const json = await cli(['apply', '-f', 'robot.yaml', '--yes', '--json']);
  const doc = JSON.parse(json.stdout) as { robots: { failed: { address: string; reason: string[]; log_tail: string[] }[] }[] };
  const failed = doc.robots[0]?.failed[0];
  t.equal(failed?.address, 'robots.desk.apps.bad');
  t.match(failed?.reason, [/^ERROR: Package 'bad-rt' requires a different Python/]);
  t.equal(failed?.log_tail[failed.log_tail.length - 1], "Job 'install' failed with error: Failed to install app 'bad_rt'");
  t.ok((failed?.log_tail.length ?? 0) > 1 && (failed?.log_tail.length ?? 99) <= 20);
  // status says it too: the revision is held back, with pip's line.
  const status = await cli(['status', '-f', 'robot.yaml']);
  t.match(status.stdout, /^ {2}desk: app bad: revision [0-9a-f]{7} held back \(rollout \S+ failed with it: desk: install failed: ERROR: Package 'bad-rt' requires a different Python/m);
});

t.test('a crash prints the exception; status --json has it and the traceback', async (t) => {
  writeYaml(dir, 'robot.yaml', yaml(['greeter', 'crasher'], 'crasher'));
  const applied = await cli(['apply', '-f', 'robot.yaml', '--yes']);
  t.equal(applied.code, 1);
  t.match(applied.stdout, /start crasher FAILED .*: crash_rt crashed [\d.]+ s after it started: RuntimeError: crash_rt boom on purpose \(exit code 1\)/);
  t.notMatch(applied.stdout, /after it started: Process exited with code/);
  const status = await cli(['status', '-f', 'robot.yaml', '--json']);
  const robot = (JSON.parse(status.stdout) as { robots: { app_state: string; app_error: string; app_traceback: string[] }[] }).robots[0];
  t.equal(robot?.app_state, 'error');
  t.equal(robot?.app_error, 'RuntimeError: crash_rt boom on purpose');
  t.equal(robot?.app_traceback[robot.app_traceback.length - 1], 'RuntimeError: crash_rt boom on purpose');
  t.ok(robot?.app_traceback.includes('Traceback (most recent call last):'));
  const human = await cli(['status', '-f', 'robot.yaml']);
  t.match(human.stdout, /desk: crash_rt crashed: RuntimeError: crash_rt boom on purpose/);
});
