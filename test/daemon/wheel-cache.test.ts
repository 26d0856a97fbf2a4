import t from 'tap';
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BODIES, makeApp } from '../helpers/python-apps.js';
import { closePair, daemonPair, type Pair } from '../helpers/servers.js';
import { fileScratch } from '../helpers/file-scratch.js';

// Issue 16: the same source installed on several robots is built into a
// wheel once; every other robot installs that wheel (no build backend run).
// Two daemons on one machine, one local app with content never seen before.

const scratch = fileScratch('wheel-cache');
const pairs: Pair[] = [];
const cacheDirs = new Set<string>();
t.teardown(async () => {
  for (const p of pairs) await closePair(p);
  for (const d of cacheDirs) rmSync(d, { recursive: true, force: true });
  scratch.remove();
});

t.test('a second robot installs the wheel the first one built; both run the app', async (t) => {
  const path = makeApp(join(scratch.dir, 'src'), 'wheel_app', BODIES.cooperative, { marker: randomUUID() });
  const info = { name: 'wheel_app', source_kind: 'local' as const, description: '', url: null, extra: { path } };
  const built = /^Running command: .* -m pip wheel .* -w (\S+) /;
  const reused = /^Using the wheel built earlier from the same source: (\S+\.whl)$/;

  const one = await daemonPair(join(scratch.dir, 'robot-1'));
  pairs.push(one);
  const first = await one.client.install(info);
  const build = first.logs.map((l) => built.exec(l)).find((m) => m !== null);
  t.ok(build, `the first robot builds the wheel:\n${first.logs.join('\n')}`);
  t.notOk(first.logs.some((l) => reused.test(l)), 'nothing to reuse yet');

  const two = await daemonPair(join(scratch.dir, 'robot-2'));
  pairs.push(two);
  const second = await two.client.install(info);
  const hit = second.logs.map((l) => reused.exec(l)).find((m) => m !== null);
  t.ok(hit, `the second robot reuses it:\n${second.logs.join('\n')}`);
  t.notOk(second.logs.some((l) => built.test(l)), 'no second build');
  const wheel = hit?.[1] ?? '';
  cacheDirs.add(dirname(wheel));
  t.ok(existsSync(wheel));
  t.match(second.logs.join('\n'), new RegExp(`pip install .*--target \\S+ ${wheel.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), 'pip installs the cached wheel');

  for (const p of [one, two]) {
    await p.client.startApp('wheel_app');
    t.equal((await p.client.currentAppStatus())?.info.name, 'wheel_app');
    await p.client.stopCurrentApp();
  }
});
