// `robotctl validate` on 1,000 / 4,000 / 16,000 webhooks, valid and with one
// unknown key per entry (as many errors as entries): wall time, CPU and peak
// memory of the whole command, and the ratio per 4× (linear is ×4).
// Targets: linear; 16,000 valid entries < 1 s. First, start-up: `validate -f
// examples/fleet.yaml` as a whole process (target < 100 ms) beside `--help`.
// Build first: it runs ../dist.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { load, measureCli, median, processWallMs, root } from './lib/measure.mjs';
import { figure } from './lib/figures.mjs';
import { SECRET_ENV, webhooksYaml } from './lib/robot-yaml.mjs';

const SIZES = [1_000, 4_000, 16_000];
const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-validate-'));
try {
  console.log(`validate-scale (${load()})`);
  const fleet = join(root, 'examples', 'fleet.yaml');
  const startup = processWallMs(['validate', '-f', fleet], { env: SECRET_ENV });
  // As the README runs it: WEBHOOK_SECRET unset, two warnings.
  const unset = processWallMs(['validate', '-f', fleet], { env: { WEBHOOK_SECRET: '' } });
  const help = processWallMs(['--help']);
  const bare = nodeStartMs();
  const note = `robotctl --help ${help.toFixed(0)} ms, node -e 0 ${bare.toFixed(0)} ms (median of 7)`;
  figure({ name: 'validate -f examples/fleet.yaml, whole process', value: Math.round(startup), unit: 'ms', target: '< 100', ok: startup < 100, note });
  figure({ name: 'validate -f examples/fleet.yaml, WEBHOOK_SECRET unset, whole process', value: Math.round(unset), unit: 'ms', target: '< 100', ok: unset < 100, note });
  for (const unknownKey of [false, true]) {
    let previous;
    for (const n of SIZES) {
      const file = join(dir, `robot-${n}-${unknownKey}.yaml`);
      writeFileSync(file, webhooksYaml(n, { unknownKey }));
      const u = await measureCli(['validate', '-f', file], { env: SECRET_ENV });
      if (u.code !== (unknownKey ? 1 : 0)) throw new Error(`validate of ${n} entries exited ${u.code}`);
      const label = `validate ${n.toLocaleString('en')} entries ${unknownKey ? `with ${n.toLocaleString('en')} errors` : 'valid'}`;
      const target = !unknownKey && n === 16_000 ? { target: '< 1000', ok: u.wallMs < 1000 } : {};
      figure({ name: `${label}, wall`, value: Math.round(u.wallMs), unit: 'ms', ...target, note: `cpu ${u.cpuMs.toFixed(0)} ms, peak ${u.maxRssMb.toFixed(0)} MB` });
      if (previous) {
        const step = u.cpuMs / previous.cpuMs;
        figure({ name: `${label}, cpu ratio per 4× entries`, value: step, unit: '×', target: '≤ 4 (linear)', ok: step <= 4, note: `wall ×${(u.wallMs / previous.wallMs).toFixed(1)}` });
      }
      previous = u;
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** `node -e 0`: what any Node CLI pays before its first line runs. */
function nodeStartMs() {
  const times = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    times.push(performance.now() - t0);
  }
  return median(times);
}
