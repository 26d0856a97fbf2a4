// What the CLI bundle and its V8 code cache (cli/build-bundle.mjs,
// bin/bundle-loader.js) save at start-up, the figure they exist for:
// `robotctl validate -f examples/fleet.yaml` and `robotctl --help` as whole
// processes, started three ways, run after run in turn (medians of RUNS):
// as bin/robotctl.js starts (the bundle with its cache), the bundle without
// its cache, and the compiled modules of dist/ without the bundle. The
// target (< 100 ms for validate) is validate-scale.mjs's. Judged without
// NODE_EXTRA_CA_CERTS (see validate-scale.mjs). Build first.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, median, root } from './lib/measure.mjs';
import { figure } from './lib/figures.mjs';
import { SECRET_ENV } from './lib/robot-yaml.mjs';

const RUNS = 21;
const main = (cli) => `${cli}.then((m) => m.main(process.argv.slice(1))).then((code) => { process.exitCode = code; })`;
const SHIPPED = 'bundle and code cache (bin/robotctl.js)';
const hook = join(root, 'bench', 'lib', 'usage-hook.cjs');
const WAYS = {
  [SHIPPED]: [join(root, 'bin', 'robotctl.js')],
  'bundle without its cache': ['-e', main("Promise.resolve(require('./bin/bundle-loader.js').loadBundle({ useCache: false }).exports)")],
  'modules of dist/, no bundle': ['-e', main("import('./dist/cli/main.js')")],
};
const { NODE_EXTRA_CA_CERTS: _ca, ...env } = { ...process.env, ...SECRET_ENV, NO_COLOR: '1' };

/** Whole-process wall and CPU of each way, the ways taking turns: { way: { wallMs, cpuMs } }. */
function measure(args) {
  const times = Object.fromEntries(Object.keys(WAYS).map((w) => [w, { wall: [], cpu: [] }]));
  const usage = join(dir, 'usage.json');
  for (let r = 0; r < RUNS; r++) {
    const ways = Object.entries(WAYS);
    for (const [way, argv] of r % 2 === 0 ? ways : ways.reverse()) {
      const t0 = performance.now();
      const out = spawnSync(process.execPath, ['-r', hook, ...argv, ...args], { cwd: root, env: { ...env, BENCH_USAGE_FILE: usage }, encoding: 'utf8' });
      times[way].wall.push(performance.now() - t0);
      if (out.status !== 0) throw new Error(`${way}: ${args.join(' ')} exited ${out.status}: ${out.stderr}`);
      times[way].cpu.push(JSON.parse(readFileSync(usage, 'utf8')).cpuMs);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([w, t]) => [w, { wallMs: median(t.wall), cpuMs: median(t.cpu) }]));
}

const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-startup-'));
try {
  console.log(`startup (${load()})`);
  for (const [label, args] of [['validate -f examples/fleet.yaml', ['validate', '-f', 'examples/fleet.yaml']], ['--help', ['--help']]]) {
    const ms = measure(args);
    const shipped = ms[SHIPPED].wallMs;
    for (const [way, { wallMs, cpuMs }] of Object.entries(ms)) {
      const saving = way === SHIPPED ? '' : `; the bundle and its cache save ${Math.round(wallMs - shipped)} ms (${(100 * (wallMs - shipped) / wallMs).toFixed(0)}%) of this`;
      figure({ name: `${label}, whole process, ${way}`, value: Math.round(wallMs), unit: 'ms', note: `median of ${RUNS}, the ways in turn, cpu ${cpuMs.toFixed(0)} ms${saving}` });
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
