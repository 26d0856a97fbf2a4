import t from 'tap';
import { join } from 'node:path';
import { runInProcess } from '../helpers/cli.js';

// validate needs no secrets (like terraform validate): an unset ${VAR} is a
// warning there and exit 0, while plan, diff and apply refuse to run. Any
// other problem keeps the file invalid.

const file = `version: 1
webhooks:
  hook:
    url: https://example.org/h
    watched: [user:demo]
    secret: \${WEBHOOK_SECRET}
`;

t.test('validate warns about an unset variable and passes; plan refuses', async (t) => {
  const dir = t.testdir({ 'robot.yaml': file, 'bad.yaml': `${file}  other: { url: nope, watched: [user:demo] }\n` });
  const v = await runInProcess(['validate'], { cwd: dir, env: {} });
  t.equal(v.code, 0);
  t.match(v.stdout, /^robot\.yaml: valid \(1 unset variable\)$/m);
  t.match(v.stderr, /^robot\.yaml:6:\d+: webhooks\.hook\.secret: environment variable WEBHOOK_SECRET is not set \(a warning here; plan, diff and apply need it\)$/m);
  const j = JSON.parse((await runInProcess(['validate', '--json'], { cwd: dir, env: {} })).stdout) as { valid: boolean; warnings: { path: string }[]; diagnostics: unknown[] };
  t.same([j.valid, j.warnings.map((w) => w.path), j.diagnostics], [true, ['webhooks.hook.secret'], []]);
  for (const cmd of ['plan', 'diff', 'apply']) {
    const r = await runInProcess([cmd, '--yes'].slice(0, cmd === 'apply' ? 2 : 1), { cwd: dir, env: { HF_TOKEN: 'hf_x', HF_ENDPOINT: 'http://127.0.0.1:9' } });
    t.equal(r.code, 1, `${cmd} fails`);
    t.match(r.stderr, /environment variable WEBHOOK_SECRET is not set/);
  }
  const bad = await runInProcess(['validate', '-f', join(dir, 'bad.yaml')], { cwd: dir, env: {} });
  t.equal(bad.code, 1, 'another problem keeps the file invalid');
});

// `validate --print` (fleet.yaml's own header command) shows what each robot
// gets without the secrets too: an unset variable is a warning there as well,
// and validate reads the variables `up` keeps in .robotctl/env, as plan does.
t.test('validate --print with an unset secret: a warning, the resolved file, exit 0', async (t) => {
  const dir = t.testdir({ 'robot.yaml': file });
  const p = await runInProcess(['validate', '--print'], { cwd: dir, env: {} });
  t.equal(p.code, 0, p.stderr);
  t.match(p.stderr, /^robot\.yaml:6:\d+: webhooks\.hook\.secret: environment variable WEBHOOK_SECRET is not set \(a warning here; plan, diff and apply need it\)\n$/);
  t.match(p.stdout, /^webhooks:\n  hook:\n/m);
  t.match(p.stdout, /secret: \(sensitive\)/);
  const j = JSON.parse((await runInProcess(['validate', '--print', '--json'], { cwd: dir, env: {} })).stdout) as { valid: boolean; warnings: { path: string }[]; config: { webhooks: Record<string, { secret: string }> } };
  t.same([j.valid, j.warnings.map((w) => w.path), j.config.webhooks.hook?.secret], [true, ['webhooks.hook.secret'], '(sensitive)']);
});

t.test('validate reads .robotctl/env beside the file, as plan does; an exported variable wins', async (t) => {
  const dir = t.testdir({ 'robot.yaml': file, '.robotctl': { env: '# written by robotctl up\nWEBHOOK_SECRET=kept-by-up\n' } });
  const v = await runInProcess(['validate', '-f', 'robot.yaml'], { cwd: dir, env: {} });
  t.equal(v.code, 0);
  t.equal(v.stdout, 'robot.yaml: valid\n', 'no unset variable: the file gave it');
  t.equal(v.stderr, `using WEBHOOK_SECRET from ${join(dir, '.robotctl', 'env')}\n`);
  const exported = await runInProcess(['validate', '-f', 'robot.yaml'], { cwd: dir, env: { WEBHOOK_SECRET: 'mine' } });
  t.equal(exported.stderr, '', 'nothing taken from the file');
  const printed = await runInProcess(['validate', '-f', 'robot.yaml', '--print'], { cwd: dir, env: {} });
  t.equal(printed.code, 0);
  t.notMatch(printed.stdout, /kept-by-up/, 'the kept secret is never printed');
});
