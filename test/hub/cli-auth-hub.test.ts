import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { bin, runCli, runInProcess } from '../helpers/cli.js';
import { ALICE, tempDir } from './helpers.js';

t.test('auth login / whoami / logout', async (t) => {
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  const dir = tempDir(t);
  const tokenPath = join(dir, 'hf', 'token');
  const env = { HF_ENDPOINT: hub.url, HF_TOKEN_PATH: tokenPath };

  const login = await runInProcess(['auth', 'login', '--token', ALICE.token], { env });
  t.equal(login.code, 0, login.stderr);
  t.match(login.stdout, /^Logged in as alice\n/);
  t.notMatch(login.stdout + login.stderr, ALICE.token, 'the token is never printed');
  t.equal(readFileSync(tokenPath, 'utf8'), ALICE.token);
  t.equal(statSync(tokenPath).mode & 0o777, 0o600);

  const who = await runInProcess(['auth', 'whoami'], { env });
  t.equal(who.stdout, 'alice\n');
  t.match(who.stderr, `token from ${tokenPath}`);
  const ls = await runInProcess(['webhooks', 'ls', '-q'], { env });
  t.equal(ls.code, 0, 'webhooks use the saved token');

  const bad = await runInProcess(['auth', 'login', '--token', 'hf_nope'], { env });
  t.equal(bad.code, 1);
  t.match(bad.stderr, 'Invalid token');
  t.equal(readFileSync(tokenPath, 'utf8'), ALICE.token, 'a refused token is not saved');

  const out = await runInProcess(['auth', 'logout'], { env });
  t.equal(out.code, 0);
  t.notOk(existsSync(tokenPath));
  const after = await runInProcess(['auth', 'whoami'], { env });
  t.equal(after.code, 1);
  t.match(after.stderr, 'Not logged in');

  const piped = await runCli(['auth', 'login'], { env, input: `${ALICE.token}\n` });
  t.equal(piped.code, 0, piped.stderr);
  t.match(piped.stdout, 'Logged in as alice');
  t.equal(readFileSync(tokenPath, 'utf8'), ALICE.token, 'token read from stdin');
});

function startCliHub(args: string[]): Promise<{ url: string; lines: string[]; child: ReturnType<typeof spawn> }> {
  const child = spawn(process.execPath, [bin, 'hub', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const lines = out.split('\n');
      if (lines.length >= 3) resolve({ url: /^listening on (\S+)$/.exec(lines[0] ?? '')?.[1] ?? '', lines, child });
    });
    child.on('exit', (code) => reject(new Error(`hub exited ${String(code)}: ${out}`)));
  });
}

t.test('robotctl hub: first line, users, SIGTERM closes cleanly', async (t) => {
  const { url, lines, child } = await startCliHub(['--port', '0', '--user', 'alice', '--token', ALICE.token, '--full-name', 'Alice Liddell',
    '--org', 'wonderland=alice', '--org-full-name', 'Wonderland Inc.']);
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  t.match(lines[0], /^listening on http:\/\/127\.0\.0\.1:\d+$/);
  t.equal(lines[1], 'users: alice');
  t.notMatch(lines.join('\n'), ALICE.token, 'a token the user passed is never printed');
  const res = await fetch(`${url}/api/whoami-v2`, { headers: { authorization: `Bearer ${ALICE.token}` } });
  t.match(await res.json(), { name: 'alice', fullname: 'Alice Liddell', orgs: [{ name: 'wonderland', fullname: 'Wonderland Inc.', type: 'org' }] }, '--full-name and --org reach whoami');
  child.kill('SIGTERM');
  const code = await new Promise((r) => child.on('exit', r));
  t.equal(code, 0);
  await t.rejects(fetch(`${url}/api/whoami-v2`), 'port released');
});

t.test('robotctl hub: default user, usage errors', async (t) => {
  const { lines, child } = await startCliHub(['--port', '0']);
  t.equal(lines[1], "user 'demo', token 'hf_demo_local_token' (pass --user NAME --token-file FILE to choose)");
  child.kill('SIGINT');
  t.equal(await new Promise((r) => child.on('exit', r)), 0);
  const r = await runInProcess(['hub', '--user', 'a']);
  t.equal(r.code, 64);
  t.match(r.stderr, 'one --token-file (or --token) per --user');
  for (const [args, message] of [
    [['--user', 'a', '--token', 'hf_a_token_000000', '--full-name', 'A', '--full-name', 'B'], 'one --full-name per --user'],
    [['--user', 'a', '--token', 'hf_a_token_000000', '--org', 'lab'], "--org 'lab': expected NAME=MEMBER[,MEMBER…]"],
    [['--user', 'a', '--token', 'hf_a_token_000000', '--org', 'lab=b'], "--org 'lab=b': b is not a --user"],
  ] as const) {
    const bad = await runInProcess(['hub', ...args]);
    t.equal(bad.code, 64, message);
    t.match(bad.stderr, message);
  }
  const help = await runInProcess(['hub', '--help']);
  t.match(help.stdout, /--job-command/);
  t.match(help.stdout, /user 'demo' exists with the token/);
});

