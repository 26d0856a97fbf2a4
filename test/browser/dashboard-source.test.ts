import t from 'tap';
import { join } from 'node:path';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { BODIES, makeApp, treeFiles } from '../helpers/python-apps.js';
import { embeddedHub, simDaemon } from '../helpers/servers.js';
import { launchChromium, LAPTOP, skipWithoutChromium } from './browser.js';

// The robot dashboard names the real source of an app: a robot of `up`
// installs `https://huggingface.co/spaces/demo/<app>` from the embedded hub,
// and its page must show that hub's Space, not huggingface.co (issue 15 item 6).

t.test('an app installed from the embedded hub shows that hub as its source', { skip: skipWithoutChromium }, async (t) => {
  const dir = t.testdir();
  const hub = await embeddedHub(t, {});
  await hub.createRepo('demo', 'space', 'demo/src_app', { sdk: 'static' });
  await hub.commit('demo', 'space', 'demo/src_app', treeFiles(makeApp(join(dir, 'src'), 'src_app', BODIES.cooperative)));
  const daemon = await simDaemon(t, join(dir, 'apps'), { hubEndpoint: hub.url, robotName: 'desk' });
  const client = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 120_000 });
  t.teardown(() => client.close());
  await client.install({ name: 'src_app', source_kind: 'hf_space', description: '', url: 'https://huggingface.co/spaces/demo/src_app', extra: {} });

  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage({ viewport: LAPTOP });
  await page.goto(`${daemon.url}/`);
  const source = page.locator('#installed-list li[data-app="src_app"] .source');
  await source.waitFor();
  t.equal(await source.textContent(), `${hub.url}/spaces/demo/src_app`);
  await page.close();
});
