import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { newState } from '../../state/file.js';
import { bin, pathWithoutRobotctl, repoRoot, spawnLongRunning } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';
import { post } from '../receiver/helpers.js';
import { fixtures } from '../receiver/fixtures.js';

// Issue 34: every command robotctl prints works as printed in a fresh
// terminal after `npm ci` alone. Each case runs the built CLI (`npm run
// build` first) with exactly the environment a new terminal has (no
// inherited variable, a PATH without any robotctl), takes the command line
// it printed (the login hint, plan --out's apply line, the receiver's agent
// line, the state unlock and rollout retry hints, usage lines), and runs that
// line with `bash -c` from the same folder. Then once more with a `robotctl`
// on the PATH that is this clone's (what `npm link` makes): the lines say
// `robotctl`, and work too.

const USER = { name: 'alice', token: 'hf_alice_printed_commands_77' };
const HOOK_YAML = 'version: 1\nwebhooks:\n  hook:\n    url: https://example.org/printed\n    watched: [user:alice]\n';
const FRESH_PATH = pathWithoutRobotctl();
/** What the lines say for robotctl after `npm ci` alone, from a folder other than the clone's root. */
const FROM_ELSEWHERE = `node ${bin}`;

let hub: RunningHub;
t.before(async () => { hub = await startHub({ users: [USER] }); });
t.teardown(async () => { await hub.close(); });

interface Ran { code: number | null; stdout: string; stderr: string }

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, input = ''): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {}); // a command that exits without reading its input
    child.stdin.end(input);
  });
}

/** The built CLI with exactly `env`. */
const robotctl = (args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> => run(process.execPath, [bin, ...args], cwd, env);
/** A line typed in a new terminal: a fresh non-interactive bash, exactly `env`. */
const shell = (line: string, cwd: string, env: NodeJS.ProcessEnv, input = ''): Promise<Ran> => run('bash', ['-c', line], cwd, env, input);

/** A new terminal's environment: the PATH and the hub settings, a home of its own in `dir` (no saved token). */
function terminal(dir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = join(dir, '.home');
  mkdirSync(home, { recursive: true });
  return { PATH: FRESH_PATH, NO_COLOR: '1', HOME: home, HF_HOME: join(home, 'hf'), HF_ENDPOINT: hub.url, ...extra };
}

/** The command line between backquotes after `before` in `text`. */
function printed(t: Test, text: string, before: string): string {
  const at = text.indexOf(before);
  const line = at < 0 ? null : /^`([^`]+)`/.exec(text.slice(at + before.length))?.[1] ?? null;
  if (line === null) t.fail(`no command after ${JSON.stringify(before)} in: ${text}`);
  return line ?? 'false';
}

t.test('the login hint: printed for this terminal, and it logs in', async (t) => {
  const dir = t.testdir();
  const env = terminal(dir);
  const r = await robotctl(['webhooks', 'ls'], dir, env);
  t.equal(r.code, 1);
  t.equal(r.stderr, `Error: Not logged in: run \`${FROM_ELSEWHERE} auth login\`, set HF_TOKEN, or pass --token-file.\n`);
  const login = await shell(printed(t, r.stderr, 'run '), dir, env, `${USER.token}\n`);
  t.equal(login.code, 0, login.stderr);
  t.match(login.stdout, /^Logged in as alice\n/);
  const again = await robotctl(['webhooks', 'ls'], dir, env);
  t.equal(again.code, 0, 'the token it saved is the one the next command reads');
  t.equal(again.stdout, 'No results found.\n');
});

t.test('plan --out: the apply line it prints applies that plan', async (t) => {
  const dir = t.testdir({ 'robot.yaml': HOOK_YAML });
  const env = terminal(dir, { HF_TOKEN: USER.token });
  const p = await robotctl(['plan', '--out', 'plan.json'], dir, env);
  t.equal(p.code, 2, p.stderr);
  t.match(p.stdout, `\nSaved the plan to plan.json: apply it with \`${FROM_ELSEWHERE} apply -f robot.yaml --plan plan.json\`.\n`);
  const applied = await shell(printed(t, p.stdout, 'apply it with '), dir, env);
  t.equal(applied.code, 0, applied.stderr);
  t.match(applied.stdout, 'Apply complete');
  const after = await robotctl(['plan'], dir, env);
  t.equal(after.code, 0, 'nothing left to do');
});

t.test('the receiver CLI: the agent line of a delivery runs the agent', async (t) => {
  const dir = t.testdir({ 'robot.yaml': 'version: 1\nreceiver:\n  port: 0\n  endpoints:\n    sync: { action: reconcile }\n' });
  const env = terminal(dir);
  const receiver = spawnLongRunning(t, ['receiver', '-f', 'robot.yaml', '--port', '0'], env, { cwd: dir });
  await receiver.waitFor('Webhooks are correctly set up', 30_000);
  const url = /^listening on (\S+)\n/.exec(receiver.stdout())?.[1];
  t.ok(url, receiver.output());
  t.same((await post(`${url}/webhooks/sync`, fixtures.contentUpdate)).body, { action: 'reconcile', performed: false });
  await until(() => receiver.stdout().includes('performs it'), 20_000, () => receiver.output());
  const file = join(dir, 'robot.yaml'); // the receiver names the file by its absolute path
  const line = printed(t, receiver.stdout(), `would reconcile ${file}; `);
  t.equal(line, `${FROM_ELSEWHERE} agent -f ${file}`);
  const page = await (await fetch(`${url}/`)).text();
  t.match(page, `declare the webhook in robot.yaml and run <code>${FROM_ELSEWHERE} apply</code>`, 'its page at / too');
  receiver.child.kill('SIGINT');
  t.equal(await receiver.exited, 0);

  // The agent runs until Ctrl-C: its own process group, as a terminal's foreground job.
  const agent = spawn('bash', ['-c', line], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  agent.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  agent.stderr.on('data', (d: Buffer) => { out += d.toString(); });
  const exited = new Promise<number | null>((resolve) => agent.on('exit', (code) => resolve(code)));
  t.teardown(() => { if (agent.exitCode === null) process.kill(-(agent.pid as number), 'SIGKILL'); });
  await until(() => out.includes('converged') || agent.exitCode !== null, 30_000, () => out);
  t.match(out, /agent: heal mode/);
  process.kill(-(agent.pid as number), 'SIGINT');
  t.equal(await exited, 0, out);
  t.match(out, 'agent stopped');
});

t.test('a state lock that cannot be read: the unlock line it prints breaks it', async (t) => {
  const dir = t.testdir({ 'robot.yaml': HOOK_YAML, '.robotctl': { 'state.json.lock': 'not a lock' } });
  const env = terminal(dir, { HF_TOKEN: USER.token });
  const r = await robotctl(['apply', '--yes', '--lock-timeout', '0s'], dir, env);
  t.equal(r.code, 1);
  t.match(r.stderr, `if no robotctl is running, run \`${FROM_ELSEWHERE} state unlock --force\`\n`);
  const unlock = await shell(printed(t, r.stderr, 'run '), dir, env);
  t.equal(unlock.code, 0, unlock.stderr);
  t.equal((await robotctl(['apply', '--yes'], dir, env)).code, 0, 'the lock is gone: apply runs');
});

t.test('a revision held back: the retry line of rollout history releases it', async (t) => {
  const sha = 'a0575e3'.padEnd(40, '0');
  const held = { hello_app: { sha, reason: 'desk: RuntimeError: boom', rollout: 'r-1', at: new Date(0).toISOString() } };
  const dir = t.testdir({ 'robot.yaml': 'version: 1\n', '.robotctl': { 'state.json': JSON.stringify({ ...newState(), rollouts: { history: [], held } }) } });
  const env = terminal(dir);
  const history = await robotctl(['rollout', 'history'], dir, env);
  t.equal(history.code, 0, history.stderr);
  t.match(history.stdout, `hello_app a0575e3 is held back on the fleet: rollout r-1 failed with it (desk: RuntimeError: boom); \`${FROM_ELSEWHERE} rollout retry hello_app\` tries it again`);
  const retry = await shell(printed(t, history.stdout, '(desk: RuntimeError: boom); '), dir, env);
  t.equal(retry.code, 0, retry.stderr);
  t.equal(retry.stdout, 'Released hello_app a0575e3: the next apply or agent run installs it again.\n');
});

t.test('the simulated daemon: its login refusal names the command as it runs where it was started', async (t) => {
  const dir = t.testdir();
  const daemon = spawnLongRunning(t, ['daemon', '--sim', '--port', '0', '--no-mdns', '--apps-dir', join(dir, 'apps')], terminal(dir), { cwd: repoRoot });
  await daemon.waitFor('listening on', 30_000);
  const url = /^listening on (\S+)\n/.exec(daemon.stdout())?.[1] ?? '';
  const refused = await fetch(`${url}/api/hf-auth/save-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"token":"x"}' });
  t.equal(refused.status, 501);
  t.match(await refused.text(), 'reads the hub token from HF_TOKEN or `node bin/robotctl.js auth login`; it does not take one over HTTP');
  daemon.child.kill('SIGTERM');
  t.equal(await daemon.exited, 0);
});

t.test('usage hints: from the clone\'s root, and from a folder inside it', async (t) => {
  const env = terminal(t.testdir(), { HF_TOKEN: USER.token });
  const unknown = await robotctl(['nope'], repoRoot, env);
  t.equal(unknown.code, 64);
  t.equal(unknown.stderr, "Error: unknown command 'nope'. Run `node bin/robotctl.js --help` for the list.\n", 'relative from the root');
  const help = await shell(printed(t, unknown.stderr, 'Run '), repoRoot, env);
  t.equal(help.code, 0, help.stderr);
  t.match(help.stdout, /^Usage: node bin\/robotctl\.js <command> \[options\]\n/);
  t.match(help.stdout, '\nRun `node bin/robotctl.js <command> --help` for the options of a command.\n');

  const examples = join(repoRoot, 'examples');
  const create = await robotctl(['webhooks', 'create', '--url', 'https://example.org/x'], examples, env);
  t.equal(create.code, 64);
  t.match(create.stderr, `\nUsage: ${FROM_ELSEWHERE} webhooks create [options]\nTry '${FROM_ELSEWHERE} webhooks create --help' for help.\n`);
  const line = /Try '([^']+)' for help/.exec(create.stderr)?.[1] ?? 'false';
  const sub = await shell(line, examples, env);
  t.equal(sub.code, 0, sub.stderr);
  t.match(sub.stdout, new RegExp(`^Usage: node \\S+/bin/robotctl\\.js webhooks create \\[options\\]\\n`), 'the help it asks for, with its own usage line');
});

t.test('with this clone\'s robotctl on the PATH (npm link), the lines say robotctl, and work', async (t) => {
  const dir = t.testdir();
  mkdirSync(join(dir, 'linked'));
  symlinkSync(bin, join(dir, 'linked', 'robotctl'));
  const env = terminal(dir, { PATH: `${join(dir, 'linked')}:${FRESH_PATH}` });
  const r = await robotctl(['webhooks', 'ls'], dir, env);
  t.equal(r.stderr, 'Error: Not logged in: run `robotctl auth login`, set HF_TOKEN, or pass --token-file.\n');
  const login = await shell(printed(t, r.stderr, 'run '), dir, env, `${USER.token}\n`);
  t.equal(login.code, 0, login.stderr);
  t.match(login.stdout, /^Logged in as alice\n/);
  const unknown = await robotctl(['nope'], repoRoot, env);
  t.equal(unknown.stderr, "Error: unknown command 'nope'. Run `robotctl --help` for the list.\n");
  const help = await shell('robotctl plan --help', dir, env);
  t.match(help.stdout, /^Usage: robotctl plan \[options\]\n/);
  t.match(help.stdout, '--out saves the plan (JSON, format_version, no secret) for `robotctl apply --plan`.');
});
