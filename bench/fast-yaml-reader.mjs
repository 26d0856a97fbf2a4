// What the fast reader of robot.yaml (schema/fast-yaml*.ts) saves on the
// figure it exists for, plan and diff end to end (plan-diff-e2e.mjs): the
// file of 1,000 and of 10,000 webhooks read into a Config in a fresh process
// (cold, as a command reads it), by the fast reader and by the yaml library
// alone (the loader's other path), in turn, medians of RUNS; and the saving
// as a share of `robotctl plan` of the same file with 100 robots, whole
// process (as shipped). Build first.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, median } from './lib/measure.mjs';
import { measureProcess } from './lib/process-run.mjs';
import { figure } from './lib/figures.mjs';
import { startWorldFleet, startWorldHub, worldEnv, writeWorldYaml } from './lib/plan-world.mjs';

const { startHub } = await import('../dist/runtime/hub/server.js');
const RUNS = 9;
const reader = fileURLToPath(new URL('./lib/read-robot-yaml.mjs', import.meta.url));
const readMs = (mode, file) => Number(execFileSync(process.execPath, [reader, mode, file], { encoding: 'utf8' }));

const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-reader-'));
let fleet = null;
try {
  console.log(`fast-yaml-reader (${load()})`);
  fleet = await startWorldFleet(dir, 100);
  for (const n of [1_000, 10_000]) {
    const file = writeWorldYaml(dir, `reader-${n}`, n, fleet);
    const times = { fast: [], yaml: [] };
    for (let r = 0; r < RUNS; r++) for (const mode of r % 2 === 0 ? ['fast', 'yaml'] : ['yaml', 'fast']) times[mode].push(readMs(mode, file));
    const hub = await startWorldHub(startHub, dir, n, false);
    const plans = [];
    try {
      for (let r = 0; r < RUNS; r++) plans.push((await measureProcess(['plan', '-f', file], { env: worldEnv(hub), unset: ['NODE_EXTRA_CA_CERTS'] })).wallMs);
    } finally {
      await hub.close();
    }
    const fast = median(times.fast);
    const yaml = median(times.yaml);
    const plan = median(plans);
    figure({
      name: `robot.yaml of ${n.toLocaleString('en')} webhooks and 100 robots read cold: saved by the fast reader`, value: Math.round(yaml - fast), unit: 'ms',
      note: `fast reader ${fast.toFixed(0)} ms, yaml library alone ${yaml.toFixed(0)} ms; ${(100 * (yaml - fast) / (plan + yaml - fast)).toFixed(0)}% of `
        + `\`plan\` of that file (${plan.toFixed(0)} ms whole process, empty hub) as it would be without the fast reader; medians of ${RUNS}, in turn`,
    });
  }
} finally {
  await fleet?.stop();
  rmSync(dir, { recursive: true, force: true });
}
