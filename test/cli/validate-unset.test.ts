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
