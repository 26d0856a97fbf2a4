import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { bin, pathWithoutRobotctl, runCli } from '../helpers/cli.js';
import { freePort as closedPort } from '../helpers/ports.js';

// The CLI's messages for a newcomer's usual mistakes (issue 15 item 8, issue
// 12.7), each asserted to the letter, through the built binary against a real
// embedded hub: no robot.yaml here, HF_ENDPOINT without a scheme, a token the
// hub refuses, a hub that cannot be reached, --token in argv, usage errors.

const USER = { name: 'alice', token: 'hf_alice_messages_token_77' };
let hub: RunningHub;
t.before(async () => { hub = await startHub({ users: [USER] }); });
t.teardown(async () => { await hub.close(); });

const HOOK_YAML = 'version: 1\nwebhooks:\n  hook:\n    url: https://example.org/messages\n    watched: [user:alice]\n';
// A fresh terminal after `npm ci` alone: no robotctl on the PATH, so the
// commands the messages suggest run this clone's bin (absolute from a folder
// outside the clone's root: tap's test folders).
const base = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ HF_ENDPOINT: hub.url, HF_TOKEN: USER.token, HF_HOME: '/nonexistent-robotctl-messages', PATH: pathWithoutRobotctl(), ...extra });
const RUN = `node ${bin}`;

t.test('plan with no robot.yaml in the folder suggests -f', async (t) => {
  const dir = t.testdir();
  const r = await runCli(['plan'], { env: base(), cwd: dir });
  t.equal(r.code, 1);
  t.equal(r.stderr, `Error: there is no robot.yaml in ${dir}: name the file with -f, for example \`${RUN} plan -f examples/fleet.yaml\`\n`);
  const d = await runCli(['diff'], { env: base(), cwd: dir });
  t.match(d.stderr, `\`${RUN} diff -f examples/fleet.yaml\``, 'the hint names the command that was run');
  const named = await runCli(['plan', '-f', 'fleet.yaml'], { env: base(), cwd: dir });
  t.equal(named.stderr, `Error: fleet.yaml does not exist (looked in ${dir}): check the path given to -f\n`);
});

t.test('HF_ENDPOINT without a scheme names the setting and the expected form', async (t) => {
  const dir = t.testdir({ 'robot.yaml': HOOK_YAML });
  const expected = "Error: HF_ENDPOINT is not a URL: '127.0.0.1:44277'; expected the form http://HOST:PORT or https://huggingface.co (with the scheme)\n";
  for (const args of [['webhooks', 'ls'], ['auth', 'whoami']]) {
    const r = await runCli(args, { env: base({ HF_ENDPOINT: '127.0.0.1:44277' }), cwd: dir });
    t.equal(r.code, 1, args.join(' '));
    t.equal(r.stderr, expected, args.join(' '));
  }
  // With a robot.yaml, the file's loader reports it among the file's problems.
  const plan = await runCli(['plan'], { env: base({ HF_ENDPOINT: '127.0.0.1:44277' }), cwd: dir });
  t.equal(plan.code, 1);
  t.equal(plan.stderr, 'robot.yaml:1:1: environment variable HF_ENDPOINT must be an http(s) URL like https://huggingface.co\nError: robot.yaml is not valid (1 problem); fix it and run again.\n');
});

t.test('a token the hub refuses is said so, with how to log in, never "not reachable"', async (t) => {
  const dir = t.testdir({ 'robot.yaml': HOOK_YAML });
  const r = await runCli(['plan'], { env: base({ HF_TOKEN: 'hf_refused_by_the_hub' }), cwd: dir });
  t.equal(r.code, 1);
  const why = `the hub refused the token (401 Unauthorized (GET ${hub.url}/api/settings/webhooks): Invalid credentials in Authorization header); log in with \`${RUN} auth login\`, set HF_TOKEN, or pass --token-file`;
  t.match(r.stdout, `Hub not observed, no webhook changes planned: ${why}\n`);
  t.equal(r.stderr, `Error: the hub could not be observed (${why}): the result is incomplete\n`);
  t.notMatch(r.stdout + r.stderr, /not reachable/i);
  t.notMatch(r.stdout + r.stderr, 'hf_refused_by_the_hub');
  const ls = await runCli(['webhooks', 'ls'], { env: base({ HF_TOKEN: 'hf_refused_by_the_hub' }), cwd: dir });
  t.equal(ls.code, 1);
  t.match(ls.stderr, `\nThe hub refused the token: log in with \`${RUN} auth login\`, set HF_TOKEN, or pass --token-file.\n`);
});

t.test('apply with the hub unreachable does not claim completion', async (t) => {
  const dir = t.testdir({ 'robot.yaml': HOOK_YAML });
  const port = await closedPort();
  const r = await runCli(['apply', '--yes'], { env: base({ HF_ENDPOINT: `http://127.0.0.1:${port}` }), cwd: dir, timeoutMs: 120_000 });
  t.equal(r.code, 1);
  t.match(r.stdout, /\nhub \(webhooks\) +unreachable +/);
  t.match(r.stdout, '\nApply incomplete: 0 action(s) done, 0 failed, 0 not done; not reached: hub. Run apply again once they can be reached.\n');
  t.notMatch(r.stdout, 'Apply complete');
});

t.test('--token works but warns; --token-file reads the file; not both', async (t) => {
  const dir = t.testdir({ token: `${USER.token}\n`, empty: '\n' });
  const env = base({ HF_TOKEN: '' });
  const flag = await runCli(['webhooks', 'ls', '--token', USER.token], { env, cwd: dir });
  t.equal(flag.code, 0);
  t.equal(flag.stderr, 'Warning: --token is visible to other users in the process list (ps); use --token-file PATH or HF_TOKEN instead.\n');
  const file = await runCli(['webhooks', 'ls', '--token-file', 'token'], { env, cwd: dir });
  t.equal(file.code, 0);
  t.equal(file.stderr, '');
  t.equal(file.stdout, 'No results found.\n');
  const who = await runCli(['auth', 'whoami', '--token-file', join(dir, 'token')], { env, cwd: dir });
  t.equal(who.stdout, 'alice\n');
  const empty = await runCli(['webhooks', 'ls', '--token-file', 'empty'], { env, cwd: dir });
  t.equal(empty.stderr, 'Error: --token-file empty is empty: put the token on its first line\n');
  const missing = await runCli(['webhooks', 'ls', '--token-file', 'nope'], { env, cwd: dir });
  t.match(missing.stderr, /^Error: cannot read --token-file nope: ENOENT/);
  t.equal(missing.code, 1);
  const both = await runCli(['webhooks', 'ls', '--token', 'x', '--token-file', 'token'], { env, cwd: dir });
  t.equal(both.code, 64);
  t.equal(both.stderr, 'Error: give --token or --token-file, not both\n');
  writeFileSync(join(dir, 'robot.yaml'), HOOK_YAML);
  const plan = await runCli(['plan', '--token-file', 'token'], { env, cwd: dir });
  t.equal(plan.code, 2, 'plan reads the token from the file and sees one webhook to create');
  t.equal(plan.stderr, '');
});

t.test('apply --plan of an unknown version or a damaged plan says so and how to remake it', async (t) => {
  const dir = t.testdir({ 'robot.yaml': HOOK_YAML });
  hub.resetStats();
  t.equal((await runCli(['plan', '--out', 'plan.json'], { env: base(), cwd: dir })).code, 2);
  const saved = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as Record<string, unknown>;
  t.equal(saved.format_version, '2.1');
  writeFileSync(join(dir, 'old.json'), JSON.stringify({ ...saved, format_version: '1.0' }));
  const old = await runCli(['apply', '--plan', 'old.json'], { env: base(), cwd: dir });
  t.equal(old.code, 1);
  t.equal(old.stderr, `Error: old.json has format_version "1.0", and this robotctl reads only 2.1: make a new plan with this version of robotctl (\`${RUN} plan --out old.json\`)\n`);
  const { observed_digest: _gone, ...damaged } = saved;
  writeFileSync(join(dir, 'damaged.json'), JSON.stringify(damaged));
  const bad = await runCli(['apply', '--plan', 'damaged.json'], { env: base(), cwd: dir });
  t.equal(bad.code, 1);
  t.equal(bad.stderr, `Error: damaged.json is damaged (the top level: must have required property 'observed_digest'): make a new one with \`${RUN} plan --out\`\n`);
  t.equal(hub.stats().writes, 0, 'nothing applied from a refused plan');
});

t.test('usage errors exit 64, never 2 (drift) nor 0', async (t) => {
  const dir = t.testdir({ 'robot.yaml': HOOK_YAML });
  for (const args of [['plan', '--nope'], ['diff', '--json', 'extra'], ['apply', '--parallelism', '0'], ['import'], ['frobnicate']]) {
    const r = await runCli(args, { env: base(), cwd: dir });
    t.equal(r.code, 64, `${args.join(' ')}: ${r.stderr}`);
    t.match(r.stderr, /^Error: /);
  }
});
