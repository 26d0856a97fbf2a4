import t, { type Test } from 'tap';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { bin, pathWithoutRobotctl, repoRoot, runInProcess } from '../helpers/cli.js';
import { fixtures } from './fixtures.js';
import { post } from './helpers.js';

// The built CLI (run `npm run build` first), as a user starts it.

interface Running {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stdout: () => string;
  waitFor: (text: string) => Promise<void>;
  stop: () => Promise<number | null>;
}

function startCli(t: Test, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Running> {
  const child = spawn(process.execPath, [bin, 'receiver', '--port', '0', ...args], {
    cwd: repoRoot,
    // A fresh terminal after `npm ci`: the commands it suggests run this clone's bin (cli/views/command-line.ts).
    env: { PATH: pathWithoutRobotctl(), NO_COLOR: '1', ...env },
  });
  let out = '';
  let err = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    for (const w of waiters.filter((x) => out.includes(x.text))) w.resolve();
  });
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  const waitFor = (text: string): Promise<void> => new Promise((resolve, reject) => {
    if (out.includes(text)) return resolve();
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${JSON.stringify(text)}; stdout: ${out} stderr: ${err}`)), 10_000);
    waiters.push({ text, resolve: () => { clearTimeout(timer); resolve(); } });
  });
  return waitFor('Go to https://huggingface.co/settings/webhooks').then(() => {
    const url = /^listening on (http:\/\/\S+)\n/.exec(out)?.[1];
    if (!url) throw new Error(`first line is not 'listening on …': ${out}`);
    return {
      child, url, waitFor,
      stdout: () => out,
      stop: () => { child.kill('SIGINT'); return exited; },
    };
  });
}

t.test('without -f: one log endpoint; first line is listening on; SIGINT stops it', async (t) => {
  const r = await startCli(t, []);
  const lines = r.stdout().split('\n');
  t.match(lines[0], /^listening on http:\/\/127\.0\.0\.1:\d+$/);
  t.equal(lines[1], 'Webhook secret is not defined. This means your webhook endpoints will be open to everyone.');
  t.equal(lines[2], 'To add a secret, set `WEBHOOK_SECRET` in the environment; the webhooks that call these endpoints must send the same secret.',
    'what a CLI user does, not the library\'s createReceiver');
  t.notMatch(r.stdout(), /createReceiver/);
  t.ok(lines.includes(`  - POST ${r.url}/webhooks/log`));
  const res = await post(`${r.url}/webhooks/log`, fixtures.contentUpdate);
  t.equal(res.status, 200);
  t.same(res.body, { logged: true });
  await r.waitFor('space:Wauplin/gradio-user-history');
  t.match(r.stdout(), /\n\d{4}-\d\d-\d\dT[\d:.]+Z \/webhooks\/log repo\.content\/update space:Wauplin\/gradio-user-history\n/);
  t.equal(await r.stop(), 0);
});

t.test('--secret (repeatable) protects the endpoint and is never printed', async (t) => {
  const r = await startCli(t, ['--secret', 'first-s3cret', '--secret', 'second-s3cret']);
  t.match(r.stdout(), /Webhook secret is correctly defined\./);
  t.equal((await post(`${r.url}/webhooks/log`, fixtures.prOpened)).status, 401);
  t.equal((await post(`${r.url}/webhooks/log`, fixtures.prOpened, { 'x-webhook-secret': 'second-s3cret' })).status, 200);
  t.notOk(r.stdout().includes('s3cret'));
  t.equal(await r.stop(), 0);
});

t.test('-f: the receiver section, reconcile and redeploy say what the agent would do', async (t) => {
  const dir = t.testdir({
    'robot.yaml': [
      'version: 1',
      'apps:',
      '  hello_app: { source: https://huggingface.co/spaces/demo/hello_app }',
      'receiver:',
      '  port: 7860',
      '  secret: ${HOOK_SECRET}',
      '  endpoints:',
      '    sync: { action: reconcile }',
      '    hello: { action: redeploy, app: hello_app }',
      '    audit: { action: log }',
      '',
    ].join('\n'),
  });
  const r = await startCli(t, ['-f', join(dir, 'robot.yaml')], { HOOK_SECRET: 'file-secret' });
  for (const name of ['sync', 'hello', 'audit']) t.ok(r.stdout().includes(`  - POST ${r.url}/webhooks/${name}`), name);
  const headers = { 'x-webhook-secret': 'file-secret' };
  const hello = await post(`${r.url}/webhooks/hello`, fixtures.contentUpdate, headers);
  t.same(hello.body, { action: 'redeploy', app: 'hello_app', performed: false });
  const sync = await post(`${r.url}/webhooks/sync`, fixtures.contentUpdate, headers);
  t.same(sync.body, { action: 'reconcile', performed: false });
  await r.waitFor('would reconcile');
  t.match(r.stdout(), /\/webhooks\/hello repo\.content\/update space:Wauplin\/gradio-user-history: would redeploy app hello_app; `node bin\/robotctl\.js agent -f \/\S*robot\.yaml` performs it/);
  t.equal((await post(`${r.url}/webhooks/audit`, fixtures.prOpened)).status, 401, 'the file secret applies');
  t.equal(await r.stop(), 0);
});

t.test('-f without a secret: the hint names the file\'s receiver section', async (t) => {
  const dir = t.testdir({ 'robot.yaml': 'version: 1\nreceiver:\n  endpoints:\n    audit: { action: log }\n' });
  const file = join(dir, 'robot.yaml');
  const r = await startCli(t, ['-f', file]);
  const lines = r.stdout().split('\n');
  t.same(lines.slice(1, 4), [
    'Webhook secret is not defined. This means your webhook endpoints will be open to everyone.',
    `To add a secret, set \`WEBHOOK_SECRET\` in the environment, or \`receiver.secret: \${WEBHOOK_SECRET}\` in ${file}; the webhooks that call these endpoints must send the same secret.`,
    'For more details about webhook secrets, please refer to https://huggingface.co/docs/hub/webhooks#webhook-secret.',
  ]);
  t.equal(await r.stop(), 0);
});

t.test('user mistakes: clear messages and exit codes, no stack', async (t) => {
  const dir = t.testdir({
    'bad.yaml': 'version: 1\nreceiver:\n  endpoints:\n    x: { action: explode }\n',
    'none.yaml': 'version: 1\n',
  });
  const bad = await runInProcess(['receiver', '-f', 'bad.yaml'], { cwd: dir });
  t.equal(bad.code, 1);
  t.match(bad.stderr, /^bad\.yaml:4:\d+: receiver\.endpoints\.x\.action/m);
  const none = await runInProcess(['receiver', '-f', 'none.yaml'], { cwd: dir });
  t.equal(none.code, 1);
  t.match(none.stderr, /none\.yaml declares no receiver endpoints/);
  const port = await runInProcess(['receiver', '--port', 'abc']);
  t.equal(port.code, 64);
  t.match(port.stderr, /--port must be a number from 0 to 65535/);
  for (const r of [bad, none, port]) t.notMatch(r.stderr, /\n\s+at /);
});

t.test('--help names the actions and says the agent performs reconcile/redeploy', async (t) => {
  const r = await runInProcess(['receiver', '--help']);
  t.equal(r.code, 0);
  t.match(r.stdout, /--port <port>/);
  t.match(r.stdout, /--secret <secret>/);
  t.match(r.stdout, /`node bin\/robotctl\.js agent -f robot\.yaml` performs reconciles/);
  t.match(r.stdout, /^Usage: node bin\/robotctl\.js receiver \[options\]$/m, 'the usage line is a command line that works here too');
});

t.test('a busy port is a clear error', async (t) => {
  const r = await startCli(t, []);
  const port = new URL(r.url).port;
  const busy = await runInProcess(['receiver', '--port', port]);
  t.equal(busy.code, 1);
  t.match(busy.stderr, new RegExp(`port ${port} is already in use`));
  t.equal(await r.stop(), 0);
});
