// `robotctl plan` and `robotctl diff` end to end, as a user runs them: the
// whole process (spawn to exit), against the embedded hub and 100 simulated
// robots (one `robotctl daemon --sim --robots 100`), for 1,000 and 10,000
// webhooks in robot.yaml, in two worlds: an empty hub (every webhook to
// create) and a hub that already holds them all (no state file: every one
// adopted). Each robot has nothing installed: an install and a start each.
// Targets, for the sizes users have: 1,000 webhooks and 100 robots < 500 ms;
// 10,000 webhooks < 2 s and < 300 MB peak. Medians of RUNS runs (every run's
// wall is in the note): one run on this shared 2-core machine varies too
// much to tell a change. Judged without NODE_EXTRA_CA_CERTS, which this
// machine sets and a user of the embedded hub would not (Node then reads the
// whole CA bundle at start). Build first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, median } from './lib/measure.mjs';
import { measureProcess } from './lib/process-run.mjs';
import { figure } from './lib/figures.mjs';
import { startWorldFleet, startWorldHub, worldEnv, writeWorldYaml } from './lib/plan-world.mjs';

const { startHub } = await import('../dist/runtime/hub/server.js');
const ROBOTS = 100;
const SIZES = [1_000, 10_000];
const WALL_TARGET_MS = { 1_000: 500, 10_000: 2000 };
const PEAK_TARGET_MB = 300;
const RUNS = 7;

const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-plan-'));
let fleet = null;
try {
  console.log(`plan-diff-e2e (${load()})`);
  fleet = await startWorldFleet(dir, ROBOTS);
  for (const populated of [false, true]) {
    for (const n of SIZES) {
      const hub = await startWorldHub(startHub, dir, n, populated);
      try {
        const file = writeWorldYaml(dir, `${n}-${populated}`, n, fleet);
        for (const command of ['plan', 'diff']) {
          const runs = [];
          for (let r = 0; r < RUNS; r++) {
            // As a user runs it: no --state (the state beside the file, none yet).
            const run = await measureProcess([command, '-f', file], { env: worldEnv(hub), unset: ['NODE_EXTRA_CA_CERTS'] });
            if (run.code !== 2) throw new Error(`${command} of ${n} webhooks exited ${run.code} (expected 2: changes)`);
            runs.push(run);
          }
          const wall = median(runs.map((r) => r.wallMs));
          const cpu = median(runs.map((r) => r.cpuMs));
          const peak = Math.max(...runs.map((r) => r.maxRssMb));
          const label = `${command} ${n.toLocaleString('en')} webhooks and ${ROBOTS} robots, ${populated ? 'hub holds them (adopt)' : 'empty hub (create)'}`;
          const target = WALL_TARGET_MS[n];
          figure({
            name: `${label}, whole process`, value: Math.round(wall), unit: 'ms', target: `< ${target}`, ok: wall < target,
            note: `median of ${RUNS} (${runs.map((r) => Math.round(r.wallMs)).sort((a, b) => a - b).join(', ')}), cpu ${cpu.toFixed(0)} ms, peak ${peak.toFixed(0)} MB`,
          });
          if (n === 10_000) figure({ name: `${label}, peak RSS`, value: Math.round(peak), unit: 'MB', target: `< ${PEAK_TARGET_MB}`, ok: peak < PEAK_TARGET_MB });
        }
      } finally {
        await hub.close();
      }
    }
  }
} finally {
  await fleet?.stop();
  rmSync(dir, { recursive: true, force: true });
}
