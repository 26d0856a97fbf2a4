import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startDaemon } from '../../runtime/daemon/server.js';
import { collectProblems, contrastProblems, horizontalOverflow, LAPTOP, launchChromium, PHONE, screenshotDir, skipWithoutChromium } from './browser.js';
import { repoRoot } from '../helpers/cli.js';
import { hostname } from 'node:os';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { agentUserAgent } from '../../cli/commands/agent.js';

const example = (name: string): string => join(repoRoot, 'examples', 'apps', name);

// The robot dashboard served by a real simulated daemon, driven like a user:
// install from a path, start, watch the robot move, stop, crash, remove.

const text = async (page: Page, sel: string): Promise<string> => (await page.locator(sel).textContent()) ?? '';

async function waitText(page: Page, sel: string, re: RegExp, timeout = 30_000): Promise<void> {
  await page.waitForFunction(([s, src]) => new RegExp(src).test(document.querySelector(s)?.textContent ?? ''), [sel, re.source] as const, { timeout });
}

/** custom_app_url of an app as the daemon reports it (current status or installed list), if at all. */
async function customAppUrl(base: string, name: string): Promise<string | null> {
  const pick = (info: unknown): string | null => {
    const extra = info && typeof info === 'object' ? (info as { extra?: unknown }).extra : null;
    const url = extra && typeof extra === 'object' ? (extra as { custom_app_url?: unknown }).custom_app_url : null;
    return typeof url === 'string' ? url : null;
  };
  const status: unknown = await (await fetch(`${base}/api/apps/current-app-status`)).json();
  const installed: unknown = await (await fetch(`${base}/api/apps/list-available/installed`)).json();
  const entry = Array.isArray(installed) ? installed.find((a: unknown) => (a as { name?: unknown }).name === name) : null;
  return pick(status && typeof status === 'object' ? (status as { info?: unknown }).info : null) ?? pick(entry);
}

async function installFromPath(page: Page, path: string, name: string): Promise<void> {
  await page.locator('input[name="kind"][value="local"]').check();
  await page.locator('#install-source').fill(path);
  await page.locator('#install-submit').click();
  await waitText(page, '#job-status', /^(done|failed)$/, 90_000);
  await page.locator(`#installed-list li[data-app="${name}"]`).waitFor();
}

t.test('robot dashboard: install, start, live view, refusal, stop, crash, remove', { skip: skipWithoutChromium }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'robotctl-dash-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const daemon = await startDaemon({ sim: true, port: 0, appsDir: join(dir, 'apps'), stopTimeoutMs: 5000, robotName: 'desk' });
  t.teardown(() => daemon.close());
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const shots = screenshotDir('dashboard');
  const page = await browser.newPage({ viewport: LAPTOP });
  const problems = collectProblems(page, [/status of 400/]);

  // First paint: until the daemon has answered, the page says it is loading,
  // never "No app running" or "No app installed yet".
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => { release = resolve; });
  await page.route(/\/api\/apps\/(current-app-status|list-available\/installed)$/, async (route) => { await held; await route.continue(); });
  await page.goto(`${daemon.url}/`);
  t.equal(await text(page, '#current-name'), 'Loading…', 'the current app is loading, not "No app running"');
  t.equal(await text(page, '#current-state'), 'loading');
  t.equal(await text(page, '#installed-empty'), 'Loading installed apps…', 'the list is loading, not empty');
  release(); // later requests pass straight through
  await waitText(page, '#installed-empty', /^No app installed yet\.$/);
  await waitText(page, '#daemon-state', /^running$/);
  t.equal(await text(page, '#robot-name'), 'desk');
  t.equal(await text(page, '#daemon-mode'), 'simulated robot');
  await waitText(page, '#stream-mode', /live \(WebSocket\)/);
  t.equal(await text(page, '#current-name'), 'No app running');

  // An empty install form is refused in the page, before any request.
  await page.locator('#install-submit').click();
  await waitText(page, '#messages', /Enter the URL of the Space/);
  t.equal(await page.locator('#install-source').getAttribute('aria-invalid'), 'true');

  // Install from a local path; the job log streams into the page.
  const hello = example('hello_app');
  await installFromPath(page, hello, 'hello_app');
  t.equal(await text(page, '#job-status'), 'done');
  t.match(await text(page, '#job-log'), /completed successfully/);
  t.match(await text(page, '#messages'), /install of hello_app finished/);

  // Start with the keyboard: the Start button is a real, focusable button.
  await page.locator('button[aria-label="Start hello_app"]').focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  t.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Start hello_app');
  t.equal(await page.evaluate(() => document.activeElement && getComputedStyle(document.activeElement).outlineStyle), 'solid', 'visible focus');
  await page.keyboard.press('Enter');
  await waitText(page, '#current-state', /^running$/);
  t.equal(await text(page, '#current-name'), 'hello_app');
  t.equal(await page.locator('#stop-app').isEnabled(), true);
  // What the running app prints is streamed into its log panel.
  await waitText(page, '#current-output', /Starting app hello_app/);
  t.equal(await page.locator('#current-output-box').isVisible(), true, 'the output panel is shown');

  // The live view moves: the head yaw shown changes over time.
  const seen = new Set<string>();
  for (let i = 0; i < 10 && seen.size < 3; i++) {
    seen.add(await text(page, '#head-yaw'));
    await page.waitForTimeout(200);
  }
  t.ok(seen.size >= 3, `head yaw changes while the app runs (${[...seen].join(', ')})`);
  t.match(await text(page, '#stream-rate'), /\d+ updates\/s/);
  const headTransform = await page.locator('#robot-svg g').nth(1).getAttribute('transform');
  t.match(headTransform ?? '', /translate\(.+\) rotate\(/, 'the drawing is transformed by the pose');

  // The ⚙ link to the app's own UI, when the daemon knows its custom_app_url.
  const custom = await customAppUrl(daemon.url, 'hello_app');
  // Each app gets its own settings port from the daemon (several robots on one machine), reported as its custom_app_url.
  t.match(custom ?? '', /^http:\/\/0\.0\.0\.0:\d+$/, 'the daemon reports the settings URL it gave hello_app');
  t.not(custom, 'http://0.0.0.0:8042', 'not the fixed 8042 that would collide between robots');
  const gear = page.locator('#current-settings');
  t.equal(await gear.isVisible(), true, 'settings icon shown');
  t.equal(await gear.getAttribute('href'), new URL((custom ?? '').replace('0.0.0.0', '127.0.0.1')).href);
  t.equal(await gear.getAttribute('aria-label'), 'Open the settings of hello_app');

  // A refusal in the daemon's own words, in the aria-live region.
  await page.locator('button[aria-label="Start hello_app"]').click();
  await waitText(page, '#messages', /An app is already running/);
  t.equal(await page.locator('#messages').getAttribute('aria-live'), 'polite');
  await page.screenshot({ path: join(shots, 'running-laptop.png'), fullPage: true });
  t.equal(await horizontalOverflow(page), 0, 'no horizontal scroll on a laptop');
  t.same(await contrastProblems(page), [], 'all text has WCAG AA contrast');
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: join(shots, 'running-phone.png'), fullPage: true });
  t.equal(await horizontalOverflow(page), 0, 'no horizontal scroll on a phone');
  await page.setViewportSize(LAPTOP);

  // robotctl's agent talks to this robot: the header says it is managed,
  // and a stop by hand is explained (the agent will start the app again).
  t.equal(await page.locator('#managed-badge').isVisible(), false, 'no badge before an agent is heard from');
  const agentDriver = createDaemonClient({ baseUrl: daemon.url, userAgent: agentUserAgent('/somewhere/fleet.yaml') });
  await agentDriver.daemonStatus();
  await agentDriver.close();
  await waitText(page, '#managed-badge', new RegExp(`^Managed by robotctl \\(fleet\\.yaml on ${hostname()}\\)$`), 10_000);

  // Stop: the state changes and the buttons follow.
  await page.locator('#stop-app').click();
  await waitText(page, '#managed-note', /its agent will start hello_app again at its next check\. To keep it stopped, change fleet\.yaml\./);
  await waitText(page, '#current-name', /^No app running$/);
  t.equal(await text(page, '#current-state'), 'idle');
  t.equal(await page.locator('#stop-app').isDisabled(), true);
  t.match(await text(page, '#messages'), /hello_app stopped/);

  // A crash shows the error with the stderr tail.
  await installFromPath(page, example('crash_app'), 'crash_app');
  await page.locator('button[aria-label="Start crash_app"]').click();
  await waitText(page, '#current-state', /^error$/);
  t.equal(await page.locator('#current-error-box').isVisible(), true);
  t.match(await text(page, '#current-error'), /Process exited with code 1/);
  t.match(await text(page, '#current-error'), /crash_app crashed on purpose/);
  const scrolled = await page.locator('#current-error').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  t.ok(scrolled < 4, `the traceback box shows its end, where the exception is (${scrolled}px below)`);
  await waitText(page, '#current-output', /the sensor check failed/);
  await waitText(page, '#messages', /crash_app crashed/);
  await page.screenshot({ path: join(shots, 'crashed-laptop.png'), fullPage: true });
  t.same(await contrastProblems(page), [], 'the error view has WCAG AA contrast too');
  await page.locator('#stop-app').click();
  await waitText(page, '#current-name', /^No app running$/);

  // Remove: its job runs and the list follows.
  await page.locator('button[aria-label="Remove crash_app"]').click();
  await page.locator('#installed-list li[data-app="crash_app"]').waitFor({ state: 'detached', timeout: 60_000 });
  t.equal(await text(page, '#job-status'), 'done');
  t.equal(await page.locator('#installed-list li').count(), 1);

  t.same(problems, [], 'no page errors or failed requests');
  await page.close();

  // When the state socket cannot be used, the live view polls /api/state/full instead.
  const polling = await browser.newPage({ viewport: PHONE });
  await polling.routeWebSocket(/\/api\/state\/ws\/full/, (ws) => { ws.close({ code: 1011, reason: 'blocked by the test' }); });
  await polling.goto(`${daemon.url}/`);
  await waitText(polling, '#stream-mode', /live \(polling\)/);
  await waitText(polling, '#stream-rate', /[1-9]\d* updates\/s/);
  t.pass('the live view falls back to polling');
  await polling.close();
});
