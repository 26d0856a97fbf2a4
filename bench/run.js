#!/usr/bin/env node
// Runs every bench/*.mjs (or the ones named on the command line) one after
// another, each in its own process so one benchmark's sockets, timers and
// children cannot disturb the next. Figures are what each benchmark prints.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.mjs'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();

let failed = 0;
for (const f of files) {
  console.log(`\n## ${f}`);
  const r = spawnSync(process.execPath, [join(here, f)], { stdio: 'inherit', timeout: 600_000 });
  if (r.status !== 0) {
    failed += 1;
    console.log(`(${f} exited with ${r.status ?? r.signal})`);
  }
}
console.log(`\n${files.length - failed} benchmarks ran, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
