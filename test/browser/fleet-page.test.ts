import t from 'tap';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { createReceiver } from '../../runtime/receiver/index.js';
import { mountFleetPage } from '../../runtime/fleet-page/routes.js';
import type { AgentStatus } from '../../reconciler/agent/status-types.js';
import { collectProblems, contrastProblems, horizontalOverflow, LAPTOP, launchChromium, PHONE, screenshotDir, skipWithoutChromium } from './browser.js';
import { brokenFile, drifted, healed, HELLO_SHA, robotUrls, rolling, updatingDaemons } from './fleet-fixtures.js';
import { startDaemon } from '../../runtime/daemon/server.js';

// The fleet page served as the agent serves it (receiver + mountFleetPage),
// fed a sequence of /status documents: drift on lab-1, then the heal.
t.test('fleet page shows a robot drift and then its heal', { skip: skipWithoutChromium }, async (t) => {
  // desk is a real simulated robot: its card draws it from its own state stream.
  const desk = await startDaemon({ sim: true, port: 0, appsDir: t.testdir(), robotName: 'desk' });
  t.teardown(() => desk.close());
  robotUrls.desk = desk.url;
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
  // lab-1 is not a real robot here: its drawing's socket is refused, and says so.
  const problems = collectProblems(page, [/WebSocket connection to 'ws:\/\/127\.0\.0\.1:18002\/api\/state\/ws\/full/]);
  await page.goto(`${url}/`);
  const lab = page.locator('.robot-card[data-robot="lab-1"]');
  await lab.waitFor();
  t.equal(await page.locator('#fleet-state').textContent(), 'Drift detected');
  t.equal(await lab.getAttribute('data-converged'), 'false');
  t.match(await lab.textContent(), /drifted/);
  t.match(await lab.textContent(), /app dev_app: not installed/);
  // Issue 30.1/30.2/30.5: the robot's own words for a crash and a failed install, and its startup app.
  t.match(await lab.textContent(), /hello_app crashed: RuntimeError: hello_app boom on purpose/);
  t.match(await lab.textContent(), /ERROR: Package 'dev-app' requires a different Python/);
  t.match(await lab.textContent(), /starts hello_app at boot/);
  t.equal(await page.locator('.robot-card[data-robot="desk"]').getAttribute('data-converged'), 'true');
  // Each app with its installed revision; a path app says so.
  t.equal(await page.locator('.robot-card[data-robot="desk"] [data-app="hello_app"] .rev').textContent(), HELLO_SHA.slice(0, 7));
  t.equal(await page.locator('.robot-card[data-robot="desk"] [data-app="hello_app"] .rev').getAttribute('title'), HELLO_SHA);
  t.equal(await page.locator('.robot-card[data-robot="desk"] [data-app="dev_app"] .rev').textContent(), 'local');
  // The live drawing follows the robot: wake_up moves its head.
  await page.waitForFunction(() => document.querySelector('.robot-card[data-robot="desk"] .live')?.textContent === 'live', undefined, { timeout: 15_000 });
  const head = page.locator('.robot-card[data-robot="desk"] svg g').nth(1);
  const before = await head.getAttribute('transform');
  await fetch(`${desk.url}/api/move/play/wake_up`, { method: 'POST' });
  await page.waitForFunction(([was]) => document.querySelectorAll('.robot-card[data-robot="desk"] svg g')[1]?.getAttribute('transform') !== was, [before] as const, { timeout: 15_000 });
  t.pass('the drawing moves with the robot');
  t.equal(await page.locator('.robot-card[data-robot="lab-1"] .live').textContent(), 'offline', 'a robot that cannot be reached is drawn offline');
  // The receiver's endpoints, as URLs on this server, with what to do with them.
  t.equal(await page.locator('#receiver-endpoints li').textContent(), `POST ${url}/webhooks/redeploy-apps reconcile`);
  t.equal(await page.locator('#receiver-help').isVisible(), true);
  t.equal(await page.locator('#robots-count').textContent(), '(2, 2 reachable)');
  t.match(await page.locator('#deliveries').textContent(), /space:alice\/hello_app/);
  t.match(await page.locator('#run-summary').textContent(), /drift.*triggered by interval/);
  t.equal(await page.locator('.robot-card[data-robot="desk"] a').getAttribute('href'), `${desk.url}/`);
  t.match(await page.locator('#announce').textContent(), /Drift detected on lab-1/);
  await page.screenshot({ path: join(shots, 'drift-laptop.png'), fullPage: true });
  t.same(await contrastProblems(page), [], 'all text has WCAG AA contrast (drift)');

  current = healed();
  await page.waitForFunction(() => document.querySelector('#fleet-state')?.textContent === 'Converged', undefined, { timeout: 10_000 });
  t.equal(await lab.getAttribute('data-converged'), 'true');
  t.match(await lab.textContent(), /converged/);
  t.equal(await page.locator('#runs tr').count(), 2, 'the history lists both applies');
  t.equal(await page.locator('#runs tr').first().getAttribute('data-result'), 'converged', 'newest apply first');
  t.equal(await page.locator('#actions tr').count(), 2);
  t.match(await page.locator('#actions').textContent(), /robots\.lab-1\.apps\.dev_app.*install.*ok/);
  t.equal(await page.locator('#run-summary').getAttribute('data-result'), 'converged');
  t.equal(await page.locator('#deliveries tr').count(), 2);
  t.equal(await page.locator('#deliveries tr').first().getAttribute('data-outcome'), 'rejected', 'newest delivery first');
  t.match(await page.locator('#announce').textContent(), /Converged/);
  await page.screenshot({ path: join(shots, 'healed-laptop.png'), fullPage: true });
  t.equal(await horizontalOverflow(page), 0, 'no horizontal scroll on a laptop');
  t.same(await contrastProblems(page), [], 'all text has WCAG AA contrast (healed)');

  // An apply in progress: the canary wave first, a bar per robot, failures against max_failures.
  current = rolling();
  await page.waitForFunction(() => document.querySelector('#fleet-state')?.textContent === 'Applying…', undefined, { timeout: 10_000 });
  t.equal(await page.locator('#rollout').isVisible(), true);
  t.same(await page.locator('.wave h3').allTextContents(), ['Wave 1: canary', 'Wave 2']);
  t.equal(await page.locator('.bar-row[data-robot="desk"]').getAttribute('data-state'), 'ok');
  t.equal(await page.locator('.bar-row[data-robot="lab-1"]').getAttribute('data-state'), 'running');
  t.equal(await page.locator('.bar-row[data-robot="lab-1"] progress').getAttribute('value'), '1');
  t.equal(await page.locator('.bar-row[data-robot="lab-1"] .bar-count').textContent(), '1/3');
  t.equal(await page.locator('#rollout-failures').textContent(), '0 failed of max_failures 1');
  // Each card says what its robot does in the rollout (issue 32).
  t.equal(await page.locator('li.robot-card[data-robot="lab-1"] .robot-state').textContent(), 'converged checking health (4 s of 10)');
  t.equal(await page.locator('li.robot-card[data-robot="desk"] .robot-state .pill').count(), 1, 'a robot done with its wave shows no phase');
  await page.screenshot({ path: join(shots, 'rollout-laptop.png'), fullPage: true });
  t.same(await contrastProblems(page), [], 'all text has WCAG AA contrast (rollout)');

  // A daemon update rolling out like an app: wave, bar per robot, what it does and its log's tail; each card's daemon, name, id, startup app.
  current = updatingDaemons();
  await page.waitForFunction(() => document.querySelector('.bar-item[data-robot="lab-1"] .bar-step') !== null, undefined, { timeout: 10_000 });
  t.equal(await page.locator('.bar-item[data-robot="lab-1"] .bar-step').textContent(), 'update daemon 1.9.0 → 1.10.0');
  t.equal(await page.locator('.bar-item[data-robot="lab-1"] .log-tail').textContent(),
    '    Found existing installation: reachy-mini 1.9.0\nSuccessfully installed reachy-mini-1.10.0\nUpdating apps_venv SDK...\nRunning: sudo systemctl restart reachy-mini-daemon');
  t.equal(await page.locator('.bar-row[data-robot="lab-1"] .bar-count').textContent(), '0/2');
  const labMeta = page.locator('.robot-card[data-robot="lab-1"] .robot-meta');
  t.equal(await labMeta.locator('[data-field="daemon"]').textContent(), '1.9.0 → 1.10.0 (robot.yaml)', 'the declared release while they differ');
  const deskMeta = page.locator('.robot-card[data-robot="desk"] .robot-meta');
  t.equal(await deskMeta.locator('[data-field="daemon"]').textContent(), '1.10.0', 'only what runs once it is as declared');
  t.equal(await deskMeta.locator('[data-field="robot-name"]').textContent(), 'Desk one');
  t.equal(await deskMeta.locator('[data-field="hardware-id"]').textContent(), 'a1c4e5f60718293a');
  t.equal(await deskMeta.locator('[data-field="startup-app"]').textContent(), 'hello_app');
  t.equal(await labMeta.locator('[data-field="startup-app"]').textContent(), 'none');
  await page.screenshot({ path: join(shots, 'daemon-update-laptop.png'), fullPage: true });
  t.same(await contrastProblems(page), [], 'all text has WCAG AA contrast (daemon update)');
  await page.setViewportSize(PHONE);
  t.equal(await horizontalOverflow(page), 0, 'no horizontal scroll on a phone (daemon update)');
  await page.setViewportSize(LAPTOP);

  // A broken robot.yaml: the header says so instead of a green "Converged".
  current = brokenFile();
  await page.waitForFunction(() => document.querySelector('#fleet-state')?.textContent === 'Config error', undefined, { timeout: 10_000 });
  t.equal(await page.locator('#fleet-state').getAttribute('data-state'), 'config-error');
  t.match(await page.locator('#config-error').textContent(), /could not be loaded \(the last good version is in use\): robot\.yaml:4:3/);
  await page.screenshot({ path: join(shots, 'config-error-laptop.png'), fullPage: true });
  current = healed();
  await page.waitForFunction(() => document.querySelector('#fleet-state')?.textContent === 'Converged', undefined, { timeout: 10_000 });

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
