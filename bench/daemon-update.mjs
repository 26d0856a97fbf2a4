// A daemon update rolled out by `robotctl apply` (issue 31): 101 simulated
// robots in ONE `robotctl daemon --sim --robots 101 --daemon-version 1.9.0`
// process; robot 100 is updated to 1.10.0 alone, then robots 0..99 together
// (canary 1, then parallelism 100). Every robot's simulated update takes the
// same time (the job's lines, the restart), so the fleet's update is the
// canary's plus one wave: target ≤ 3× one robot's. The health gate is off
// (healthy_for: 0s): it would add the same wait to each wave. Each is
// measured three times, back and forth between the two releases (the same
// work each way), and the medians compared: on a shared machine one run of
// either varies by half. The CLI runs as a user runs it (a child process);
// mDNS is off (the robots are given by URL).
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

const ROUNDS = 3;
const RELEASES = ['1.10.0', '1.9.0'];

function writeYaml(name, urls, version) {
  // healthy_for: 0s: the update itself is measured, not the health gate's wait (the same for each wave).
  const lines = ['version: 1', `daemon: { version: "${version}" }`, `rollout: { canary: 1, parallelism: ${ROBOTS}, healthy_for: 0s }`, 'robots:'];
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

/** `robotctl apply` in a child: wall ms, and how many robots it updated. */
function apply(name) {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'apply', '-f', `${name}.yaml`, '--yes', '--state', `${name}.state.json`], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  return new Promise((resolve, reject) => child.on('close', (code) => {
    const ms = performance.now() - started;
    const updated = (out.match(/update daemon \S+ → \S+ ok/g) ?? []).length;
    if (code !== 0) reject(new Error(`apply ${name} exited ${code}:\n${out.slice(-3000)}`));
    else resolve({ ms, updated });
  }));
}

/** `rounds` applies of `name`, back and forth between the releases: their wall times and the daemon's CPU, in ms. */
async function rounds(name, urls, count) {
  const walls = [];
  const cpu0 = cpuSecondsOf(fleet.child.pid);
  for (let i = 0; i < ROUNDS; i++) {
    writeYaml(name, urls, RELEASES[i % 2]);
    const run = await apply(name);
    if (run.updated !== count) throw new Error(`apply ${name} updated ${run.updated} robots, expected ${count}`);
    walls.push(run.ms);
  }
  return { walls, cpuMs: ((cpuSecondsOf(fleet.child.pid) - cpu0) * 1000) / ROUNDS };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const list = (xs) => xs.map((x) => x.toFixed(0)).join(', ');

let fleet = null;
try {
  fleet = startFleet(ROBOTS + 1);
  await fleet.ready;
  const one = await rounds('one', [fleet.urls[ROBOTS]], 1);
  const all = await rounds('fleet', fleet.urls.slice(0, ROBOTS), ROBOTS);
  const ratio = median(all.walls) / median(one.walls);
  figure({ name: `daemon update, 1 robot (apply, wall, median of ${ROUNDS})`, value: median(one.walls), unit: 'ms', note: `runs ${list(one.walls)} ms; daemon CPU ${one.cpuMs.toFixed(0)} ms a run` });
  figure({ name: `daemon update, ${ROBOTS} robots, canary 1 then parallelism ${ROBOTS} (apply, wall, median of ${ROUNDS})`, value: median(all.walls), unit: 'ms', note: `runs ${list(all.walls)} ms; daemon CPU ${all.cpuMs.toFixed(0)} ms a run` });
  figure({ name: `daemon update: ${ROBOTS} robots / 1 robot (medians)`, value: ratio, unit: '×', target: '≤ 3', ok: ratio <= 3 });
} finally {
  if (fleet && fleet.child.exitCode === null) {
    fleet.child.kill('SIGTERM');
    await new Promise((r) => fleet.child.once('exit', r));
  }
  rmSync(dir, { recursive: true, force: true });
}
