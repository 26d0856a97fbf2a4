// A daemon update rolled out by `robotctl apply` (issue 31): 101 simulated
// robots in ONE `robotctl daemon --sim --robots 101 --daemon-version 1.9.0`
// process; robot 100 is updated to 1.10.0 alone, then robots 0..99 together
// (canary 1, then parallelism 100). Every robot's simulated update takes the
// same time (the job's lines, the restart), so the fleet's update is the
// canary's plus one wave: target ≤ 3× one robot's. The health gate is off
// (healthy_for: 0s): it would add the same wait to each wave. The CLI runs as a user runs
// it (a child process); mDNS is off (the robots are given by URL).
// Build first: it runs ../bin/robotctl.js.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { figure } from './lib/figures.mjs';
import { cpuSecondsOf } from './lib/measure.mjs';

const ROBOTS = 100;
const bin = fileURLToPath(new URL('../bin/robotctl.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-daemon-update-'));
const env = { ...process.env, NO_COLOR: '1', HF_HOME: join(dir, 'hf') };

function writeYaml(name, urls) {
  // healthy_for: 0s: the update itself is measured, not the health gate's wait (the same for each wave).
  const lines = ['version: 1', 'daemon: { version: 1.10.0 }', `rollout: { canary: 1, parallelism: ${ROBOTS}, healthy_for: 0s }`, 'robots:'];
  for (const [robot, url] of urls) lines.push(`  ${robot}: { url: ${url} }`);
  writeFileSync(join(dir, `${name}.yaml`), `${lines.join('\n')}\n`);
}

/** The fleet's daemon: resolves when every robot listens, with [name, url] per robot. */
function startFleet(count) {
  const child = spawn(process.execPath, [bin, 'daemon', '--sim', '--no-mdns', '--port', '0', '--robots', String(count), '--daemon-version', '1.9.0', '--apps-dir', join(dir, 'fleet')], {
    env, stdio: ['ignore', 'pipe', 'ignore'],
  });
  const urls = [];
  const ready = new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the fleet's daemon exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (l) => {
      const m = /^listening on (\S+) \((\S+)\)$/.exec(l);
      if (m) urls.push([m[2], m[1]]);
      if (urls.length === count) resolve();
    });
  });
  return { child, urls, ready };
}

/** `robotctl apply` in a child: wall ms, and what it printed. */
function apply(name) {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'apply', '-f', `${name}.yaml`, '--yes', '--state', `${name}.state.json`], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  return new Promise((resolve, reject) => child.on('close', (code) => {
    const ms = performance.now() - started;
    const updated = (out.match(/update daemon 1\.9\.0 → 1\.10\.0 ok/g) ?? []).length;
    if (code !== 0) reject(new Error(`apply ${name} exited ${code}:\n${out.slice(-3000)}`));
    else resolve({ ms, updated });
  }));
}

let fleet = null;
try {
  fleet = startFleet(ROBOTS + 1);
  await fleet.ready;
  writeYaml('one', [fleet.urls[ROBOTS]]);
  writeYaml('fleet', fleet.urls.slice(0, ROBOTS));
  const cpu0 = cpuSecondsOf(fleet.child.pid);
  const one = await apply('one');
  const cpu1 = cpuSecondsOf(fleet.child.pid);
  const all = await apply('fleet');
  const cpu2 = cpuSecondsOf(fleet.child.pid);
  if (one.updated !== 1 || all.updated !== ROBOTS) throw new Error(`updated ${one.updated} and ${all.updated} robots, expected 1 and ${ROBOTS}`);
  figure({ name: 'daemon update 1.9.0 → 1.10.0, 1 robot (apply, wall)', value: one.ms, unit: 'ms', note: `daemon CPU ${((cpu1 - cpu0) * 1000).toFixed(0)} ms` });
  figure({ name: `daemon update 1.9.0 → 1.10.0, ${ROBOTS} robots, canary 1 then parallelism ${ROBOTS} (apply, wall)`, value: all.ms, unit: 'ms', note: `daemon CPU ${((cpu2 - cpu1) * 1000).toFixed(0)} ms` });
  figure({ name: `daemon update: ${ROBOTS} robots / 1 robot`, value: all.ms / one.ms, unit: '×', target: '≤ 3', ok: all.ms / one.ms <= 3 });
} finally {
  if (fleet && fleet.child.exitCode === null) {
    fleet.child.kill('SIGTERM');
    await new Promise((r) => fleet.child.once('exit', r));
  }
  rmSync(dir, { recursive: true, force: true });
}
