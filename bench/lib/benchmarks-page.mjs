// docs/benchmarks.md, written by bench/run.js from the figures the
// benchmarks reported (bench/lib/figures.mjs): one table of figure, value,
// target, whether it is met, the load average and the date. A run of some
// benchmarks (`node bench/run.js receiver`) replaces the rows of those it ran
// and keeps the others' rows as they were, each with its own date and load,
// so the page always says which run every row comes from.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { formatValue } from './figures.mjs';

const HEADER = '| benchmark | figure | value | target | met | load | date |';
const RULE = '|---|---|---|---|---|---|---|';
const MISSED = '**no**';

/** A table cell: no line breaks, and `|` escaped so the row stays one row. */
const cell = (text) => String(text ?? '').replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

/** The benchmark a row of the page belongs to (its first cell). */
const benchOf = (row) => row.split(/(?<!\\)\|/)[1]?.trim() ?? '';

function figureRow(f) {
  const met = f.ok === undefined ? '' : f.ok ? 'yes' : MISSED;
  const name = f.note ? `${f.name} (${f.note})` : f.name;
  return `| ${cell(f.bench)} | ${cell(name)} | ${cell(`${formatValue(f.value)} ${f.unit}`)} | ${cell(f.target)} | ${met} | ${f.load.toFixed(2)} | ${f.at.slice(0, 10)} |`;
}

/** The rows of the table already on the page, or none. */
function pageRows(file) {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.indexOf(RULE);
  if (start < 0) return [];
  const rows = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('| ')) break;
    rows.push(line);
  }
  return rows;
}

/**
 * @param {object} o
 * @param {string} o.file       the page (docs/benchmarks.md)
 * @param {object[]} o.figures  the figures of this run, as figures.mjs wrote them
 * @param {{ bench: string, status: number | string }[]} o.ran  every benchmark this run started and how it exited
 * @param {string[]} o.known    every benchmark that exists now (rows of removed ones are dropped)
 * @param {string} o.machine    one line about the machine of this run
 */
export function writeBenchmarksPage({ file, figures, ran, known, machine }) {
  const now = new Date().toISOString();
  const rerun = new Set(ran.map((r) => r.bench));
  const fresh = new Map();
  for (const f of figures) fresh.set(f.bench, [...(fresh.get(f.bench) ?? []), figureRow(f)]);
  for (const { bench, status } of ran) {
    if (status === 0 && !fresh.has(bench)) {
      fresh.set(bench, [`| ${cell(bench)} | prints no figure() line: its figures are in its output only |  |  |  |  | ${now.slice(0, 10)} |`]);
    }
    if (status === 0) continue;
    const row = `| ${cell(bench)} | the benchmark failed (exit ${cell(status)}); its figures above are what it printed before |  |  | ${MISSED} |  | ${now.slice(0, 10)} |`;
    fresh.set(bench, [...(fresh.get(bench) ?? []), row]);
  }
  const kept = pageRows(file).filter((row) => !rerun.has(benchOf(row)) && known.includes(benchOf(row)));
  const byBench = new Map();
  for (const row of kept) byBench.set(benchOf(row), [...(byBench.get(benchOf(row)) ?? []), row]);
  for (const [bench, rows] of fresh) byBench.set(bench, rows);
  const rows = [...byBench.keys()].sort().flatMap((b) => byBench.get(b));
  const missed = rows.filter((r) => r.split(/(?<!\\)\|/)[5]?.trim() === MISSED).length;
  const notRun = known.filter((b) => !byBench.has(b));
  const text = `# Benchmarks

Written by \`npm run bench\` (bench/run.js, bench/lib/benchmarks-page.mjs); do
not edit by hand. Each row is its benchmark's last run: \`node bench/run.js
NAME…\` runs the benchmarks whose file name contains a NAME and replaces only
their rows, so rows of one date come from one run. *load* is the 1-minute load
average when the figure was taken: above the machine's core count, other work
shared the CPU and a time or a rate reads worse than on a quiet machine.
Throughput figures name their load generator and its CPU; what each figure
means, and why its target, is in the benchmark's own file (bench/README.md).

Last run on: ${machine}.

${HEADER}
${RULE}
${rows.join('\n')}

${rows.length} rows, ${missed} target(s) missed.${notRun.length ? ` Not run yet: ${notRun.join(', ')}.` : ''}
`;
  writeFileSync(file, text);
  return { rows: rows.length, missed };
}
