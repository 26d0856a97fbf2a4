import t from 'tap';
import { join } from 'node:path';
import { collectProblems, launchChromium, LAPTOP, screenshotDir, skipWithoutChromium } from '../browser/browser.js';
import { startLoop, type Loop, type Robot } from './fixture.js';
import { until } from '../helpers/wait.js';
import { runAgent, type TestAgent } from './run-agent.js';

// The fleet page of a real agent (embedded hub, two simulated robots): an
// app removed behind the agent's back shows as drift on the page of an agent
// in warn mode (which leaves it, so the page has time to show it: a heal now
// takes well under the page's refresh), and an agent in heal mode heals it,
// which its page shows too.

t.test('the fleet page of a running agent shows a drift and its heal', { skip: skipWithoutChromium }, async (t) => {
  const loop: Loop = await startLoop({ robots: ['r1', 'r2'], apps: ['app_a', 'app_b'] });
  t.teardown(() => loop.close());
  loop.writeConfig({ overrides: { r1: 'app_a', r2: 'app_b' } });
  let a: TestAgent | null = await runAgent(loop, { mode: 'heal', intervalMs: 60_000 });
  t.teardown(async () => { await a?.stop(); a = null; });
  t.equal((await a.agent.firstRun).result, 'converged', a.lines.join('\n'));
  await a.stop();
  a = await runAgent(loop, { mode: 'warn', intervalMs: 1000 });
  t.equal((await a.agent.firstRun).result, 'converged', a.lines.join('\n'));

  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage({ viewport: LAPTOP });
  const problems = collectProblems(page);
  await page.goto(`${a.agent.url}/`);
  await page.waitForFunction(() => document.querySelector('#fleet-state')?.textContent === 'Converged', undefined, { timeout: 10_000 });
  t.equal(await page.locator('.robot-card[data-robot="r2"]').getAttribute('data-converged'), 'true');

  // Behind the agent's back: remove app_a from r2 (installed there, not running).
  const r2 = loop.robots[1] as Robot;
  await r2.client.remove('app_a');
  await page.waitForFunction(() => document.querySelector('.robot-card[data-robot="r2"]')?.getAttribute('data-converged') === 'false', undefined, { timeout: 15_000 });
  t.equal(await page.locator('#fleet-state').textContent(), 'Drift detected');
  t.match(await page.locator('.robot-card[data-robot="r2"]').textContent(), /app app_a: not installed/);
  t.equal(await page.locator('.robot-card[data-robot="r1"]').getAttribute('data-converged'), 'true', 'r1 is not affected');
  await page.screenshot({ path: join(screenshotDir('fleet-agent'), 'drift.png'), fullPage: true });

  await page.goto('about:blank'); // no poll of the agent that stops next counts as a failed request
  await a.stop();
  a = await runAgent(loop, { mode: 'heal', intervalMs: 60_000 });
  await page.goto(`${a.agent.url}/`);
  await page.waitForFunction(() => document.querySelector('#fleet-state')?.textContent === 'Converged', undefined, { timeout: 30_000 });
  t.equal(await page.locator('.robot-card[data-robot="r2"]').getAttribute('data-converged'), 'true');
  await until(async () => (await r2.client.listInstalled()).some((x) => x.name === 'app_a'), 5000, 'app_a back on r2');
  t.match(a.lines.join('\n'), /done +install app_a [0-9a-f]{7} on r2/, 'the agent healed it');
  await page.screenshot({ path: join(screenshotDir('fleet-agent'), 'healed.png'), fullPage: true });
  t.same(problems, [], 'no page errors or failed requests');
  await page.close();
});
