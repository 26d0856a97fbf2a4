import t from 'tap';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedCache } from '../../runtime/daemon/installed-cache.js';
import type { InstalledApp } from '../../runtime/daemon/apps/store.js';

// The daemon's installed-apps list is read again only when a folder it comes
// from changed (runtime/daemon/installed-cache.ts), and never trusted within
// moments of a change (file times are coarse).

function app(name: string, location: string): InstalledApp {
  return { name, entry: { name, module: `${name}.main`, attr: 'App', dist: name, location }, record: null };
}

/** Sets a folder's times a minute in the past plus `tick` seconds: settled, and distinct per tick. */
function settle(dir: string, tick = 0): void {
  const when = Date.now() / 1000 - 60 + tick;
  utimesSync(dir, when, when);
}

t.test('served from memory until a folder changes; a fresh change is read every time', async (t) => {
  const root = t.testdir();
  const site = join(root, 'venv', 'site-packages');
  const version = join(root, 'apps', 'hello', 'v1');
  for (const d of [join(root, 'meta'), site, version]) mkdirSync(d, { recursive: true });
  for (const d of [join(root, 'meta'), site, version]) settle(d);
  let reads = 0;
  let apps = [app('hello', version)];
  const installed = installedCache(root, async () => site, async () => { reads++; return apps; });

  t.same(await installed(), apps);
  t.same(await installed(), apps);
  t.equal(reads, 1, 'unchanged folders: read once');

  writeFileSync(join(root, 'meta', 'other.json'), '{}');
  settle(join(root, 'meta'), 1);
  apps = [app('hello', version), app('other', site)];
  t.same(await installed(), apps, 'a new record is seen');
  t.equal(reads, 2);

  writeFileSync(join(version, 'entry_points.txt'), '');
  settle(version, 2);
  await installed();
  t.equal(reads, 3, 'a change inside an installed version folder is seen');

  writeFileSync(join(site, 'robotctl-app-x.pth'), '');
  await installed();
  await installed();
  t.equal(reads, 5, 'site-packages changed just now: not trusted, read each time');
  settle(site, 3);
  await installed();
  await installed();
  t.equal(reads, 6, 'once settled, kept again');
});

t.test('no venv: an empty list, still cached by the records folder', async (t) => {
  const root = t.testdir();
  mkdirSync(join(root, 'meta'));
  settle(join(root, 'meta'));
  let reads = 0;
  const installed = installedCache(root, async () => null, async () => { reads++; return []; });
  t.same(await installed(), []);
  t.same(await installed(), []);
  t.equal(reads, 1);
});
