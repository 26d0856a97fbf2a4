import t from 'tap';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { pruneCache } from '../../lib/python-apps/files.js';
import { copiedFrom, KEPT } from '../../runtime/daemon/apps/installed-tree.js';
import { BODIES, makeApp } from '../helpers/python-apps.js';
import { closePair, daemonPair } from '../helpers/servers.js';
import { fileScratch } from '../helpers/file-scratch.js';

// Issue 29.10: the daemon's `robotctl-installed-*` trees (what pip installed
// from each source revision, shared by the robots of a machine) piled up in
// the temp folder, one per revision ever installed. They are now bounded:
// the KEPT most recently used stay, entries unused for a day go, and a build
// still in progress is left alone.

const MIN = 60_000;

/** A folder named name in dir, last used `ago` ms before now. */
function entry(dir: string, name: string, ago: number): string {
  const path = join(dir, name);
  mkdirSync(join(path, 'pkg'), { recursive: true });
  const at = new Date(Date.now() - ago);
  utimesSync(path, at, at);
  return path;
}

/** Runs fn with os.tmpdir() answering dir (it reads TMPDIR at every call). */
async function inTmp<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}

t.test('pruneCache keeps the most recently used, drops a day-old entry and an aborted build, leaves others alone', async (t) => {
  const dir = t.testdir();
  for (let i = 0; i < 12; i++) entry(dir, `robotctl-x-${String(i).padStart(2, '0')}`, (i + 1) * MIN);
  const kept = entry(dir, 'robotctl-x-kept', 100 * MIN);
  entry(dir, 'robotctl-x-stale', 25 * 60 * MIN);
  entry(dir, 'robotctl-x-01.build-123-abcd', 5 * MIN);
  entry(dir, 'robotctl-x-02.build-456-abcd', 25 * 60 * MIN);
  entry(dir, 'robotctl-other-old', 50 * 60 * MIN);
  await inTmp(dir, () => pruneCache('robotctl-x-', kept, 5));
  t.same(readdirSync(dir).sort(), [
    'robotctl-other-old',
    'robotctl-x-00', 'robotctl-x-01', 'robotctl-x-01.build-123-abcd', 'robotctl-x-02', 'robotctl-x-03',
    'robotctl-x-kept',
  ], 'the four most recent and the one just used (5), a build in progress, another cache\'s entry');
});

t.test('an install that adds a tree bounds the machine\'s trees', async (t) => {
  const scratch = fileScratch('installed-tree');
  const tmp = join(scratch.dir, 'tmp');
  mkdirSync(tmp);
  // The venv is made (from the suite's template) before the temp folder is switched.
  const pair = await daemonPair(join(scratch.dir, 'robot'));
  t.teardown(async () => {
    await closePair(pair);
    scratch.remove();
  });
  const first = makeApp(join(scratch.dir, 'src-1'), 'tree_app', BODIES.cooperative, { marker: randomUUID() });
  const install = (path: string) => pair.client.install({ name: 'tree_app', source_kind: 'local', description: '', url: null, extra: { path } });
  t.equal((await install(first)).status, 'done');

  const old = Array.from({ length: KEPT + 8 }, (_, i) => entry(tmp, `robotctl-installed-old${String(i).padStart(2, '0')}`, (i + 1) * MIN));
  const second = makeApp(join(scratch.dir, 'src-2'), 'tree_app', BODIES.cooperative, { marker: randomUUID() });
  const job = await inTmp(tmp, () => install(second));
  t.equal(job.status, 'done', job.logs.join('\n'));
  const trees = readdirSync(tmp).filter((n) => n.startsWith('robotctl-installed-') && !n.includes('.build-'));
  t.equal(trees.length, KEPT, `${KEPT} trees kept`);
  t.ok(trees.some((n) => !n.startsWith('robotctl-installed-old')), 'the new tree among them');
  t.same(old.slice(KEPT - 1).filter(existsSync), [], 'the least recently used old ones went');
  t.ok(old.slice(0, KEPT - 1).every(existsSync), 'the most recent old ones stayed');
  await pair.client.startApp('tree_app');
  t.equal((await pair.client.currentAppStatus())?.info.name, 'tree_app', 'the new version runs');
  await pair.client.stopCurrentApp();
});

t.test('a tree another robot\'s pruning removed before the copy is not an error: the install falls back to pip', async (t) => {
  const dir = t.testdir({ tree: { pkg: { '__init__.py': '' } } });
  t.equal(await copiedFrom(join(dir, 'tree'), join(dir, 'a')), true);
  t.ok(existsSync(join(dir, 'a', 'pkg', '__init__.py')));
  t.equal(await copiedFrom(join(dir, 'gone'), join(dir, 'b')), false, 'gone: the caller runs pip');
  await t.rejects(copiedFrom(join(dir, 'tree'), join(dir, 'a')), 'any other failure (here: files already there) is an error');
});
