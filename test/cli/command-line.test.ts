import t from 'tap';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { robotctlCommand } from '../../cli/views/command-line.js';
import { bin, repoRoot } from '../helpers/cli.js';

// What `up` writes for robotctl in the commands it prints: `robotctl` only
// when the shell would find this clone's (`npm link`), else `node bin/robotctl.js`.

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
