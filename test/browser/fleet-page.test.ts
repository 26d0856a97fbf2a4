import t from 'tap';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { createReceiver } from '../../runtime/receiver/index.js';
import { mountFleetPage } from '../../runtime/fleet-page/routes.js';
import type { AgentStatus } from '../../reconciler/agent/status-types.js';
import { collectProblems, contrastProblems, horizontalOverflow, LAPTOP, launchChromium, PHONE, screenshotDir, skipWithoutChromium } from './browser.js';
import { drifted, healed } from './fleet-fixtures.js';

// The fleet page served as the agent serves it (receiver + mountFleetPage),
// fed a sequence of /status documents: drift on lab-1, then the heal.
t.test('fleet page shows a robot drift and then its heal', { skip: skipWithoutChromium }, async (t) => {
  let current: AgentStatus = drifted();
  const receiver = createReceiver({ port: 0, landingPage: null, secret: null, env: {}, log: () => {} });
  mountFleetPage(receiver);
  receiver.route('GET', '/status', (_req, res) => {
    const body = JSON.stringify({ ...current, generated_at: new Date().toISOString() });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
  });
  const { url } = await receiver.start();
  t.teardown(() => receiver.close());
  const browser: Browser = await launchChromium();
  t.teardown(() => browser.close());
  const shots = screenshotDir('fleet');

  const page = await browser.newPage({ viewport: LAPTOP });
  const problems = collectProblems(page);
  await page.goto(`${url}/`);
  const lab = page.locator('tr[data-robot="lab-1"]');
  await lab.waitFor();
  t.equal(await page.locator('#fleet-state').textContent(), 'Drift detected');
  t.equal(await lab.getAttribute('data-converged'), 'false');
  t.match(await lab.textContent(), /drifted/);
  t.match(await lab.textContent(), /app dev_app: not installed/);
  t.equal(await page.locator('tr[data-robot="desk"]').getAttribute('data-converged'), 'true');
  t.equal(await page.locator('#robots-count').textContent(), '(2, 2 reachable)');
  t.match(await page.locator('#deliveries').textContent(), /space:alice\/hello_app/);
  t.match(await page.locator('#run-summary').textContent(), /drift.*triggered by interval/);
  t.equal(await page.locator('tr[data-robot="desk"] a').getAttribute('href'), 'http://127.0.0.1:18001/');
  t.match(await page.locator('#announce').textContent(), /Drift detected on lab-1/);
  await page.screenshot({ path: join(shots, 'drift-laptop.png'), fullPage: true });
  t.same(await contrastProblems(page), [], 'all text has WCAG AA contrast (drift)');

  current = healed();
  await page.waitForFunction(() => document.querySelector('#fleet-state')?.textContent === 'Converged', undefined, { timeout: 10_000 });
  t.equal(await lab.getAttribute('data-converged'), 'true');
  t.match(await lab.textContent(), /converged/);
  t.equal(await page.locator('#actions tr').count(), 2);
  t.match(await page.locator('#actions').textContent(), /robots\.lab-1\.apps\.dev_app.*install.*ok/);
  t.equal(await page.locator('#run-summary').getAttribute('data-result'), 'converged');
  t.equal(await page.locator('#deliveries tr').count(), 2);
  t.equal(await page.locator('#deliveries tr').first().getAttribute('data-outcome'), 'rejected', 'newest delivery first');
  t.match(await page.locator('#announce').textContent(), /Converged/);
  await page.screenshot({ path: join(shots, 'healed-laptop.png'), fullPage: true });
  t.equal(await horizontalOverflow(page), 0, 'no horizontal scroll on a laptop');
  t.same(await contrastProblems(page), [], 'all text has WCAG AA contrast (healed)');

  // Keyboard: the skip link, then the pause toggle, reachable with Tab and used with Enter.
  await page.keyboard.press('Tab');
  t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
  t.equal(await page.evaluate(() => document.activeElement && getComputedStyle(document.activeElement).outlineStyle), 'solid', 'visible focus');
  await page.locator('#pause').focus();
  await page.keyboard.press('Enter');
  t.equal(await page.locator('#pause').getAttribute('aria-pressed'), 'true');
  t.equal(await page.locator('#connection').textContent(), 'paused');
  await page.keyboard.press('Enter');
  t.equal(await page.locator('#pause').getAttribute('aria-pressed'), 'false');

  await page.setViewportSize(PHONE);
  await page.screenshot({ path: join(shots, 'healed-phone.png'), fullPage: true });
  t.equal(await horizontalOverflow(page), 0, 'no horizontal scroll on a phone');
  t.same(problems, [], 'no page errors or failed requests');
  await page.close();
});

t.test('fleet page says when the agent is unreachable or speaks another format', { skip: skipWithoutChromium }, async (t) => {
  let answer: 'v3' | 'down' = 'v3';
  const receiver = createReceiver({ port: 0, landingPage: null, secret: null, env: {}, log: () => {} });
  mountFleetPage(receiver);
  receiver.route('GET', '/status', (_req, res) => {
    if (answer === 'down') { res.writeHead(503); res.end(); return; }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...healed(), format_version: '3.0' }));
  });
  const { url } = await receiver.start();
  t.teardown(() => receiver.close());
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage({ viewport: PHONE });
  await page.goto(`${url}/`);
  await page.waitForFunction(() => /unsupported status format 3\.0/.test(document.querySelector('#connection')?.textContent ?? ''));
  t.pass('an unknown format is refused with a message');
  answer = 'down';
  await page.waitForFunction(() => /agent unreachable \(HTTP 503\)/.test(document.querySelector('#connection')?.textContent ?? ''));
  t.pass('an unreachable agent is shown');
  await page.close();
});
