#!/usr/bin/env node
// Runs every bench/*.mjs (or the ones named on the command line) one after
// another, each in its own process so one benchmark's sockets, timers and
// children cannot disturb the next. Figures are what each benchmark prints.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.mjs'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();

// Each benchmark appends its figures (bench/lib/figures.mjs) here; the table
// at the end puts them side by side with their targets.
const scratch = mkdtempSync(join(tmpdir(), 'robotctl-bench-run-'));
const figuresFile = join(scratch, 'figures.jsonl');
const loadAtStart = loadavg();

let failed = 0;
for (const f of files) {
  console.log(`\n## ${f}`);
  const r = spawnSync(process.execPath, [join(here, f)], {
    stdio: 'inherit', timeout: 600_000, env: { ...process.env, BENCH_FIGURES: figuresFile },
  });
  if (r.status !== 0) {
    failed += 1;
    console.log(`(${f} exited with ${r.status ?? r.signal})`);
  }
}
printSummary();
rmSync(scratch, { recursive: true, force: true });
console.log(`\n${files.length - failed} benchmarks ran, ${failed} failed`);
process.exitCode = failed ? 1 : 0;

function printSummary() {
  let lines = [];
  try {
    lines = readFileSync(figuresFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  } catch {
    return; // no benchmark reported a figure
  }
  const fmt = (l) => l.map((x) => x.toFixed(2)).join(' ');
  console.log(`\n## summary (load at start ${fmt(loadAtStart)}, at end ${fmt(loadavg())})\n`);
  console.log('| figure | value | target | met | load |');
  console.log('|---|---|---|---|---|');
  for (const f of lines) {
    const value = Number.isInteger(f.value) ? String(f.value) : f.value.toFixed(f.value < 10 ? 2 : 1);
    const met = f.ok === undefined ? '' : f.ok ? 'yes' : '**no**';
    const note = f.note ? ` (${f.note})` : '';
    console.log(`| ${f.name}${note} | ${value} ${f.unit} | ${f.target ?? ''} | ${met} | ${f.load.toFixed(2)} |`);
  }
  const missed = lines.filter((f) => f.ok === false).length;
  console.log(`\n${lines.length} figures, ${missed} target(s) missed`);
}
