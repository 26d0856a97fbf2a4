#!/usr/bin/env node
// Runs every bench/*.mjs (or the ones whose file name contains a word given
// on the command line) one after another, each in its own process so one
// benchmark's sockets, timers and children cannot disturb the next. Figures
// are what each benchmark prints; at the end, one table of every figure with
// its target, and the same table written to docs/benchmarks.md
// (bench/lib/benchmarks-page.mjs), where a partial run replaces only the rows
// of the benchmarks it ran.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatValue } from './lib/figures.mjs';
import { writeBenchmarksPage } from './lib/benchmarks-page.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const page = join(here, '..', 'docs', 'benchmarks.md');
const wanted = process.argv.slice(2);
const all = readdirSync(here).filter((f) => f.endsWith('.mjs')).sort();
const files = all.filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)));

// Each benchmark appends its figures (bench/lib/figures.mjs) here; the table
// at the end puts them side by side with their targets.
const scratch = mkdtempSync(join(tmpdir(), 'robotctl-bench-run-'));
const figuresFile = join(scratch, 'figures.jsonl');
const loadAtStart = loadavg();

const ran = [];
for (const f of files) {
  console.log(`\n## ${f}`);
  const r = spawnSync(process.execPath, [join(here, f)], {
    stdio: 'inherit', timeout: 600_000, env: { ...process.env, BENCH_FIGURES: figuresFile, BENCH_NAME: benchName(f) },
  });
  const status = r.status ?? r.signal ?? 'no exit status';
  ran.push({ bench: benchName(f), status });
  if (status !== 0) console.log(`(${f} exited with ${status})`);
}
const figures = readFigures();
printSummary(figures);
const cpu = cpus();
const written = writeBenchmarksPage({
  file: page, figures, ran, known: all.map(benchName),
  machine: `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, load average ${fmt(loadAtStart)} at the start and ${fmt(loadavg())} at the end`,
});
console.log(`\ndocs/benchmarks.md: ${written.rows} rows, ${written.missed} target(s) missed`);
rmSync(scratch, { recursive: true, force: true });
const failed = ran.filter((r) => r.status !== 0).length;
console.log(`\n${files.length - failed} benchmarks ran, ${failed} failed`);
process.exitCode = failed ? 1 : 0;

function benchName(file) {
  return file.replace(/\.mjs$/, '');
}

function fmt(loads) {
  return loads.map((x) => x.toFixed(2)).join(' ');
}

function readFigures() {
  try {
    return readFileSync(figuresFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  } catch {
    return []; // no benchmark reported a figure
  }
}

function printSummary(lines) {
  if (lines.length === 0) return;
  console.log(`\n## summary (load at start ${fmt(loadAtStart)}, at end ${fmt(loadavg())})\n`);
  console.log('| figure | value | target | met | load |');
  console.log('|---|---|---|---|---|');
  for (const f of lines) {
    const met = f.ok === undefined ? '' : f.ok ? 'yes' : '**no**';
    const note = f.note ? ` (${f.note})` : '';
    console.log(`| ${f.name}${note} | ${formatValue(f.value)} ${f.unit} | ${f.target ?? ''} | ${met} | ${f.load.toFixed(2)} |`);
  }
  const missed = lines.filter((f) => f.ok === false).length;
  console.log(`\n${lines.length} figures, ${missed} target(s) missed`);
}
