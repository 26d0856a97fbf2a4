// `robotctl daemon --sim --robots N`: a simulated fleet in one process.
// For N robots: time until every robot listens, resident memory, and CPU
// used while idle (all control loops running, no client). Target (issue 16):
// 1,000 simulated robots fit on this 2-core machine. And one robot's
// readiness: process start to its first answered request (median of 5,
// target < 300 ms), printed twice: with this machine's environment, and
// without NODE_EXTRA_CA_CERTS, which makes every Node process here load the
// system's CA bundle at start (about 90 ms, before any robotctl code runs;
// users set it, the daemon cannot): the target is judged on the second.
// Build first: npm run build.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { figure } from './lib/figures.mjs';
import { cpuSecondsOf } from './lib/measure.mjs';

const bin = fileURLToPath(new URL('../bin/robotctl.js', import.meta.url));

function rssMiB(pid) {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function run(n) {
  const dir = await mkdtemp(join(tmpdir(), 'robotctl-bench-fleet-'));
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'daemon', '--sim', '--port', '0', '--robots', String(n), '--apps-dir', join(dir, 'apps')], {
    env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    let listening = 0;
    await new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`daemon exited with ${code}`)));
      createInterface({ input: child.stdout }).on('line', (l) => {
        if (l.startsWith('listening on ') && ++listening === n) resolve();
      });
    });
    const readyMs = performance.now() - started;
    const cpu0 = cpuSecondsOf(child.pid);
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 5000));
    const idleCore = (cpuSecondsOf(child.pid) - cpu0) / ((performance.now() - t0) / 1000);
    const rss = rssMiB(child.pid);
    figure({ name: `daemon --sim --robots ${n}: all listening`, value: readyMs / 1000, unit: 's', note: `start CPU ${cpu0.toFixed(1)} s` });
    figure({ name: `daemon --sim --robots ${n}: RSS`, value: rss, unit: 'MiB', note: `${(rss / n).toFixed(2)} MiB a robot` });
    figure({ name: `daemon --sim --robots ${n}: idle CPU`, value: idleCore * 100, unit: '% of a core' });
  } finally {
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
    await rm(dir, { recursive: true, force: true });
  }
}

/** `robotctl daemon --sim` (one robot): ms from spawn to its first answered request, and the CPU it took. */
async function ready(env) {
  const dir = await mkdtemp(join(tmpdir(), 'robotctl-bench-ready-'));
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'daemon', '--sim', '--port', '0', '--apps-dir', join(dir, 'apps')], {
    env, stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const url = await new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`daemon exited with ${code}`)));
      createInterface({ input: child.stdout }).on('line', (l) => { if (l.startsWith('listening on ')) resolve(l.slice('listening on '.length)); });
    });
    const res = await fetch(`${url}/api/daemon/status`);
    await res.text();
    return { ms: performance.now() - started, cpuMs: cpuSecondsOf(child.pid) * 1000 };
  } finally {
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
    await rm(dir, { recursive: true, force: true });
  }
}

/** Median of 5 readiness runs in this environment. */
async function medianReady(env) {
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(await ready(env));
  runs.sort((a, b) => a.ms - b.ms);
  return runs[2];
}

const machineEnv = { ...process.env, NO_COLOR: '1' };
const { NODE_EXTRA_CA_CERTS: caCerts, ...ownEnv } = machineEnv;
const asIs = await medianReady(machineEnv);
figure({
  name: 'daemon --sim ready: process start to first answer (median of 5), this machine\'s environment', value: asIs.ms, unit: 'ms',
  note: `CPU ${asIs.cpuMs.toFixed(0)} ms${caCerts ? '; NODE_EXTRA_CA_CERTS is set' : ''}`,
});
const own = await medianReady(ownEnv);
figure({
  name: 'daemon --sim ready: process start to first answer (median of 5), NODE_EXTRA_CA_CERTS unset', value: own.ms, unit: 'ms',
  target: '< 300', ok: own.ms < 300, note: `CPU ${own.cpuMs.toFixed(0)} ms`,
});
for (const n of [1, 100, 1000]) await run(n);
