import t from 'tap';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { loadConfig, loadConfigText } from '../../schema/load.js';
import { formatDiagnostic } from '../../schema/types.js';
import { reloadConfig } from '../../reconciler/agent/reload.js';
import { runCli } from '../helpers/cli.js';
import { startHub } from '../../runtime/hub/server.js';

// Issue 29.10: a secret written in clear in robot.yaml is a warning naming
// its line and the way out (${VAR}); the file stays valid (exit 0). It comes
// from schema/, so validate, plan, apply and the agent's reload say it alike.

const ADVICE = 'a secret written in the file, where anyone who reads it finds it: put it in an environment variable (or .robotctl/env beside the file) and write ${WEBHOOK_SECRET} here';
const HOOK = 'version: 1\nwebhooks:\n  w:\n    url: https://x.org/h\n    watched: [user:alice]\n';
const warnings = (text: string, env: NodeJS.ProcessEnv = {}): string[] => {
  const r = loadConfigText(text, 'robot.yaml', '/srv', env);
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
  return r.warnings.map(formatDiagnostic);
};

t.test('a literal secret is a warning at its line; a ${VAR} secret is not', async (t) => {
  t.strictSame(warnings(`${HOOK}    secret: hunter2\n`), [`robot.yaml:6:13: webhooks.w.secret: ${ADVICE}`]);
  t.strictSame(warnings(`${HOOK}    secret: \${WEBHOOK_SECRET}\n`, { WEBHOOK_SECRET: 's3' }), []);
  t.strictSame(warnings(`${HOOK}    secret: "pre-\${WEBHOOK_SECRET}"\n`, { WEBHOOK_SECRET: 's3' }), [], 'a reference inside the text');
  t.strictSame(warnings(`${HOOK}    secret: "$\${NOT_A_VAR}"\n`), [`robot.yaml:6:13: webhooks.w.secret: ${ADVICE}`], '$${…} is a literal');
  t.strictSame(warnings('version: 1\nwebhooks:\n  w: { url: https://x.org/h, watched: [user:alice], secret: hunter2 }\n'),
    [`robot.yaml:3:61: webhooks.w.secret: ${ADVICE}`], 'flow style');
  t.strictSame(warnings('version: 1\nreceiver:\n  secret: [old-one, "${NEW}"]\n  endpoints: { r: { action: reconcile } }\n', { NEW: 'n' }),
    [`robot.yaml:3:12: receiver.secret[0]: ${ADVICE}`], "the receiver's list while rotating");
});

t.test('validate exits 0 with the warning on stderr; --json lists it', async (t) => {
  const dir = t.testdir({ 'robot.yaml': `${HOOK}    secret: hunter2\n` });
  const r = await runCli(['validate', '-f', 'robot.yaml'], { cwd: dir });
  t.equal(r.code, 0);
  t.equal(r.stderr, `Warning: robot.yaml:6:13: webhooks.w.secret: ${ADVICE}\n`);
  t.equal(r.stdout, 'robot.yaml: valid\n');
  const json = await runCli(['validate', '-f', 'robot.yaml', '--json'], { cwd: dir });
  t.equal(json.code, 0);
  t.strictSame(JSON.parse(json.stdout), {
    format_version: '1.0', valid: true, diagnostics: [],
    warnings: [{ file: 'robot.yaml', line: 6, column: 13, path: 'webhooks.w.secret', message: ADVICE }],
  });
  writeFileSync(join(dir, 'robot.yaml'), `${HOOK}    secret: \${WEBHOOK_SECRET}\n`);
  const clean = await runCli(['validate', '-f', 'robot.yaml'], { cwd: dir, env: { WEBHOOK_SECRET: 's3' } });
  t.equal(clean.code, 0);
  t.equal(clean.stderr, '', 'no warning for ${VAR}');
});

t.test('plan says the same and goes on', async (t) => {
  const USER = { name: 'alice', token: 'hf_alice_literal_secret_1' };
  const hub = await startHub({ users: [USER] });
  t.teardown(() => hub.close());
  const dir = t.testdir({ 'robot.yaml': `${HOOK}    secret: hunter2\n` });
  const r = await runCli(['plan', '-f', 'robot.yaml'], { cwd: dir, env: { HF_ENDPOINT: hub.url, HF_TOKEN: USER.token, HF_HOME: '/nonexistent-robotctl' } });
  t.equal(r.code, 2, 'a plan to create the webhook');
  t.equal(r.stderr, `Warning: robot.yaml:6:13: webhooks.w.secret: ${ADVICE}\n`);
  t.match(r.stdout, /\+ webhooks\.w will be created/);
  t.notMatch(r.stdout + r.stderr, /hunter2/, 'the secret itself is never printed');
});

t.test("the agent's reload notes it", async (t) => {
  const dir = t.testdir({ 'robot.yaml': `${HOOK}    secret: hunter2\n` });
  const first = loadConfig('robot.yaml', {}, { cwd: dir });
  if (!first.ok) throw new Error('invalid');
  const again = reloadConfig('robot.yaml', {}, dir, first.config);
  t.match(again, { ok: true, notes: ['reloaded robot.yaml', `warning: robot.yaml:6:13: webhooks.w.secret: ${ADVICE}`] });
});
