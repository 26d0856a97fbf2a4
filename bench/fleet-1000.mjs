// 1,000 simulated robots in ONE `robotctl daemon --sim --robots 1000`
// process, driven by the CLI as a user runs it (child processes):
//   1. start: time until every robot listens, CPU, RSS;
//   2. drift check (`robotctl diff`) of the converged fleet: wall and CPU
//      time, daemon calls per robot (counted by the daemon: `kill -USR2`
//      prints the requests it answered), the CLI's peak file descriptors;
//   3. switching the active app on 100 of the robots against one robot.
// Two quiet apps are installed once on a seed robot; every robot of the fleet
// gets a copy of the seed's app records and a link to its virtual environment
// (installs are not what is measured). Targets (issue 16): diff < 2 s, ≤ 2
// calls per robot, < 64 descriptors; 100 robots ≤ 3× one robot.
// Build first: it imports ../dist. Cleans up its temp folder and children.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startDaemon } from '../dist/runtime/daemon/server.js';
import { main } from '../dist/cli/main.js';
import { figure } from './lib/figures.mjs';
import { cpuSecondsOf } from './lib/measure.mjs';
import { quietApp } from './lib/quiet-app.mjs';

const ROBOTS = Number(process.env.FLEET_ROBOTS ?? 1000);
const SWITCHED = Math.min(100, ROBOTS - 1);
const bin = fileURLToPath(new URL('../bin/robotctl.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-fleet1000-'));
const env = { ...process.env, NO_COLOR: '1', HF_HOME: join(dir, 'hf') };

const rssMiB = (pid) => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

function writeYaml(name, urls, active, parallelism) {
  const lines = ['version: 1', 'apps:', `  app_a: { path: ${join(dir, 'app_a')} }`, `  app_b: { path: ${join(dir, 'app_b')} }`, `active: ${active}`, 'robots:'];
  urls.forEach(([robot, url]) => lines.push(`  ${robot}: { url: ${url} }`));
  lines.push(`rollout: { parallelism: ${parallelism}, healthy_for: 1.5s }`);
  writeFileSync(join(dir, `${name}.yaml`), `${lines.join('\n')}\n`);
}

/** The seed robot: both apps installed (in this process), then its folder is the model for every robot. */
async function seed() {
  const seedDir = join(dir, 'seed');
  const daemon = await startDaemon({ appsDir: seedDir, sim: true, port: 0, startupApp: null });
  try {
    writeYaml('seed', [['seed', daemon.url]], 'null', 1);
    let out = '';
    const io = { out: (t) => { out += t; }, err: (t) => { out += t; }, isTTY: false, stdinIsTTY: false, cwd: dir, env };
    const code = await main(['apply', '-f', 'seed.yaml', '--yes', '--state', 'seed.state.json'], io);
    if (code !== 0) throw new Error(`seed install failed (${code}):\n${out}`);
  } finally {
    await daemon.close();
  }
  for (let i = 0; i < ROBOTS; i++) {
    const robotDir = join(dir, 'fleet', `robot-${i}`);
    cpSync(seedDir, robotDir, { recursive: true, filter: (src) => src !== join(seedDir, 'venv') });
    symlinkSync(join(seedDir, 'venv'), join(robotDir, 'venv'));
  }
}

/** The fleet's daemon: resolves when every robot listens, with [name, url] per robot. */
function startFleet() {
  const child = spawn(process.execPath, [bin, 'daemon', '--sim', '--port', '0', '--robots', String(ROBOTS), '--apps-dir', join(dir, 'fleet'), '--stop-timeout', '5'], {
    env, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const urls = [];
  const counts = [];
  createInterface({ input: child.stderr }).on('line', (l) => {
    const m = /^requests: (\d+)/.exec(l);
    if (m) counts.shift()?.(Number(m[1]));
  });
  const ready = new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the fleet's daemon exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (l) => {
      const m = /^listening on (\S+) \((\S+)\)$/.exec(l);
      if (m) urls.push([m[2], m[1]]);
      if (urls.length === ROBOTS) resolve();
    });
  });
  const requests = () => new Promise((resolve) => { counts.push(resolve); child.kill('SIGUSR2'); });
  return { child, urls, ready, requests };
}

/** A CLI command in a child: exit code, wall ms, CPU ms, peak open file descriptors. */
function cli(args) {
  const started = performance.now();
  // The child prints its own CPU time as it exits (a finished process's /proc entry is gone).
  const hook = 'data:text/javascript,process.on("exit",()=>{const u=process.cpuUsage();process.stderr.write(`cpu-ms: ${(u.user+u.system)/1000}\\n`)})';
  const child = spawn(process.execPath, ['--import', hook, bin, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  let peak = 0;
  const poll = setInterval(() => {
    try { peak = Math.max(peak, readdirSync(`/proc/${child.pid}/fd`).length); } catch { /* not started or gone */ }
  }, 5);
  return new Promise((resolve) => child.on('close', (code) => {
    clearInterval(poll);
    const cpuMs = Number(/cpu-ms: ([\d.]+)/.exec(out)?.[1] ?? NaN);
    resolve({ code, ms: performance.now() - started, cpuMs, peak, out });
  }));
}

async function apply(name, urls, active) {
  writeYaml(name, urls, active, urls.length);
  const r = await cli(['apply', '-f', `${name}.yaml`, '--yes', '--state', `${name}.state.json`]);
  if (r.code !== 0) throw new Error(`apply ${name} → ${active} exited ${r.code}:\n${r.out.slice(-2000)}`);
  return r;
}

let fleet = null;
try {
  quietApp(dir, 'app_a');
  quietApp(dir, 'app_b');
  await seed();
  fleet = startFleet();
  const t0 = performance.now();
  await fleet.ready;
  const startS = (performance.now() - t0) / 1000;
  figure({ name: `daemon --sim --robots ${ROBOTS}: all listening`, value: startS, unit: 's', note: `CPU ${cpuSecondsOf(fleet.child.pid).toFixed(1)} s, RSS ${rssMiB(fleet.child.pid).toFixed(0)} MiB` });

  // The converged fleet: its state recorded by one apply (nothing to do), then the drift check.
  writeYaml('fleet', fleet.urls, 'null', 100);
  const recorded = await cli(['apply', '-f', 'fleet.yaml', '--yes', '--state', 'fleet.state.json']);
  if (recorded.code !== 0) throw new Error(`apply of the converged fleet exited ${recorded.code}:\n${recorded.out.slice(-2000)}`);
  const before = await fleet.requests();
  const daemonCpu0 = cpuSecondsOf(fleet.child.pid);
  const diff = await cli(['diff', '-f', 'fleet.yaml', '--state', 'fleet.state.json']);
  const daemonCpuMs = (cpuSecondsOf(fleet.child.pid) - daemonCpu0) * 1000;
  const calls = (await fleet.requests()) - before;
  if (diff.code !== 0) throw new Error(`diff exited ${diff.code}: the fleet should be converged\n${diff.out.slice(-2000)}`);
  figure({ name: `drift check (robotctl diff) of ${ROBOTS} robots in one daemon, wall`, value: diff.ms, unit: 'ms', target: '< 2000', ok: diff.ms < 2000, note: `CPU: CLI ${diff.cpuMs.toFixed(0)} ms, daemon ${daemonCpuMs.toFixed(0)} ms` });
  figure({ name: `drift check of ${ROBOTS} robots: daemon calls per robot`, value: calls / ROBOTS, unit: 'calls/robot', target: '≤ 2', ok: calls / ROBOTS <= 2 });
  figure({ name: `drift check of ${ROBOTS} robots: CLI peak file descriptors`, value: diff.peak, unit: 'fds', target: '< 64', ok: diff.peak < 64 });

  // Switching: robot N-1 alone, then robots 0..99 together (each first started on app_a, not timed).
  const one = [fleet.urls[ROBOTS - 1]];
  const some = fleet.urls.slice(0, SWITCHED);
  await apply('one', one, 'app_a');
  const oneRun = await apply('one', one, 'app_b');
  await apply('some', some, 'app_a');
  const someRun = await apply('some', some, 'app_b');
  const ratio = someRun.ms / oneRun.ms;
  figure({ name: 'switch the active app, 1 robot (apply, a child)', value: oneRun.ms, unit: 'ms', note: `CLI CPU ${oneRun.cpuMs.toFixed(0)} ms` });
  figure({ name: `switch the active app, ${SWITCHED} robots of the ${ROBOTS}`, value: someRun.ms, unit: 'ms', note: `CLI CPU ${someRun.cpuMs.toFixed(0)} ms` });
  figure({ name: `switch the active app: ${SWITCHED} robots / 1 robot`, value: ratio, unit: '×', target: '≤ 3', ok: ratio <= 3 });
} finally {
  if (fleet) {
    const gone = new Promise((r) => fleet.child.once('exit', r));
    fleet.child.kill('SIGTERM');
    await gone;
  }
  rmSync(dir, { recursive: true, force: true });
}
