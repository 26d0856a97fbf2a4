import t from 'tap';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createReceiver } from '../../runtime/receiver/index.js';
import { mountFleetPage } from '../../runtime/fleet-page/routes.js';
import { brokenFile } from './fleet-fixtures.js';
import { horizontalOverflow, launchChromium, PHONE, screenshotDir, skipWithoutChromium } from './browser.js';

// Issue 34.8: at phone width the webhook's hub id stays inside its card, and
// the config-error banner shows the whole file position (a long path with no
// space used to run out of the page). Checked at 1280 and 390 px wide.

const DESKTOP = { width: 1280, height: 800 } as const;
const WHERE = '/home/someone/projects/reachyminifleetconfiguration/examples/fleet.yaml:12:5';

/** The box of `text` inside `selector`, from a DOM Range (where it is drawn, lines included). */
async function textBox(page: Page, selector: string, text: string): Promise<{ left: number; right: number; top: number; bottom: number } | null> {
  return page.evaluate(([sel, needle]) => {
    const el = document.querySelector(sel);
    const node = el?.firstChild;
    const at = node?.textContent?.indexOf(needle) ?? -1;
    if (!node || at < 0) return null;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + needle.length);
    const r = range.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  }, [selector, text] as const);
}

t.test('fleet page at 1280 and 390 px: the hub id inside its card, the whole file position in the config-error banner', { skip: skipWithoutChromium }, async (t) => {
  const status = brokenFile();
  status.config_error = `${WHERE}: robots.desk: unknown key 'activ'; did you mean 'active'?`;
  const receiver = createReceiver({ port: 0, landingPage: null, secret: null, env: {}, log: () => {} });
  mountFleetPage(receiver);
  receiver.route('GET', '/status', (_req, res) => {
    const body = JSON.stringify({ ...status, generated_at: new Date().toISOString() });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
  });
  const { url } = await receiver.start();
  t.teardown(() => receiver.close());
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const shots = screenshotDir('fleet-narrow');
  const page = await browser.newPage({ viewport: DESKTOP });
  await page.goto(`${url}/`);
  await page.waitForFunction(() => document.querySelector('#fleet-state')?.textContent === 'Config error');

  for (const [label, size] of [['1280', DESKTOP], ['390', PHONE]] as const) {
    await page.setViewportSize(size);
    const width = size.width;
    // The banner: the file position is drawn, whole, inside the page and the banner.
    const banner = await page.locator('#config-error').boundingBox();
    const where = await textBox(page, '#config-error', WHERE);
    t.ok(banner && where, `${label} px: the banner and its file position are drawn`);
    if (banner && where) {
      t.ok(banner.x >= 0 && banner.x + banner.width <= width, `${label} px: the banner fits the page (${banner.x}..${banner.x + banner.width} of ${width})`);
      t.ok(where.left >= banner.x && where.right <= banner.x + banner.width + 0.5, `${label} px: the file position is inside the banner`);
    }
    t.equal(await page.locator('#config-error').evaluate((el) => el.scrollWidth - el.clientWidth), 0, `${label} px: nothing of the banner is cut`);
    // The hub id: inside the webhooks card, which does not scroll sideways.
    const card = page.locator('section[aria-labelledby="hub-title"]');
    const cardBox = await card.boundingBox();
    const id = await page.locator('#webhooks code').first().boundingBox();
    t.ok(cardBox && id && id.x >= cardBox.x && id.x + id.width <= cardBox.x + cardBox.width,
      `${label} px: the hub id (${id?.x}..${(id?.x ?? 0) + (id?.width ?? 0)}) is inside its card (${cardBox?.x}..${(cardBox?.x ?? 0) + (cardBox?.width ?? 0)})`);
    t.equal(await card.evaluate((el) => el.scrollWidth - el.clientWidth), 0, `${label} px: the card does not scroll sideways`);
    t.equal(await page.locator('#webhooks code').first().textContent(), '6650f0c1a2b3c4d5e6f70812', 'the whole id is shown');
    t.equal(await horizontalOverflow(page), 0, `${label} px: no horizontal scroll`);
    await page.screenshot({ path: join(shots, `config-error-${label}.png`), fullPage: true });
  }
});
