import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { runCli, repoRoot } from '../helpers/cli.js';

// Through the built binary (npm run build first), as a user or CI runs it.
const SECRET = 'cli-test-secret-value';
const env = { WEBHOOK_SECRET: SECRET, HF_ENDPOINT: '' };
const invalid = join('test', 'schema', 'fixtures', 'invalid');

t.test('validate: a valid file exits 0 and says so', async (t) => {
  const r = await runCli(['validate', '-f', 'examples/robot.yaml'], { env });
  t.strictSame(r, { code: 0, stdout: 'examples/robot.yaml: valid\n', stderr: '' });
});

t.test('validate: -f defaults to robot.yaml in the current folder', async (t) => {
  const dir = t.testdir({ 'robot.yaml': 'version: 1\n', empty: {} });
  const r = await runCli(['validate'], { env, cwd: dir });
  t.strictSame(r, { code: 0, stdout: 'robot.yaml: valid\n', stderr: '' });
  const none = await runCli(['validate'], { env, cwd: join(dir, 'empty') });
  t.equal(none.code, 1);
  t.equal(none.stderr, 'robot.yaml:1:1: cannot read file: no such file\n');
});

t.test('validate: an invalid file exits 1 with one line per problem on stderr', async (t) => {
  const file = join(invalid, 'receiver-bad-action.yaml');
  const r = await runCli(['validate', '-f', file], { env });
  t.equal(r.code, 1);
  t.equal(r.stdout, '');
  t.equal(r.stderr, `${file}:7:22: receiver.endpoints.hello.action: must be one of reconcile, redeploy, log, not 'deploy', did you mean 'redeploy'?\n`);
});

t.test('validate --json: the diagnostics as data, exit 1', async (t) => {
  const file = join(invalid, 'webhook-url-and-job-id.yaml');
  const r = await runCli(['validate', '-f', file, '--json'], { env });
  t.equal(r.code, 1);
  t.equal(r.stderr, '');
  t.strictSame(JSON.parse(r.stdout), {
    format_version: '1.0',
    valid: false,
    diagnostics: [{ file, line: 5, column: 5, path: 'webhooks.redeploy', message: 'set url or job_id, not both' }],
  });
});

t.test('validate --json on a valid file', async (t) => {
  const r = await runCli(['validate', '-f', 'examples/fleet.yaml', '--json'], { env });
  t.equal(r.code, 0);
  t.strictSame(JSON.parse(r.stdout), { format_version: '1.0', valid: true, diagnostics: [] });
});

t.test('validate --print: the resolved view in YAML, secrets as (sensitive)', async (t) => {
  const r = await runCli(['validate', '-f', 'examples/fleet.yaml', '--print'], { env });
  t.equal(r.code, 0);
  t.notMatch(r.stdout, SECRET);
  const view = parseYaml(r.stdout) as Record<string, unknown>;
  t.match(view, {
    file: join(repoRoot, 'examples', 'fleet.yaml'),
    hub: { endpoint: 'https://huggingface.co' },
    webhooks: { 'redeploy-apps': { secret: '(sensitive)', domains: ['repo'], enabled: true } },
    robots: { 'lab-2': { url: 'http://127.0.0.1:8003', apps: ['hello_app', 'oneshot_app'], active: 'hello_app' } },
    rollout: { parallelism: 2, canary: 1, max_failures: 1 },
    receiver: { port: 7860, secrets: ['(sensitive)'] },
  });
});

t.test('validate --print --json: the resolved view inside the JSON document', async (t) => {
  const r = await runCli(['validate', '-f', 'examples/fleet.yaml', '--print', '--json'], { env: { ...env, HF_ENDPOINT: 'http://127.0.0.1:9/' } });
  t.equal(r.code, 0);
  t.notMatch(r.stdout, SECRET);
  const doc = JSON.parse(r.stdout) as { valid: boolean; config: { hub: unknown; webhooks: Record<string, { secret: string }> } };
  t.equal(doc.valid, true);
  t.strictSame(doc.config.hub, { endpoint: 'http://127.0.0.1:9' });
  t.equal(doc.config.webhooks['redeploy-apps']?.secret, '(sensitive)');
});

t.test('validate: a secret that breaks a rule is never printed', async (t) => {
  const dir = t.testdir({ 'robot.yaml': 'version: 1\nwebhooks:\n  w: { url: https://x.org/h, watched: [user:a], secret: "${S}" }\n' });
  const r = await runCli(['validate', '--json'], { env: { S: 'sécret-ünicode' }, cwd: dir });
  t.equal(r.code, 1);
  t.notMatch(r.stdout + r.stderr, /sécret/);
  t.match(r.stdout, /printable ASCII/);
});

t.test('validate: a wrong flag is a usage error (exit 64, never 2 = drift)', async (t) => {
  const r = await runCli(['validate', '--nope'], { env });
  t.equal(r.code, 64);
  t.match(r.stderr, /unknown option '--nope'/);
  t.notMatch(r.stderr, /    at /);
});

t.test('schema prints the JSON Schema', async (t) => {
  const r = await runCli(['schema']);
  t.equal(r.code, 0);
  t.strictSame(JSON.parse(r.stdout), JSON.parse(readFileSync(join(repoRoot, 'schema', 'robot.schema.json'), 'utf8')));
  t.match(r.stdout, /^\{\n  "\$schema"/, 'pretty');
});
