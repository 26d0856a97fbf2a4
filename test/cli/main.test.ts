import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, runInProcess, repoRoot } from '../helpers/cli.js';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };

t.test('--help lists every command', async (t) => {
  const r = await runCli(['--help']);
  t.equal(r.code, 0);
  for (const c of ['apply', 'diff', 'plan', 'validate', 'webhooks', 'daemon', 'hub', 'up']) t.match(r.stdout, new RegExp(`\\n  ${c}\\s`));
});

t.test('--version prints the package version', async (t) => {
  const r = await runCli(['--version']);
  t.equal(r.code, 0);
  t.equal(r.stdout, `${pkg.version}\n`);
});

t.test('an unknown command is a usage error (exit 64, never 2 = drift) without a stack trace', async (t) => {
  const r = await runInProcess(['nope']);
  t.equal(r.code, 64);
  t.equal(r.stderr, "Error: unknown command 'nope'. Run `node bin/robotctl.js --help` for the list.\n", 'no robotctl on the PATH: the command that works here');
});
