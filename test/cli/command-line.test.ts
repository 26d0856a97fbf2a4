import t from 'tap';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine, robotctlCommand } from '../../cli/views/command-line.js';
import { shellWord, suggested } from '../../lib/command-line.js';
import { bin, repoRoot } from '../helpers/cli.js';

// How robotctl is written in every command line it shows (cli/views/command-line.ts):
// `robotctl` only when the shell would find this clone's (`npm link`), else
// `node bin/robotctl.js`. The printed lines run in a shell: test/e2e/printed-commands.test.ts.

t.test('robotctl on the PATH only when it is this clone\'s', async (t) => {
  const dir = t.testdir();
  const linked = join(dir, 'linked');
  const other = join(dir, 'other');
  mkdirSync(linked);
  mkdirSync(other);
  symlinkSync(bin, join(linked, 'robotctl')); // what npm link makes
  writeFileSync(join(other, 'robotctl'), '#!/bin/sh\necho another\n');
  chmodSync(join(other, 'robotctl'), 0o755);

  t.same(robotctlCommand({ PATH: `/usr/bin:${linked}` }, repoRoot), { command: 'robotctl', onPath: true }, 'npm link');
  t.same(robotctlCommand({ PATH: '/usr/bin' }, repoRoot), { command: 'node bin/robotctl.js', onPath: false }, 'after npm ci alone, from the clone');
  t.same(robotctlCommand({}, join(repoRoot, 'examples')), { command: `node ${bin}`, onPath: false }, 'from elsewhere: the absolute path');
  t.same(robotctlCommand({ PATH: `${other}:${linked}` }, repoRoot), { command: 'node bin/robotctl.js', onPath: false }, 'another robotctl first on the PATH is not this one');
});

t.test('a clone in a folder with a space or a quote: the path is one shell word', async (t) => {
  t.same(robotctlCommand({}, '/elsewhere', "/home/me/my clones/it's/bin/robotctl.js"), { command: `node '/home/me/my clones/it'\\''s/bin/robotctl.js'`, onPath: false });
  t.equal(shellWord('examples/fleet.yaml'), 'examples/fleet.yaml');
  t.equal(shellWord('my plan.json'), "'my plan.json'");
});

t.test('the PATH is looked up once per Io, at the first line written', async (t) => {
  const dir = t.testdir();
  const linked = join(dir, 'linked');
  mkdirSync(linked);
  const io = { env: { PATH: linked }, cwd: repoRoot };
  const command = commandLine(io);
  symlinkSync(bin, join(linked, 'robotctl')); // linked after commandLine(): nothing was looked up yet
  t.equal(command('auth login'), 'robotctl auth login');
  io.env.PATH = '/usr/bin';
  t.equal(command('plan'), 'robotctl plan', 'the answer is kept for that Io');
  t.equal(commandLine({ env: { PATH: '/usr/bin' }, cwd: repoRoot })('plan'), 'node bin/robotctl.js plan', 'another Io looks again');
});

t.test('a lower layer given no CommandLine names the command as robotctl\'s, and never as a line', async (t) => {
  t.equal(suggested(undefined, 'auth login'), "robotctl's `auth login`");
  t.equal(suggested((args) => `node bin/robotctl.js ${args}`, 'auth login'), '`node bin/robotctl.js auth login`');
});
