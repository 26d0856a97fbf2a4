import type { Io } from '../../../lib/io.js';
import { ansi } from '../../../lib/io.js';
import { ExitError } from '../../../lib/errors.js';
import { pyJson, pyStr, type Format } from './format.js';
import { readLine } from '../../prompt.js';

export interface Output {
  io: Io;
  format: Format;
  truncate: boolean;
}

// Like huggingface_hub, colour is on unless NO_COLOR is set (even when piped).
const colored = (o: Output) => !o.io.env.NO_COLOR;

function humanCell(v: unknown): string {
  if (v === true) return '✔';
  if (v === false || v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(String).join(', ');
  return String(v);
}

/** Rows as a table: padded columns (human), TSV (agent), a JSON list, or ids (quiet). */
export function table(o: Output, rows: Record<string, unknown>[], idKey = 'id'): void {
  const { io } = o;
  if (o.format === 'json') { io.out(`${pyJson(rows)}\n`); return; }
  if (o.format === 'quiet') { for (const r of rows) io.out(`${String(r[idKey])}\n`); return; }
  if (rows.length === 0) { io.out('No results found.\n'); return; }
  const keys = Object.keys(rows[0] ?? {});
  if (o.format === 'agent') {
    io.out(`${keys.join('\t')}\n`);
    for (const r of rows) io.out(`${keys.map((k) => pyStr(r[k])).join('\t')}\n`);
    return;
  }
  const cells = rows.map((r) => keys.map((k) => humanCell(r[k])));
  const headers = keys.map((k) => k.toUpperCase());
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const truncated = o.truncate && fit(widths, Number(io.env.COLUMNS) || 80);
  const line = (vals: string[]) => vals.map((v, i) => cut(v, widths[i] ?? 0).padEnd(widths[i] ?? 0) + ' ').join('');
  io.out(`${[line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n')}\n`);
  if (truncated) io.err('Hint: Use `--no-truncate` or `--format json` to display full values.\n');
}

/** Shrink the widest column until the row fits; true if anything shrank. */
function fit(widths: number[], columns: number): boolean {
  let changed = false;
  const total = () => widths.reduce((a, b) => a + b + 1, 0);
  while (total() > columns) {
    const i = widths.indexOf(Math.max(...widths));
    if ((widths[i] ?? 0) <= 6) break;
    widths[i] = (widths[i] ?? 0) - 1;
    changed = true;
  }
  return changed;
}

function cut(v: string, w: number): string {
  return v.length > w ? `${v.slice(0, Math.max(0, w - 3))}...` : v;
}

/** A record: indented JSON for people, one line otherwise; None values dropped. */
export function dict(o: Output, data: Record<string, unknown>): void {
  const clean = dropNulls(data);
  o.io.out(`${o.format === 'human' ? pyJson(clean, 2) : pyJson(clean)}\n`);
}

function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined).map(([k, x]) => [k, dropNulls(x)]));
  }
  return v;
}

export function result(o: Output, message: string, fields: Record<string, string>): void {
  const { io } = o;
  const entries = Object.entries(fields);
  if (o.format === 'json') io.out(`${pyJson(fields)}\n`);
  else if (o.format === 'quiet') io.out(`${entries.map(([, v]) => v).join('\n')}\n`);
  else if (o.format === 'agent') io.out(`${entries.map(([k, v]) => `${k}=${v}`).join(' ')}\n`);
  else {
    const head = colored(o) ? ansi.green(`✓ ${message}`) : `✓ ${message}`;
    io.out(`${head}\n${entries.map(([k, v]) => `  ${k}: ${v}\n`).join('')}`);
  }
}

/** An error from the hub: `Error: …` and a hint (not in quiet mode), exit 1. */
export function fail(o: Output, message: string): never {
  const human = o.format === 'human' && colored(o);
  o.io.err(`${human ? ansi.bold(ansi.red(`Error: ${message}`)) : `Error: ${message}`}\n`);
  if (o.format !== 'quiet') {
    const hint = 'Hint: set HF_DEBUG=1 as environment variable for full traceback.';
    o.io.err(`${human ? ansi.gray(hint) : hint}\n`);
  }
  throw new ExitError(1);
}

/** Ask before a destructive step; --yes skips; only human mode may prompt. */
export async function confirm(o: Output, question: string, yes: boolean): Promise<void> {
  if (yes) return;
  if (o.format !== 'human') {
    o.io.err(`Error: ${question} Use --yes to skip confirmation.\n`);
    throw new ExitError(1);
  }
  o.io.out(`${question} [y/N]: `);
  const answer = await readLine();
  if (answer === null || !/^\s*y(es)?\s*$/i.test(answer)) {
    o.io.err(`${answer === null ? '\n' : ''}Aborted!\n`);
    throw new ExitError(1);
  }
}
