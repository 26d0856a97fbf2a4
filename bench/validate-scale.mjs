// `robotctl validate` on 1,000 / 4,000 / 16,000 webhooks, valid and with one
// unknown key per entry (as many errors as entries): wall time, CPU and peak
// memory of the whole command, and the ratio per 4× (linear is ×4).
// Targets: linear; 16,000 valid entries < 1 s. First, start-up: `validate -f
// examples/fleet.yaml` as a whole process (target < 100 ms, judged without
// NODE_EXTRA_CA_CERTS: see below) beside `--help` and `node -e 0`.
// Build first: it runs ../dist.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, measureCli, nodeWallMs, processWallMs, root } from './lib/measure.mjs';
import { figure } from './lib/figures.mjs';
import { SECRET_ENV, webhooksYaml } from './lib/robot-yaml.mjs';

const SIZES = [1_000, 4_000, 16_000];
const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-validate-'));
try {
  console.log(`validate-scale (${load()})`);
  const fleet = join(root, 'examples', 'fleet.yaml');
  // Start-up twice: in this machine's environment, and without
  // NODE_EXTRA_CA_CERTS, which this machine (and CI) sets: Node then reads the
  // whole CA bundle before any code runs (about 90 ms; `node -e 0` 130 ms
  // against 40). robotctl cannot change its users' environment, so the target
  // is judged on the second: robotctl's own start-up.
  for (const [where, unset] of [['machine environment', []], ['NODE_EXTRA_CA_CERTS unset', ['NODE_EXTRA_CA_CERTS']]]) {
    const judged = unset.length > 0;
    const startup = processWallMs(['validate', '-f', fleet], { env: SECRET_ENV, unset });
    // As the README runs it: WEBHOOK_SECRET unset, two warnings.
    const noSecret = processWallMs(['validate', '-f', fleet], { env: { WEBHOOK_SECRET: '' }, unset });
    const help = processWallMs(['--help'], { unset });
    const bare = nodeWallMs(['-e', '0'], { unset });
    const note = `${where}; robotctl --help ${help.toFixed(0)} ms, node -e 0 ${bare.toFixed(0)} ms (medians of 7)${judged ? '' : '; the target is judged without NODE_EXTRA_CA_CERTS (next lines)'}`;
    const target = (ms) => (judged ? { target: '< 100', ok: ms < 100 } : {});
    figure({ name: `validate -f examples/fleet.yaml, whole process, ${where}`, value: Math.round(startup), unit: 'ms', ...target(startup), note });
    figure({ name: `validate -f examples/fleet.yaml, WEBHOOK_SECRET unset, whole process, ${where}`, value: Math.round(noSecret), unit: 'ms', ...target(noSecret), note });
  }
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
  const laughs = join(dir, 'laughs.yaml');
  writeFileSync(laughs, `version: 1\nx: &a [1]\ny: [${Array.from({ length: 200_000 }, () => '*a').join(', ')}]\n`);
  const bomb = await measureCli(['validate', '-f', laughs], {});
  if (bomb.code !== 1) throw new Error(`validate of 200,000 aliases exited ${bomb.code}`);
  figure({ name: 'validate of 200,000 YAML aliases (refused), wall', value: Math.round(bomb.wallMs), unit: 'ms', target: '< 500', ok: bomb.wallMs < 500, note: `cpu ${bomb.cpuMs.toFixed(0)} ms` });
  figure({ name: 'validate of 200,000 YAML aliases (refused), peak RSS', value: Math.round(bomb.maxRssMb), unit: 'MB', target: '< 100', ok: bomb.maxRssMb < 100 });
} finally {
  rmSync(dir, { recursive: true, force: true });
}

