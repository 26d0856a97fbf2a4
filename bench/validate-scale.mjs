// `robotctl validate` on 1,000 / 4,000 / 16,000 webhooks, valid and with one
// unknown key per entry (as many errors as entries): wall time, CPU and peak
// memory of the whole command, and the ratio per 4× (linear is ×4).
// Targets: linear; 16,000 valid entries < 1 s. First, start-up: `validate -f
// examples/fleet.yaml` as a whole process (target < 100 ms) beside `--help`.
// Build first: it runs ../dist.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, measureCli, processWallMs, ratio, root } from './lib/measure.mjs';
import { SECRET_ENV, webhooksYaml } from './lib/robot-yaml.mjs';

const SIZES = [1_000, 4_000, 16_000];
const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-validate-'));
try {
  console.log(`validate-scale (${load()})`);
  const fleet = join(root, 'examples', 'fleet.yaml');
  const startup = processWallMs(['validate', '-f', fleet], { env: SECRET_ENV });
  const help = processWallMs(['--help']);
  console.log(`validate-scale validate -f examples/fleet.yaml: ${startup.toFixed(0)} ms whole process (target < 100 ms; robotctl --help ${help.toFixed(0)} ms)`);
  for (const unknownKey of [false, true]) {
    let previous;
    for (const n of SIZES) {
      const file = join(dir, `robot-${n}-${unknownKey}.yaml`);
      writeFileSync(file, webhooksYaml(n, { unknownKey }));
      const u = await measureCli(['validate', '-f', file], { env: SECRET_ENV });
      if (u.code !== (unknownKey ? 1 : 0)) throw new Error(`validate of ${n} entries exited ${u.code}`);
      const step = previous ? ` (${ratio(previous.wallMs, u.wallMs)} wall, ${ratio(previous.cpuMs, u.cpuMs)} cpu per 4×)` : '';
      const target = !unknownKey && n === 16_000 ? ' (target < 1000 ms)' : '';
      console.log(`validate-scale ${n} entries ${unknownKey ? `with ${n} errors` : 'valid'}: ${u.wallMs.toFixed(0)} ms${target}, cpu ${u.cpuMs.toFixed(0)} ms, peak ${u.maxRssMb.toFixed(0)} MB${step}`);
      previous = u;
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
