// Runs the built CLI inside this process, then writes what it cost (wall time
// from before the CLI's first import, CPU, peak RSS, exit code) as JSON to
// $BENCH_USAGE_FILE. Used by the benchmarks through measure.mjs.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const started = performance.now();
// The CLI as bin/robotctl.js loads it: the bundle with its code cache when the
// build made one, else dist/cli/main.js.
const { loadBundle } = createRequire(import.meta.url)('../../bin/bundle-loader.js');
const { main } = loadBundle()?.exports ?? await import('../../dist/cli/main.js');
const code = await main(process.argv.slice(2));
const u = process.resourceUsage();
writeFileSync(process.env.BENCH_USAGE_FILE, JSON.stringify({
  code,
  wallMs: performance.now() - started,
  cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000,
  maxRssMb: u.maxRSS / 1024,
}));
