import { ansi, useColor, type Io } from '../../lib/io.js';
import { ExitError } from '../../lib/errors.js';
import { readLine } from '../prompt.js';
import { pyJson, pyStr } from './python-text.js';
import { formatTable } from './table.js';

// `robotctl webhooks`: huggingface_hub's output layer (cli/_output.py) in its
// four formats, one implementation each, chosen once per command. Unlike hf,
// colour is painted only on a terminal (never into a pipe, never with
// NO_COLOR), and a piped table is never cut.

export type Format = 'human' | 'agent' | 'json' | 'quiet';

export interface WebhooksView {
  /** Rows as a table: padded columns (human), TSV (agent), a JSON list, or ids (quiet). */
  table(rows: Record<string, unknown>[]): void;
  /** One record: indented JSON for people, one line otherwise; None values dropped. */
  record(data: Record<string, unknown>): void;
  result(message: string, fields: Record<string, string>): void;
  /** An error from the hub: `Error: …` and a hint (not in quiet mode), exit 1. */
  fail(message: string): never;
  /** Ask before a destructive step; --yes skips; only the human format may prompt. */
  confirm(question: string, yes: boolean): Promise<void>;
}

const HINT = 'Hint: set HF_DEBUG=1 as environment variable for full traceback.';

export function newWebhooksView(format: Format, io: Io, opts: { truncate: boolean }): WebhooksView {
  if (format === 'human') return humanView(io, opts.truncate);
  const refuse = async (question: string, yes: boolean): Promise<void> => {
    if (yes) return;
    io.err(`Error: ${question} Use --yes to skip confirmation.\n`);
    throw new ExitError(1);
  };
  const fail = (message: string): never => {
    io.err(`Error: ${message}\n${format === 'quiet' ? '' : `${HINT}\n`}`);
    throw new ExitError(1);
  };
  const line = (text: string): void => io.out(`${text}\n`);
  if (format === 'json') {
    return { table: (rows) => line(pyJson(rows)), record: (d) => line(pyJson(dropNulls(d))), result: (_m, f) => line(pyJson(f)), fail, confirm: refuse };
  }
  if (format === 'quiet') {
    return {
      table: (rows) => { for (const r of rows) line(String(r.id)); },
      record: (d) => line(pyJson(dropNulls(d))),
      result: (_m, f) => line(Object.values(f).join('\n')),
      fail, confirm: refuse,
    };
  }
  return { table: (rows) => agentTable(io, rows), record: (d) => line(pyJson(dropNulls(d))), result: (_m, f) => line(Object.entries(f).map(([k, v]) => `${k}=${v}`).join(' ')), fail, confirm: refuse };
}

function agentTable(io: Io, rows: Record<string, unknown>[]): void {
  if (rows.length === 0) { io.out('No results found.\n'); return; }
  const keys = Object.keys(rows[0] ?? {});
  io.out(`${keys.join('\t')}\n`);
  for (const r of rows) io.out(`${keys.map((k) => pyStr(r[k])).join('\t')}\n`);
}

function humanView(io: Io, truncate: boolean): WebhooksView {
  const color = useColor(io);
  return {
    table: (rows) => humanTable(io, rows, truncate),
    record: (d) => io.out(`${pyJson(dropNulls(d), 2)}\n`),
    result: (message, fields) => {
      const head = color ? ansi.green(`✓ ${message}`) : `✓ ${message}`;
      io.out(`${head}\n${Object.entries(fields).map(([k, v]) => `  ${k}: ${v}\n`).join('')}`);
    },
    fail: (message) => {
      io.err(color ? `${ansi.bold(ansi.red(`Error: ${message}`))}\n${ansi.gray(HINT)}\n` : `Error: ${message}\n${HINT}\n`);
      throw new ExitError(1);
    },
    confirm: async (question, yes) => {
      if (yes) return;
      io.out(`${question} [y/N]: `);
      const answer = await readLine();
      if (answer === null || !/^\s*y(es)?\s*$/i.test(answer)) {
        io.err(`${answer === null ? '\n' : ''}Aborted!\n`);
        throw new ExitError(1);
      }
    },
  };
}

/** hf's table; cut to the terminal's width only on a terminal, and never the id column. */
function humanTable(io: Io, rows: Record<string, unknown>[], truncate: boolean): void {
  if (rows.length === 0) { io.out('No results found.\n'); return; }
  const keys = Object.keys(rows[0] ?? {});
  const cells = rows.map((r) => keys.map((k) => humanCell(r[k])));
  const maxWidth = truncate && io.isTTY ? Number(io.env.COLUMNS) || 80 : null;
  const t = formatTable(keys.map((k) => k.toUpperCase()), cells, { gap: ' ', rule: true, padLast: true, maxWidth, keep: [keys.indexOf('id')] });
  io.out(`${t.text}\n`);
  if (t.cut) io.err('Hint: Use `--no-truncate` or `--format json` to display full values.\n');
}

function humanCell(v: unknown): string {
  if (v === true) return '✔';
  if (v === false || v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(String).join(', ');
  return String(v);
}

function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined).map(([k, x]) => [k, dropNulls(x)]));
  }
  return v;
}
