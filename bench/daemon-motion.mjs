// Simulated robot daemon: set_target requests/s over REST and the 50 Hz
// control loop's period jitter, idle and under that load. The daemon runs in
// its own process (`robotctl daemon --sim`), as users run it. Build first.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'robotctl.js');
const dir = await mkdtemp(join(tmpdir(), 'robotctl-bench-motion-'));
const child = spawn(process.execPath, [bin, 'daemon', '--sim', '--port', '0', '--apps-dir', join(dir, 'apps')], { stdio: ['ignore', 'pipe', 'inherit'] });
const first = await new Promise((r) => createInterface({ input: child.stdout }).once('line', r));
const url = first.replace('listening on ', '');
const pool = new Pool(url, { connections: 16, pipelining: 1 });

async function loopStats() {
  const r = await pool.request({ path: '/api/daemon/status', method: 'GET' });
  return (await r.body.json()).backend_status.control_loop_stats;
}

const body = JSON.stringify({ target_head_pose: { x: 0, y: 0, z: 0, roll: 0, pitch: 0.1, yaw: 0.2 }, target_antennas: [0.3, -0.3] });
async function flood(seconds, concurrency) {
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

try {
  // The loop keeps its last 2,000 periods (40 s): 5 s idle fill it with idle samples only.
  await new Promise((r) => setTimeout(r, 5000));
  const idle = await loopStats();
  await flood(0.5, 16);
  const { rate, errors } = await flood(4, 16);
  const loaded = await loopStats();
  console.log(`set_target over REST: ${Math.round(rate)} req/s (target ≥ 1000)${errors ? ` [${errors} errors]` : ''}`);
  console.log(`control loop period mean (idle): ${idle.period_mean_ms.toFixed(3)} ms (target 20)`);
  console.log(`control loop jitter p99 (idle): ${idle.jitter_p99_ms.toFixed(3)} ms (target < 5)`);
  console.log(`control loop jitter max (idle): ${idle.jitter_max_ms.toFixed(3)} ms (target -)`);
  console.log(`control loop jitter p99 (last 40 s, incl. set_target flood): ${loaded.jitter_p99_ms.toFixed(3)} ms (target < 5)`);
} finally {
  await pool.close();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('close', r));
  await rm(dir, { recursive: true, force: true });
}
