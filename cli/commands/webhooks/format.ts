import { UsageError } from '../../../lib/errors.js';

// Output formats of huggingface_hub's CLI (cli/_output.py), reproduced so
// scripts written against `hf webhooks` read `robotctl webhooks` the same way.

export type Format = 'human' | 'agent' | 'json' | 'quiet';
export const FORMAT_CHOICES = ['auto', 'human', 'agent', 'json', 'quiet'] as const;

// Environment variables set by AI coding agents; `auto` picks the agent format then.
const AGENT_ENV = ['AI_AGENT', 'CLAUDECODE', 'CURSOR_AGENT', 'GEMINI_CLI', 'CODEX_SANDBOX', 'OPENCODE', 'AIDER_MODEL'];

export function isAgentEnv(env: NodeJS.ProcessEnv): boolean {
  return AGENT_ENV.some((k) => Boolean(env[k]));
}

/** Only one of --format, --json and -q/--quiet may be given. */
export function checkExclusiveFormats(args: string[]): void {
  const seen: string[] = [];
  for (const a of args) {
    if (a === '--') break;
    const flag = a.startsWith('--format') ? '--format' : a;
    if ((flag === '--format' || flag === '--json' || flag === '-q' || flag === '--quiet') && !seen.includes(flag)) seen.push(flag);
  }
  if (seen.length > 1) throw new UsageError(`'${seen[0] ?? ''}' and '${seen[1] ?? ''}' are mutually exclusive.`);
}

export function chooseFormat(opts: { format?: string; json?: boolean; quiet?: boolean }, env: NodeJS.ProcessEnv): Format {
  if (opts.json) return 'json';
  if (opts.quiet) return 'quiet';
  const f = opts.format ?? 'auto';
  if (f === 'auto') return isAgentEnv(env) ? 'agent' : 'human';
  return f as Format;
}

function pyString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c > 0x7e) out += c > 0xffff ? surrogates(c) : `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function surrogates(c: number): string {
  const v = c - 0x10000;
  return `\\u${(0xd800 + (v >> 10)).toString(16)}\\u${(0xdc00 + (v & 0x3ff)).toString(16)}`;
}

/** Python's json.dumps: `, ` and `: ` separators, ASCII only; with indent like json.dumps(indent=n). */
export function pyJson(value: unknown, indent?: number, level = 0): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return pyString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const pad = indent === undefined ? '' : `\n${' '.repeat(indent * (level + 1))}`;
  const end = indent === undefined ? '' : `\n${' '.repeat(indent * level)}`;
  const sep = indent === undefined ? ', ' : ',';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[${value.map((v) => pad + pyJson(v, indent, level + 1)).join(sep)}${end}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{${entries.map(([k, v]) => `${pad}${pyString(k)}: ${pyJson(v, indent, level + 1)}`).join(sep)}${end}}`;
}

/** Python's str() of a cell: True/False, None, lists as their repr. */
export function pyStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  return String(value);
}

function pyRepr(value: unknown): string {
  if (typeof value !== 'string') return pyStr(value);
  const q = value.includes("'") && !value.includes('"') ? '"' : "'";
  return `${q}${value.replace(/\\/g, '\\\\').replace(q === "'" ? /'/g : /"/g, `\\${q}`)}${q}`;
}
