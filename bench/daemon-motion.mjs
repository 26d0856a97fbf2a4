// Simulated robot daemon: set_target requests/s over REST and the 50 Hz
// control loop's period jitter, idle and during that flood. Each daemon runs in
// its own process (`robotctl daemon --sim`), as users run it; the idle one and
// the flooded one are separate daemons, so the flood's figure is not diluted
// by idle periods (the loop reports over its last 2,000 periods). Build first.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { figure } from './lib/figures.mjs';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'robotctl.js');
const FLOOD_S = 8;
const body = JSON.stringify({ target_head_pose: { x: 0, y: 0, z: 0, roll: 0, pitch: 0.1, yaw: 0.2 }, target_antennas: [0.3, -0.3] });

async function withDaemon(use) {
  const dir = await mkdtemp(join(tmpdir(), 'robotctl-bench-motion-'));
  const child = spawn(process.execPath, [bin, 'daemon', '--sim', '--port', '0', '--apps-dir', join(dir, 'apps')], { stdio: ['ignore', 'pipe', 'ignore'] });
  const closed = new Promise((r) => child.once('close', r));
  const first = await new Promise((r) => createInterface({ input: child.stdout }).once('line', r));
  const pool = new Pool(first.replace('listening on ', ''), { connections: 16, pipelining: 1 });
  try {
    return await use(pool);
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

async function flood(pool, seconds, concurrency) {
  let done = 0;
  let errors = 0;
  const until = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      const r = await pool.request({ path: '/api/move/set_target', method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await r.body.dump();
      if (r.statusCode === 200) done++; else errors++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { rate: done / ((performance.now() - start) / 1000), errors };
}

const idle = await withDaemon(async (pool) => {
  await new Promise((r) => setTimeout(r, 5000));
  return loopStats(pool);
});
const loaded = await withDaemon(async (pool) => {
  const { rate, errors } = await flood(pool, FLOOD_S, 16);
  return { rate, errors, stats: await loopStats(pool) };
});
const floodShare = Math.min(100, (100 * FLOOD_S * 50) / loaded.stats.samples);
figure({ name: 'daemon set_target over REST', value: Math.round(loaded.rate), unit: 'req/s', target: '≥ 1000', ok: loaded.rate >= 1000, note: loaded.errors ? `${loaded.errors} errors` : undefined });
figure({ name: 'control loop period mean, idle', value: idle.period_mean_ms, unit: 'ms', target: '20' });
figure({ name: 'control loop jitter p99, idle', value: idle.jitter_p99_ms, unit: 'ms', target: '< 5', ok: idle.jitter_p99_ms < 5 });
figure({ name: 'control loop jitter max, idle', value: idle.jitter_max_ms, unit: 'ms' });
figure({
  name: 'control loop jitter p99 during a set_target flood', value: loaded.stats.jitter_p99_ms, unit: 'ms', target: '< 5', ok: loaded.stats.jitter_p99_ms < 5,
  note: `${loaded.stats.samples} periods, ${floodShare.toFixed(0)}% of them under the ${FLOOD_S} s flood; max ${loaded.stats.jitter_max_ms.toFixed(1)} ms`,
});
