// What keeping WebAssembly on V8's first tier (lib/webassembly-tier.ts) saves
// on the figures it exists for: `robotctl plan` and `diff` of 1,000 webhooks
// and 100 robots, and of 10,000 webhooks, whole processes, with the flag (as
// shipped) and without it (bench/lib/no-liftoff-only.cjs makes the session's
// call a no-op), run after run in turn, medians of RUNS. The world is
// plan-diff-e2e.mjs's, the hub holding every webhook (adopt). Build first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, median } from './lib/measure.mjs';
import { measureProcess } from './lib/process-run.mjs';
import { figure } from './lib/figures.mjs';
import { startWorldFleet, startWorldHub, worldEnv, writeWorldYaml } from './lib/plan-world.mjs';

const { startHub } = await import('../dist/runtime/hub/server.js');
const RUNS = 11;
const noFlag = fileURLToPath(new URL('./lib/no-liftoff-only.cjs', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-wasm-'));
let fleet = null;
try {
  console.log(`webassembly-tier (${load()})`);
  fleet = await startWorldFleet(dir, 100);
  for (const [n, robots] of [[1_000, fleet], [10_000, null]]) {
    const hub = await startWorldHub(startHub, dir, n, true);
    try {
      const file = writeWorldYaml(dir, `wasm-${n}`, n, robots);
      for (const command of ['plan', 'diff']) {
        const runs = { with: [], without: [] };
        for (let r = 0; r < RUNS; r++) {
          for (const way of r % 2 === 0 ? ['with', 'without'] : ['without', 'with']) {
            const env = { ...worldEnv(hub), ...(way === 'without' ? { NODE_OPTIONS: `-r ${noFlag}` } : {}) };
            const run = await measureProcess([command, '-f', file], { env, unset: ['NODE_EXTRA_CA_CERTS'] });
            if (run.code !== 2) throw new Error(`${command} exited ${run.code}`);
            runs[way].push(run);
          }
        }
        const m = (way, key) => median(runs[way].map((x) => x[key]));
        const peak = (way) => Math.max(...runs[way].map((x) => x.maxRssMb));
        const saved = m('without', 'wallMs') - m('with', 'wallMs');
        const label = `${command} ${n.toLocaleString('en')} webhooks${robots ? ' and 100 robots' : ''} (adopt), whole process`;
        figure({
          name: `${label}: saved by the first-tier WebAssembly flag`, value: Math.round(saved), unit: 'ms',
          note: `${(100 * saved / m('without', 'wallMs')).toFixed(0)}% of ${Math.round(m('without', 'wallMs'))} ms without it; `
            + `with ${Math.round(m('with', 'wallMs'))} ms; cpu ${m('with', 'cpuMs').toFixed(0)} vs ${m('without', 'cpuMs').toFixed(0)} ms; `
            + `peak ${peak('with').toFixed(0)} vs ${peak('without').toFixed(0)} MB; medians of ${RUNS}, in turn`,
        });
      }
    } finally {
      await hub.close();
    }
  }
} finally {
  await fleet?.stop();
  rmSync(dir, { recursive: true, force: true });
}
