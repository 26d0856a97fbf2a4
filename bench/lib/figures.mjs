// One line per measured figure, in the same shape in every benchmark, so that
// `npm run bench` can end with a single table of figure, target and verdict,
// and write it to docs/benchmarks.md (bench/lib/benchmarks-page.mjs).
// A benchmark calls figure(); the line goes to stdout as it always did, and,
// when run by bench/run.js, also to the JSON-lines file it names in
// $BENCH_FIGURES, tagged with the benchmark's name ($BENCH_NAME), the load
// average and the time it was taken.
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/**
 * @param {object} f
 * @param {string} f.name    what was measured, e.g. "plan 10,000 webhooks, wall"
 * @param {number} f.value   the figure
 * @param {string} f.unit    "ms", "MiB", "req/s", "×", "calls/robot", …
 * @param {string} [f.target] the issue's target as text, e.g. "< 500"
 * @param {boolean} [f.ok]   whether the target is met (omit when there is no target)
 * @param {string} [f.note]  anything the figure needs to be read right (a ratio, a comparison)
 */
export function figure({ name, value, unit, target, ok, note }) {
  const load = loadavg()[0];
  const verdict = ok === undefined ? '' : ok ? ' ok' : ' MISSED';
  const targetText = target ? ` (target ${target}${verdict.trim() ? `:${verdict}` : ''})` : '';
  console.log(`figure: ${name} = ${formatValue(value)} ${unit}${targetText}${note ? `; ${note}` : ''} [load ${load.toFixed(2)}]`);
  const file = process.env.BENCH_FIGURES;
  if (file) {
    const at = new Date().toISOString();
    appendFileSync(file, `${JSON.stringify({ bench: process.env.BENCH_NAME ?? '', name, value, unit, target, ok, note, load, at })}\n`);
  }
}

/** A figure as the console line and the page show it: integers whole, small values to 2 places, others to 1. */
export function formatValue(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 2 : 1);
}
