// Simulated robot daemon: set_target requests/s over REST and the 50 Hz
// control loop's period jitter, idle and during that flood. Each daemon runs in
// its own process (`robotctl daemon --sim`), as users run it; the idle one and
// the flooded one are separate daemons, so the flood's figure is not diluted
// by idle periods (the loop reports over its last 2,000 periods). The flood
// comes from wrk (bench/lib/wrk.mjs: one thread, 16 connections), whose CPU is
// printed and checked below saturation: a node client topped out below what
// the daemon answers. Build first.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { figure } from './lib/figures.mjs';
import { CLIENT_SATURATION_PCT, WRK_MISSING, requestsScript, runWrk, wrkAvailable } from './lib/wrk.mjs';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'robotctl.js');
const FLOOD_S = 8;
const CONNECTIONS = 16;
const body = JSON.stringify({ target_head_pose: { x: 0, y: 0, z: 0, roll: 0, pitch: 0.1, yaw: 0.2 }, target_antennas: [0.3, -0.3] });

async function withDaemon(use) {
  const dir = await mkdtemp(join(tmpdir(), 'robotctl-bench-motion-'));
  const child = spawn(process.execPath, [bin, 'daemon', '--sim', '--port', '0', '--apps-dir', join(dir, 'apps')], { stdio: ['ignore', 'pipe', 'ignore'] });
  const closed = new Promise((r) => child.once('close', r));
  const first = await new Promise((r) => createInterface({ input: child.stdout }).once('line', r));
  const url = first.replace('listening on ', '');
  const pool = new Pool(url, { connections: 1 });
  try {
    return await use(pool, url);
  } finally {
    await pool.close();
    child.kill('SIGTERM');
    await closed;
    await rm(dir, { recursive: true, force: true });
  }
}

async function loopStats(pool) {
  const r = await pool.request({ path: '/api/daemon/status', method: 'GET' });
  return (await r.body.json()).backend_status.control_loop_stats;
}

/** set_target as fast as wrk sends it, for `seconds`: requests/s, answers that were not 200, wrk's CPU. */
async function flood(url, seconds) {
  const script = requestsScript({ method: 'POST', paths: ['/api/move/set_target'], headers: { 'content-type': 'application/json' }, body });
  const res = await runWrk({ url, script, seconds, connections: CONNECTIONS });
  return { rate: res.rps, errors: res.bad, clientPct: res.clientCpuPct };
}

const idle = await withDaemon(async (pool) => {
  await new Promise((r) => setTimeout(r, 5000));
  return loopStats(pool);
});
if (!wrkAvailable()) console.log(`daemon-motion: ${WRK_MISSING} (the set_target flood and the loop's jitter under it)`);
const loaded = wrkAvailable() ? await withDaemon(async (pool, url) => {
  const { rate, errors, clientPct } = await flood(url, FLOOD_S);
  return { rate, errors, clientPct, stats: await loopStats(pool) };
}) : null;
figure({ name: 'control loop period mean, idle', value: idle.period_mean_ms, unit: 'ms', target: '20' });
figure({ name: 'control loop jitter p99, idle', value: idle.jitter_p99_ms, unit: 'ms', target: '< 5', ok: idle.jitter_p99_ms < 5 });
figure({ name: 'control loop jitter max, idle', value: idle.jitter_max_ms, unit: 'ms' });
if (loaded) {
  const floodShare = Math.min(100, (100 * FLOOD_S * 50) / loaded.stats.samples);
  figure({ name: 'daemon set_target over REST', value: Math.round(loaded.rate), unit: 'req/s', target: '≥ 1000', ok: loaded.rate >= 1000,
    note: `wrk, 1 thread, ${CONNECTIONS} connections, ${FLOOD_S} s${loaded.errors ? `; ${loaded.errors} answers not 200` : ''}` });
  figure({ name: `load generator CPU during the set_target flood (wrk, 1 thread, ${CONNECTIONS} connections)`, value: loaded.clientPct, unit: '% of a core',
    target: `< ${CLIENT_SATURATION_PCT}`, ok: loaded.clientPct < CLIENT_SATURATION_PCT });
  figure({
    name: 'control loop jitter p99 during a set_target flood', value: loaded.stats.jitter_p99_ms, unit: 'ms', target: '< 5', ok: loaded.stats.jitter_p99_ms < 5,
    note: `${loaded.stats.samples} periods, ${floodShare.toFixed(0)}% of them under the ${FLOOD_S} s flood; max ${loaded.stats.jitter_max_ms.toFixed(1)} ms`,
  });
} else {
  figure({ name: 'daemon set_target over REST', value: 0, unit: 'req/s', target: '≥ 1000', note: WRK_MISSING });
}
