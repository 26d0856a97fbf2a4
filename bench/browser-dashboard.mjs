// Robot dashboard in a real browser against a simulated daemon: how fast the
// page shows a live pose, and how many state updates and drawn frames per
// second it keeps up with (the control loop runs at 50 Hz).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startDaemon } from '../dist/runtime/daemon/server.js';
import { figure } from './lib/figures.mjs';

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  console.log(`skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
  process.exit(0);
}

const dir = await mkdtemp(join(tmpdir(), 'robotctl-bench-dash-'));
const daemon = await startDaemon({ sim: true, port: 0, appsDir: join(dir, 'apps') });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
try {
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  // Count state frames and drawn frames from inside the page.
  await page.addInitScript(() => {
    const counts = { frames: 0, messages: 0 };
    globalThis.__bench = counts;
    const raf = globalThis.requestAnimationFrame.bind(globalThis);
    globalThis.requestAnimationFrame = (cb) => raf((t) => { counts.frames += 1; cb(t); });
    const Native = globalThis.WebSocket;
    globalThis.WebSocket = class extends Native {
      constructor(...a) { super(...a); this.addEventListener('message', () => { counts.messages += 1; }); }
    };
  });
  const t0 = performance.now();
  await page.goto(`${daemon.url}/`);
  await page.waitForFunction(() => document.querySelector('#stream-mode')?.dataset.mode === 'websocket');
  const live = performance.now() - t0;
  const before = await page.evaluate(() => ({ ...globalThis.__bench }));
  const seconds = 3;
  await page.waitForTimeout(seconds * 1000);
  const after = await page.evaluate(() => ({ ...globalThis.__bench }));
  const updates = (after.messages - before.messages) / seconds;
  const frames = (after.frames - before.frames) / seconds;
  figure({ name: 'dashboard: page load to live view', value: Math.round(live), unit: 'ms', target: '< 1500', ok: live < 1500 });
  figure({ name: 'dashboard: state updates', value: updates, unit: '/s', target: '≥ 45', ok: updates >= 45, note: 'the 50 Hz control loop' });
  figure({ name: 'dashboard: animation frames, headless', value: frames, unit: '/s', target: '≥ 30', ok: frames >= 30 });
} finally {
  await browser.close();
  await daemon.close();
  await rm(dir, { recursive: true, force: true });
}
