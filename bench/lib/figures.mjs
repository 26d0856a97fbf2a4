// One line per measured figure, in the same shape in every benchmark, so that
// `npm run bench` can end with a single table of figure, target and verdict.
// A benchmark calls figure(); the line goes to stdout as it always did, and,
// when run by bench/run.js, also to the JSON-lines file it names in
// $BENCH_FIGURES.
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
  const shown = Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 2 : 1);
  const verdict = ok === undefined ? '' : ok ? ' ok' : ' MISSED';
  const targetText = target ? ` (target ${target}${verdict.trim() ? `:${verdict}` : ''})` : '';
  console.log(`figure: ${name} = ${shown} ${unit}${targetText}${note ? `; ${note}` : ''} [load ${load.toFixed(2)}]`);
  const file = process.env.BENCH_FIGURES;
  if (file) appendFileSync(file, `${JSON.stringify({ name, value, unit, target, ok, note, load })}\n`);
}
