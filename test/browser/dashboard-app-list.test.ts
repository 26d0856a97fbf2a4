import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { appFiles, makeApp, QUIET_BODY } from '../helpers/python-apps.js';
import { embeddedHub, simDaemon } from '../helpers/servers.js';
import { launchChromium, PHONE, screenshotDir, skipWithoutChromium } from './browser.js';

// The robot dashboard's installed apps (issue 34.8): each app's Start and
// Remove buttons stay where they are, whatever the length of its source,
// and the list keeps its order when an app is installed again (the daemon
// lists apps in the order it finds them on disk, which a reinstall changes).

const DESKTOP = { width: 1280, height: 800 } as const;

interface Row { app: string; start: number; remove: number; startTop: number; rowTop: number; nameBottom: number }

async function rows(page: Page): Promise<Row[]> {
  return page.locator('#installed-list li').evaluateAll((lis) => lis.map((li) => {
    const box = (sel: string) => (li.querySelector(sel) as HTMLElement).getBoundingClientRect();
    const row = li.getBoundingClientRect();
    return { app: (li as HTMLElement).dataset.app ?? '', start: box('button[aria-label^="Start"]').left, remove: box('button[aria-label^="Remove"]').left,
      startTop: box('button[aria-label^="Start"]').top, rowTop: row.top, nameBottom: box('.app-name').bottom };
  }));
}

t.test('Start and Remove stay in place per app, at 1280 and 390 px, and after a reinstall', { skip: skipWithoutChromium }, async (t) => {
  const dir = t.testdir();
  // Sources of every length: a Space URL (as up's robots show), a deep folder, a short one.
  const hub = await embeddedHub(t, {});
  await hub.createRepo('demo', 'space', 'demo/a_space_app_with_a_long_name', { sdk: 'static' });
  await hub.commit('demo', 'space', 'demo/a_space_app_with_a_long_name', appFiles('a_space_app_with_a_long_name', QUIET_BODY), 'first version');
  const daemon = await simDaemon(t, join(dir, 'apps'), { robotName: 'desk', hubEndpoint: hub.url });
  const client = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 120_000 });
  t.teardown(() => client.close());
  const long = join(dir, 'a-folder-with-a-long-name-as-a-real-project-would-have', 'and-another-level-below-it');
  const short = mkdtempSync(join(tmpdir(), 'r-'));
  t.teardown(() => rmSync(short, { recursive: true, force: true }));
  const folders = { b_app: makeApp(long, 'b_app', QUIET_BODY), c_app: makeApp(short, 'c_app', QUIET_BODY) };
  const install = async (name: 'a_space_app_with_a_long_name' | keyof typeof folders): Promise<void> => {
    if (name === 'a_space_app_with_a_long_name') {
      await client.install({ name, source_kind: 'hf_space', description: '', url: `${hub.url}/spaces/demo/${name}`, extra: {} });
    } else {
      await client.install({ name, source_kind: 'local', description: '', url: null, extra: { path: folders[name] } });
    }
  };
  for (const name of ['c_app', 'a_space_app_with_a_long_name', 'b_app'] as const) await install(name);

  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const shots = screenshotDir('dashboard-app-list');
  const page = await browser.newPage({ viewport: DESKTOP });
  await page.goto(`${daemon.url}/`);
  await page.locator('#installed-list li[data-app="c_app"]').waitFor();

  for (const [label, size] of [['1280', DESKTOP], ['390', PHONE]] as const) {
    await page.setViewportSize(size);
    const r = await rows(page);
    t.same(r.map((x) => x.app), ['a_space_app_with_a_long_name', 'b_app', 'c_app'], `${label} px: by name`);
    t.match(await page.locator('#installed-list li[data-app="b_app"] .source').textContent(), `local: ${folders.b_app}`, 'a local install shows its folder');
    const starts = new Set(r.map((x) => Math.round(x.start)));
    const removes = new Set(r.map((x) => Math.round(x.remove)));
    t.equal(starts.size, 1, `${label} px: every Start button at the same x (${[...starts].join(', ')})`);
    t.equal(removes.size, 1, `${label} px: every Remove button at the same x (${[...removes].join(', ')})`);
    for (const x of r) t.ok(x.startTop >= x.rowTop && x.startTop < x.nameBottom, `${label} px: ${x.app}'s buttons are beside its name, not below its source`);
    t.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, `${label} px: no horizontal scroll`);
    await page.screenshot({ path: join(shots, `list-${label}.png`), fullPage: true });
  }

  // Installed again (a redeploy does this): the order and the places do not move.
  await page.setViewportSize(DESKTOP);
  const before = await rows(page);
  await install('a_space_app_with_a_long_name');
  await install('b_app');
  await page.reload();
  await page.locator('#installed-list li[data-app="c_app"]').waitFor();
  const after = await rows(page);
  t.same(after.map((x) => [x.app, Math.round(x.start), Math.round(x.remove)]), before.map((x) => [x.app, Math.round(x.start), Math.round(x.remove)]), 'same rows, same places');
});
