// A fleet of 50 simulated robots (50 daemons in this process) switching
// their active app, against the time one robot takes (target: within 3×).
// Two quiet apps are installed once on a seed robot whose apps folder is
// then copied to the others (installs are not what is measured). Then a
// drift check (`robotctl diff`, a child process) of the converged fleet:
// daemon calls per robot (target 2) and the CLI's peak file descriptors
// (target: O(parallelism), not O(robots)). Build first: it imports ../dist.
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon } from '../dist/runtime/daemon/server.js';
import { main } from '../dist/cli/main.js';
import { figure } from './lib/figures.mjs';
import { quietApp } from './lib/quiet-app.mjs';

const ROBOTS = 50;
const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-fleet-'));
const daemons = [];

function yaml(active, robots) {
  const lines = ['version: 1', 'apps:', `  app_a: { path: ${join(dir, 'app_a')} }`, `  app_b: { path: ${join(dir, 'app_b')} }`, `active: ${active}`, 'robots:'];
  robots.forEach((d, i) => lines.push(`  robot-${i}: { url: ${d.url} }`));
  lines.push(`rollout: { parallelism: ${ROBOTS}, healthy_for: 1.5s }`);
  return `${lines.join('\n')}\n`;
}

async function apply(name, active, robots) {
  writeFileSync(join(dir, `${name}.yaml`), yaml(active, robots));
  let out = '';
  const io = { out: (t) => { out += t; }, err: (t) => { out += t; }, isTTY: false, stdinIsTTY: false, cwd: dir, env: { NO_COLOR: '1', HF_HOME: join(dir, 'hf') } };
  const started = performance.now();
  const code = await main(['apply', '-f', `${name}.yaml`, '--yes', '--state', `${name}.state.json`], io);
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`apply ${name} → ${active} failed (${code}):\n${out}`);
  return ms;
}

/** `robotctl diff` in a child: its exit code and the peak of its open file descriptors. */
function diffChild(name) {
  const bin = join(import.meta.dirname, '..', 'bin', 'robotctl.js');
  const child = spawn(process.execPath, [bin, 'diff', '-f', `${name}.yaml`, '--state', `${name}.state.json`], {
    cwd: dir, env: { ...process.env, NO_COLOR: '1', HF_HOME: join(dir, 'hf') }, stdio: 'ignore',
  });
  let peak = 0;
  const poll = setInterval(() => {
    try { peak = Math.max(peak, readdirSync(`/proc/${child.pid}/fd`).length); } catch { /* not started or gone */ }
  }, 5);
  return new Promise((resolve) => child.on('close', (code) => { clearInterval(poll); resolve({ code, peak }); }));
}

async function driftCheck(name, robots) {
  const before = robots.reduce((n, d) => n + d.stats().requests, 0);
  const started = performance.now();
  const { code, peak } = await diffChild(name);
  const ms = performance.now() - started;
  const calls = robots.reduce((n, d) => n + d.stats().requests, 0) - before;
  if (code !== 0) throw new Error(`diff ${name} exited ${code}: the fleet should be converged`);
  return { ms, callsPerRobot: calls / robots.length, peak };
}

try {
  quietApp(dir, 'app_a');
  quietApp(dir, 'app_b');
  const seedDir = join(dir, 'seed');
  const seed = await startDaemon({ appsDir: seedDir, sim: true, port: 0 });
  const installMs = await apply('seed', 'app_a', [seed]);
  await seed.close();
  for (let i = 0; i < ROBOTS; i++) {
    const appsDir = join(dir, `robot-${i}`);
    cpSync(seedDir, appsDir, { recursive: true });
    daemons.push(await startDaemon({ appsDir, sim: true, port: 0, startupApp: null, stopTimeoutMs: 5000 }));
  }
  const one = [daemons[0]];
  await apply('one', 'app_a', one);
  const oneMs = await apply('one', 'app_b', one);
  await apply('fleet', 'app_a', daemons);
  const fleetMs = await apply('fleet', 'app_b', daemons);
  figure({ name: 'seed robot install of 2 apps', value: installMs, unit: 'ms' });
  figure({ name: `switch active app, 1 robot (${ROBOTS} in-process daemons)`, value: oneMs, unit: 'ms' });
  figure({ name: `switch active app, ${ROBOTS} robots (in-process daemons)`, value: fleetMs, unit: 'ms' });
  figure({ name: `switch active app: ${ROBOTS} robots / 1 robot`, value: fleetMs / oneMs, unit: '×', target: '≤ 3', ok: fleetMs / oneMs <= 3 });
  const driftOne = await driftCheck('one', one);
  const driftFleet = await driftCheck('fleet', daemons);
  figure({ name: `drift check of ${ROBOTS} daemons: calls per robot`, value: driftFleet.callsPerRobot, unit: 'calls/robot', target: '≤ 2', ok: driftFleet.callsPerRobot <= 2, note: `1 robot: ${driftOne.callsPerRobot.toFixed(2)}` });
  figure({ name: `drift check of ${ROBOTS} daemons: CLI peak file descriptors`, value: driftFleet.peak, unit: 'fds', target: '< 64', ok: driftFleet.peak < 64, note: `1 robot: ${driftOne.peak}` });
  figure({ name: `drift check of ${ROBOTS} daemons, wall`, value: driftFleet.ms, unit: 'ms', note: `1 robot: ${driftOne.ms.toFixed(0)} ms` });
} finally {
  for (const d of daemons) await d.close();
  rmSync(dir, { recursive: true, force: true });
}
