import t from 'tap';
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BODIES, makeApp } from '../helpers/python-apps.js';
import { closePair, daemonPair, type Pair } from '../helpers/servers.js';
import { fileScratch } from '../helpers/file-scratch.js';

// Issue 16: the same source installed on several robots is built and
// installed by pip once; every other robot copies what pip installed (no pip
// run at all), except for an app with scripts.
// Two daemons on one machine, one local app with content never seen before.

const scratch = fileScratch('wheel-cache');
const pairs: Pair[] = [];
const cacheDirs = new Set<string>();
t.teardown(async () => {
  for (const p of pairs) await closePair(p);
  for (const d of cacheDirs) rmSync(d, { recursive: true, force: true });
  scratch.remove();
});

t.test('a second robot copies what pip installed from the same source for the first one; both run the app', async (t) => {
  const path = makeApp(join(scratch.dir, 'src'), 'wheel_app', BODIES.cooperative, { marker: randomUUID() });
  const info = { name: 'wheel_app', source_kind: 'local' as const, description: '', url: null, extra: { path } };
  const pip = /^Running command: .* -m pip (install|wheel) .*--target (\S+) /;
  const reused = /^Using the files pip installed earlier from the same source: (\S+)$/;

  const one = await daemonPair(join(scratch.dir, 'robot-1'));
  pairs.push(one);
  const first = await one.client.install(info);
  const runs = first.logs.map((l) => pip.exec(l)).filter((m) => m !== null);
  t.equal(runs.length, 1, `the first robot runs pip once (build and install in one run):\n${first.logs.join('\n')}`);
  t.equal(runs[0]?.[1], 'install');
  t.notOk(first.logs.some((l) => reused.test(l)), 'nothing to reuse yet');

  const two = await daemonPair(join(scratch.dir, 'robot-2'));
  pairs.push(two);
  const second = await two.client.install(info);
  const hit = second.logs.map((l) => reused.exec(l)).find((m) => m !== null);
  t.ok(hit, `the second robot reuses it:\n${second.logs.join('\n')}`);
  t.notOk(second.logs.some((l) => / -m pip (install|wheel) /.test(l)), `the second robot runs no pip:\n${second.logs.join('\n')}`);
  const tree = hit?.[1] ?? '';
  cacheDirs.add(tree);
  t.ok(existsSync(join(tree, 'wheel_app')), 'the shared files are the installed package');
  t.ok((runs[0]?.[2] ?? '').startsWith(`${tree}.build-`), 'which pip installed for the first robot');

  for (const p of [one, two]) {
    await p.client.startApp('wheel_app');
    t.equal((await p.client.currentAppStatus())?.info.name, 'wheel_app');
    await p.client.stopCurrentApp();
  }
});

t.test('a wheel with scripts is pip installed on each robot (their first line names the venv\'s python)', async (t) => {
  const path = makeApp(join(scratch.dir, 'src-scripts'), 'script_app', BODIES.cooperative, { marker: randomUUID() });
  appendFileSync(join(path, 'pyproject.toml'), '\n[project.scripts]\nscript-app-hello = "script_app.main:main"\n');
  const info = { name: 'script_app', source_kind: 'local' as const, description: '', url: null, extra: { path } };
  const pipInstall = / -m pip install .*--target /;
  for (const robot of ['robot-s1', 'robot-s2']) {
    const p = await daemonPair(join(scratch.dir, robot));
    pairs.push(p);
    const job = await p.client.install(info);
    t.ok(job.logs.some((l) => pipInstall.test(l)), `${robot} runs pip install:\n${job.logs.join('\n')}`);
    t.notOk(job.logs.some((l) => l.startsWith('Using the files pip installed earlier')), `${robot} copies nothing`);
    const tree = job.logs.map((l) => /--target (\S+)\.build-/.exec(l)?.[1]).find((w) => w !== undefined);
    if (tree) cacheDirs.add(`${tree}.not-shared`);
    const script = readFileSync(join(scratch.dir, robot, 'apps', 'script_app', readdirSync(join(scratch.dir, robot, 'apps', 'script_app'))[0] ?? '', 'bin', 'script-app-hello'), 'utf8');
    t.match(script.split('\n')[0], new RegExp(`^#!${join(scratch.dir, robot, 'venv', 'bin', 'python')}`), `${robot}'s script runs its own venv's python`);
  }
});
