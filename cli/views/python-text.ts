// Python's text forms of values, so `robotctl webhooks` prints exactly what
// huggingface_hub's CLI prints (json.dumps separators, str() of cells).

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
