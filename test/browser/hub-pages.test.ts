import t from 'tap';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startHub } from '../../runtime/hub/server.js';
import { collectProblems, contrastProblems, horizontalOverflow, launchChromium, PHONE, screenshotDir, skipWithoutChromium } from './browser.js';

// The embedded hub's pages as a person opens them (issue 33 point 6, issue 34
// point 4): the root and a Space's page (the URL `App published: …` prints),
// at a laptop's 1280 px and a phone's 390 px, in Debian's Chromium.

const DEMO = { name: 'demo', token: 'hf_demo_local_token', fullname: 'Demo Person' };
const WIDTHS = [{ name: 'laptop', viewport: { width: 1280, height: 800 } }, { name: 'phone', viewport: PHONE }] as const;
const README = `---
title: hello_app
sdk: gradio
tags: [reachy_mini, reachy_mini_python_app]
---
# Hello app

A *small* app that waves an antenna. <script>document.title = 'pwned'</script>

| step | what |
|---|---|
| 1 | wake up |

\`\`\`python
print("a long line that would push a phone's page sideways if the code block did not scroll on its own ........")
\`\`\`

See [the guide](docs/guide.md).
`;

t.test('the root lists the repos; a Space page shows its README, files, commits and clone line at 1280 and 390 px', { skip: skipWithoutChromium }, async (t) => {
  const hub = await startHub({ users: [DEMO] });
  t.teardown(() => hub.close());
  await hub.createRepo('demo', 'space', 'demo/hello_app', { sdk: 'gradio' });
  await hub.commit('demo', 'space', 'demo/hello_app', { 'README.md': README, 'hello_app/main.py': 'print("hi")\n', [`hello_app/${'deeply_nested_folder_name/'.repeat(3)}file.py`]: '' }, 'Add the app');
  await hub.createRepo('demo', 'model', 'demo/secret', { private: true });
  const browser: Browser = await launchChromium();
  t.teardown(() => browser.close());
  const shots = screenshotDir('hub-pages');

  for (const { name, viewport } of WIDTHS) {
    const page = await browser.newPage({ viewport });
    // The private repo's page is a 404 on purpose: the browser logs it.
    const problems = collectProblems(page, [/status of 404/]);
    await page.goto(`${hub.url}/`);
    t.equal(await page.title(), 'robotctl hub', `${name}: the root`);
    t.match(await page.locator('main').textContent(), /Demo Person/);
    t.equal(await page.locator('main a[href="/spaces/demo/hello_app"]').count(), 1, `${name}: the root links the Space`);
    t.equal(await page.locator('main').getByText('demo/secret').count(), 0, `${name}: a private repo is not listed`);
    t.equal(await horizontalOverflow(page), 0, `${name}: the root fits the width`);
    t.same(await contrastProblems(page), [], `${name}: the root's text contrast`);
    await page.screenshot({ path: join(shots, `root-${name}.png`), fullPage: true });

    await page.goto(`${hub.url}/spaces/demo/hello_app`);
    t.equal(await page.title(), 'demo/hello_app · robotctl hub');
    t.equal(await page.locator('.markdown h1').textContent(), 'Hello app', `${name}: the README rendered`);
    t.match(await page.locator('.markdown').textContent(), /<script>/, `${name}: raw HTML shows as text`);
    t.equal(await page.locator('.markdown table td').first().textContent(), '1', `${name}: a table`);
    t.equal(await page.locator('.markdown a').getAttribute('href'), `/spaces/demo/hello_app/resolve/${(await (await fetch(`${hub.url}/api/spaces/demo/hello_app`)).json() as { sha: string }).sha}/docs/guide.md`, `${name}: a relative link points at the repo's file`);
    t.equal(await page.locator('#files-title').textContent(), 'Files (4)');
    t.match(await page.locator('[aria-labelledby="commits-title"]').textContent(), /Add the app.*Demo Person/s, `${name}: the last commits`);
    t.equal(await page.locator('.clone').textContent(), `git clone ${hub.url}/spaces/demo/hello_app`, `${name}: the clone command`);
    t.same(await page.locator('.tags li').allTextContents(), ['reachy_mini', 'reachy_mini_python_app', 'gradio']);
    t.equal(await horizontalOverflow(page), 0, `${name}: the Space page fits the width`);
    t.same(await contrastProblems(page), [], `${name}: the Space page's text contrast`);
    await page.screenshot({ path: join(shots, `space-${name}.png`), fullPage: true });

    // A file link downloads the file.
    const file = await page.request.get(`${hub.url}${await page.locator('a.name', { hasText: 'hello_app/main.py' }).getAttribute('href') ?? ''}`);
    t.equal(await file.text(), 'print("hi")\n');

    const missing = await page.goto(`${hub.url}/demo/secret`);
    t.equal(missing?.status(), 404, `${name}: a private repo's page is a 404 (pages have no login)`);
    t.match(await page.locator('main').textContent(), /no public model demo\/secret/);
    t.same(problems, [], `${name}: no page error, no failed request`);
    await page.close();
  }
});
