import t from 'tap';
import { runInPty } from '../helpers/pty.js';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { runCli, runInProcess } from '../helpers/cli.js';
import { ALICE } from './helpers.js';

// `robotctl webhooks` output in every format, messages and exit codes (spec §2).

let hub: RunningHub;
let env: NodeJS.ProcessEnv;
t.before(async () => {
  hub = await startHub({ users: [ALICE] });
  env = { HF_ENDPOINT: hub.url, HF_TOKEN: ALICE.token, COLUMNS: '200' };
});
t.teardown(() => hub.close());

const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) => runInProcess(['webhooks', ...args], { env: { ...env, ...extra } });
const clearAll = async () => { for (const id of (await cli(['ls', '-q'])).stdout.split('\n').filter(Boolean)) await cli(['delete', id, '--yes']); };

t.test('empty list in every format', async (t) => {
  await clearAll();
  t.equal((await cli(['ls'])).stdout, 'No results found.\n');
  t.equal((await cli(['list', '--json'])).stdout, '[]\n');
  t.equal((await cli(['ls', '-q'])).stdout, '');
  t.equal((await cli(['ls', '--format', 'agent'])).stdout, 'No results found.\n');
});

t.test('create, list, info, update, enable, disable, delete', async (t) => {
  await clearAll();
  const created = await cli(['create', '--watch', 'space:alice/app', '--watch', 'user:alice', '--url', 'https://example.org/h', '--domain', 'repo', '--domain', 'discussions', '--secret', 'topsecret']);
  t.equal(created.code, 0);
  const id = /id: ([0-9a-f]{24})/.exec(created.stdout)?.[1] ?? '';
  t.equal(created.stdout, `✓ Webhook created\n  id: ${id}\n`);
  t.same(hub.data().webhooks.find((w) => w.id === id)?.domains, ['repo', 'discussion'], '`discussions` sent as `discussion`');
  const job = await cli(['create', '--watch', 'model:alice/m', '--job-id', 'job42', '-q']);
  const jobId = job.stdout.trim();
  t.match(jobId, /^[0-9a-f]{24}$/);

  const table = (await cli(['ls'])).stdout.split('\n');
  t.match(table[0], /^ID\s+URL\s+DISABLED DOMAINS\s+WATCHED\s*$/);
  t.match(table[1], /^-+ -+ -+ -+ -+ $/);
  t.match(table[2], new RegExp(`^${id} https://example.org/h\\s+repo, discussion space:alice/app, user:alice $`));
  t.match(table[3], new RegExp(`^${jobId} \\(job\\)\\s+model:alice/m\\s*$`));

  t.equal((await cli(['ls', '--format', 'agent'])).stdout,
    `id\turl\tdisabled\tdomains\twatched\n${id}\thttps://example.org/h\tFalse\t['repo', 'discussion']\t['space:alice/app', 'user:alice']\n${jobId}\t(job)\tFalse\t[]\t['model:alice/m']\n`);
  t.equal((await cli(['ls', '--json'])).stdout,
    `[{"id": "${id}", "url": "https://example.org/h", "disabled": false, "domains": ["repo", "discussion"], "watched": ["space:alice/app", "user:alice"]}, {"id": "${jobId}", "url": "(job)", "disabled": false, "domains": [], "watched": ["model:alice/m"]}]\n`);
  t.equal((await cli(['ls', '-q'])).stdout, `${id}\n${jobId}\n`);

  const info = await cli(['info', id]);
  t.same(JSON.parse(info.stdout), { id, url: 'https://example.org/h', watched: [{ type: 'space', name: 'alice/app' }, { type: 'user', name: 'alice' }], domains: ['repo', 'discussion'], secret: '(sensitive)', disabled: false });
  t.match(info.stdout, /^\{\n  "id": /, 'indented in human mode');
  t.notMatch(info.stdout, 'topsecret', 'secret masked');
  t.match((await cli(['info', id, '--show-secret', '--json'])).stdout, /^\{"id": .*"secret": "topsecret"/);
  const jobInfo = JSON.parse((await cli(['info', jobId, '--json'])).stdout) as Record<string, unknown>;
  t.notOk('url' in jobInfo || 'secret' in jobInfo, 'None values dropped');
  t.match(jobInfo, { job: { docker_image: String, flavor: 'cpu-basic' } });

  t.equal((await cli(['update', id, '--url', 'https://example.org/new'])).stdout, `✓ Webhook updated\n  id: ${id}\n`);
  t.match(hub.data().webhooks.find((w) => w.id === id), { url: 'https://example.org/new', watched: [{ name: 'alice/app' }, { name: 'alice' }] }, 'update without --watch keeps the list');
  await cli(['update', id, '--watch', 'dataset:alice/d']);
  t.same(hub.data().webhooks.find((w) => w.id === id)?.watched, [{ type: 'dataset', name: 'alice/d' }], '--watch replaces');

  t.equal((await cli(['disable', id, '--format', 'agent'])).stdout, `id=${id}\n`);
  t.match((await cli(['ls'])).stdout, new RegExp(`${id} https://example.org/new ✔`));
  t.equal((await cli(['enable', id, '--json'])).stdout, `{"id": "${id}"}\n`);
  t.equal((await cli(['delete', id, '--yes', '-q'])).stdout, `${id}\n`);
  t.equal((await cli(['delete', jobId, '-y'])).stdout, `✓ Webhook deleted\n  id: ${jobId}\n`);
});

t.test('colour only on a terminal and without NO_COLOR; errors bold red', async (t) => {
  const onTty = { env: { ...env, NO_COLOR: '' }, isTTY: true };
  const r = await runInProcess(['webhooks', 'create', '--watch', 'user:alice', '--url', 'https://x.org'], onTty);
  t.match(r.stdout, /^\x1b\[32m✓ Webhook created\x1b\[0m\n  id: /);
  const e = await runInProcess(['webhooks', 'info', 'nope'], onTty);
  t.match(e.stderr, /^\x1b\[1m\x1b\[31mError: /);
  const noColor = await runInProcess(['webhooks', 'info', 'nope'], { env: { ...env, NO_COLOR: '1' }, isTTY: true });
  t.match(noColor.stderr, /^Error: /, 'NO_COLOR wins on a terminal');
  const piped = await runCli(['webhooks', 'create', '--watch', 'user:alice', '--url', 'https://x.org/piped'], { env: { ...env, NO_COLOR: '' } });
  t.match(piped.stdout, /^✓ Webhook created\n  id: [0-9a-f]{24}\n$/, 'the real binary into a pipe: no escape codes');
  const pipedErr = await runCli(['webhooks', 'info', 'nope'], { env: { ...env, NO_COLOR: '' } });
  t.notMatch(pipedErr.stderr, '\x1b[', 'no escape codes in a piped stderr either');
});

t.test('usage errors exit 64 (never 2 = drift) with the messages of hf', async (t) => {
  const cases: [string[], string][] = [
    [['ls', '--json', '-q'], "Error: '--json' and '-q' are mutually exclusive.\n"],
    [['ls', '--format', 'json', '--json'], "Error: '--format' and '--json' are mutually exclusive.\n"],
    [['create', '--watch', 'user:a'], 'Provide either --url or --job-id.'],
    [['create', '--watch', 'user:a', '--url', 'https://x', '--job-id', 'j'], 'Provide either --url or --job-id, not both.'],
    [['create', '--watch', 'bad-format', '--url', 'https://x'], "Expected format 'type:name' (e.g. 'model:bert-base-uncased'), got 'bad-format'. Valid types: dataset, model, org, space, user."],
    [['create', '--watch', 'badtype:x', '--url', 'https://x'], "Invalid type 'badtype'. Valid types: dataset, model, org, space, user."],
    [['create', '--url', 'https://x'], "Missing option '--watch'."],
    [['create', '--watch', 'user:a', '--url', 'https://x', '--domain', 'issues'], "'issues' is not one of 'repo', 'discussion', 'discussions'."],
    [['ls', '--format', 'yaml'], "'yaml' is not one of"],
  ];
  for (const [args, message] of cases) {
    const r = await cli(args);
    t.equal(r.code, 64, args.join(' '));
    t.ok(r.stderr.includes(message), `${args.join(' ')}: ${r.stderr}`);
  }
  t.equal(hub.stats().writes > 0, true);
});

t.test('hub errors: Error + hint, exit 1; quiet has no hint; no token is a clear error', async (t) => {
  const r = await cli(['info', '0123456789abcdef01234567']);
  t.equal(r.code, 1);
  t.match(r.stderr, /^Error: 404 Not Found \(GET http:\/\/127\.0\.0\.1:\d+\/api\/settings\/webhooks\/0123456789abcdef01234567\): Webhook '0123456789abcdef01234567' not found\nHint: set HF_DEBUG=1 as environment variable for full traceback\.\n$/);
  const q = await cli(['info', 'nope', '-q']);
  t.equal(q.code, 1);
  t.notMatch(q.stderr, 'Hint');
  const bad = await cli(['ls'], { HF_TOKEN: 'hf_wrong' });
  t.equal(bad.code, 1);
  t.match(bad.stderr, /401 Unauthorized.*Invalid credentials/);
  t.notMatch(bad.stderr, 'hf_wrong');
  const none = await runInProcess(['webhooks', 'ls'], { env: { HF_ENDPOINT: hub.url, HF_TOKEN_PATH: '/nonexistent/token' } });
  t.equal(none.code, 1);
  t.match(none.stderr, /Not logged in/);
  const flag = await runInProcess(['webhooks', 'ls', '--token', ALICE.token], { env: { HF_ENDPOINT: hub.url, HF_TOKEN_PATH: '/nonexistent/token' } });
  t.equal(flag.code, 0, '--token works without HF_TOKEN');
});

t.test('delete asks: stdin answers, EOF aborts, non-human modes refuse', async (t) => {
  const mk = async () => (await cli(['create', '--watch', 'user:alice', '--url', 'https://x.org/d', '-q'])).stdout.trim();
  const id = await mk();
  const agent = await cli(['delete', id, '--format', 'agent']);
  t.equal(agent.code, 1);
  t.equal(agent.stderr, `Error: Are you sure you want to delete webhook '${id}'? Use --yes to skip confirmation.\n`);

  hub.resetStats();
  const no = await runCli(['webhooks', 'delete', id], { env, input: 'n\n' });
  t.equal(no.code, 1);
  t.equal(no.stdout, `Are you sure you want to delete webhook '${id}'? [y/N]: `);
  t.equal(no.stderr, 'Aborted!\n');
  const eof = await runCli(['webhooks', 'delete', id], { env, input: '' });
  t.equal(eof.code, 1);
  t.match(eof.stderr, /Aborted!\n$/);
  t.equal(hub.stats().requests, 0, 'no request sent after a refusal');

  const yes = await runCli(['webhooks', 'delete', id], { env, input: 'y\n' });
  t.equal(yes.code, 0);
  t.match(yes.stdout, `✓ Webhook deleted\n  id: ${id}\n`);
  t.notOk(hub.data().webhooks.some((w) => w.id === id));
});

t.test('delete prompt through a pseudo-terminal', async (t) => {
  const id = (await cli(['create', '--watch', 'user:alice', '--url', 'https://x.org/pty', '-q'])).stdout.trim();
  const { code, output: out } = await runInPty(['webhooks', 'delete', id], { env, answers: [{ when: '[y/N]', send: 'y\n' }] });
  t.equal(code, 0, out);
  t.match(out, `Are you sure you want to delete webhook '${id}'? [y/N]: y`);
  t.match(out, 'Webhook deleted');
  t.notOk(hub.data().webhooks.some((w) => w.id === id));
});

t.test('truncation to the terminal width with a hint on stderr, never the id, never into a pipe', async (t) => {
  await clearAll();
  const id = (await cli(['create', '--watch', 'space:alice/a-very-long-space-name-indeed', '--url', 'https://example.org/a/very/long/path/for/the/hook', '-q'])).stdout.trim();
  const tty = (args: string[]) => runInProcess(['webhooks', ...args], { env: { ...env, COLUMNS: '60' }, isTTY: true });
  const r = await tty(['ls']);
  t.ok(r.stdout.split('\n').every((l) => l.length <= 60), r.stdout);
  t.match(r.stdout, '...');
  t.match(r.stdout, `\n${id} `, 'the id column is never cut');
  t.equal(r.stderr, 'Hint: Use `--no-truncate` or `--format json` to display full values.\n');
  const full = await tty(['ls', '--no-truncate']);
  t.match(full.stdout, 'https://example.org/a/very/long/path/for/the/hook');
  t.equal(full.stderr, '');
  const piped = await runCli(['webhooks', 'ls'], { env: { ...env, COLUMNS: '20' } });
  t.match(piped.stdout.split('\n')[2], new RegExp(`^${id} https://example\\.org/a/very/long/path/for/the/hook +space:alice/a-very-long-space-name-indeed $`), 'piped: whole cells');
  t.equal(piped.stderr, '');
});
