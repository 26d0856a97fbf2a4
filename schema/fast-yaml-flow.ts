import { BAIL, onlyComment, plainKey, quoted, resolvePlain, skipSpaces, type Bail, type Value } from './fast-yaml-scalar.js';
import type { Segment } from './yaml-doc.js';

// Values on one line for the fast reader: a scalar or a `[ … ]` / `{ … }`
// flow collection that closes on the same line. BAIL on anything else.

/** A string value holding `$`: where it is, for ${VAR} substitution. */
export interface Dollar {
  parent: Value[] | { [key: string]: Value };
  key: string | number;
  /** The parent's path (shared with its siblings; the value's own path is made only for a finding). */
  parentPath: Segment[];
  /** Unquoted: a substituted number or boolean takes its type. */
  plain: boolean;
  /** Where the value starts (1-based), for a diagnostic without the position reader. */
  line: number;
  column: number;
}

export interface Context {
  dollars: Dollar[];
  maxDepth: number;
  /** The line being read: its number (1-based) and length, to turn an index in its tail into a column. */
  line: number;
  lineLength: number;
}

type Container = Value[] | { [key: string]: Value };

/** The value written after `key: ` or `- ` (s is the rest of the line), or BAIL. */
export function inlineValue(s: string, ctx: Context, path: Segment[], key: string | number, depth: number): [Value, boolean] | Bail {
  const c = s[0];
  if (c === '"' || c === "'") {
    const q = quoted(s, 0);
    return q === BAIL || !onlyComment(s, q[1]) ? BAIL : [q[0], false];
  }
  if (c === '[' || c === '{') {
    const r = flowNode(s, 0, ctx, [...path, key], depth);
    return r === BAIL || !onlyComment(s, r[1]) ? BAIL : [r[0], false];
  }
  const hash = s.indexOf(' #');
  const text = (hash < 0 ? s : s.slice(0, hash)).trim();
  // `a: b: c` or a key-looking item: a mapping the fast reader does not take.
  if (text.includes(': ') || text.endsWith(':')) return BAIL;
  const v = resolvePlain(text);
  return v === BAIL ? BAIL : [v, true];
}

/** Records a string value with `$` in it; `at`: where the value starts in its line (0-based). */
export function noteDollar(ctx: Context, at: number, parent: Container, key: string | number, path: Segment[], value: Value, plain: boolean): void {
  if (typeof value !== 'string' || !value.includes('$')) return;
  ctx.dollars.push({ parent, key, parentPath: path, plain, line: ctx.line, column: at + 1 });
}

// Paths are built only where a collection may hold a `$` value.
function nested(s: string, i: number): boolean {
  return s[i] === '[' || s[i] === '{';
}

function flowNode(s: string, i: number, ctx: Context, path: Segment[], depth: number): [Value, number, boolean] | Bail {
  const c = s[i];
  if (c === '[' || c === '{') {
    if (depth + 1 > ctx.maxDepth) return BAIL;
    return c === '[' ? flowSeq(s, i + 1, ctx, path, depth + 1) : flowMap(s, i + 1, ctx, path, depth + 1);
  }
  if (c === '"' || c === "'") {
    const q = quoted(s, i);
    return q === BAIL ? BAIL : [q[0], q[1], false];
  }
  const j = plainEnd(s, i);
  if (s[j] === '#' || '[{'.includes(s[j] ?? '')) return BAIL;
  const text = s.slice(i, j).trim();
  if (text === '') return BAIL;
  const v = resolvePlain(text);
  return v === BAIL ? BAIL : [v, j, true];
}

/** Where a plain scalar in flow ends: at `,[]{}#` or a `:` followed by a space, `,`, `]`, `}` or the end. */
export function plainEnd(s: string, i: number): number {
  let j = i;
  for (; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 44 || c === 91 || c === 93 || c === 123 || c === 125 || c === 35) break;
    if (c === 58) {
      const n = s.charCodeAt(j + 1);
      if (Number.isNaN(n) || n === 32 || n === 44 || n === 93 || n === 125) break;
    }
  }
  return j;
}

function flowSeq(s: string, i: number, ctx: Context, path: Segment[], depth: number): [Value, number, boolean] | Bail {
  const out: Value[] = [];
  for (i = skipSpaces(s, i); s[i] !== ']'; ) {
    const r = flowNode(s, i, ctx, nested(s, i) ? [...path, out.length] : path, depth);
    if (r === BAIL) return BAIL;
    noteDollar(ctx, ctx.lineLength - s.length + i, out, out.length, path, r[0], r[2]);
    out.push(r[0]);
    i = skipSpaces(s, r[1]);
    if (s[i] === ',') i = skipSpaces(s, i + 1);
    else if (s[i] !== ']') return BAIL;
  }
  return [out, i + 1, false];
}

function flowMap(s: string, i: number, ctx: Context, path: Segment[], depth: number): [Value, number, boolean] | Bail {
  const out: { [key: string]: Value } = {};
  for (i = skipSpaces(s, i); s[i] !== '}'; ) {
    const colon = s.indexOf(':', i);
    if (colon < 0 || s[colon + 1] !== ' ') return BAIL;
    const key = plainKey(s.slice(i, colon).trim());
    if (key === BAIL || Object.prototype.hasOwnProperty.call(out, key)) return BAIL;
    const at = skipSpaces(s, colon + 1);
    const r = flowNode(s, at, ctx, nested(s, at) ? [...path, key] : path, depth);
    if (r === BAIL) return BAIL;
    out[key] = r[0];
    noteDollar(ctx, ctx.lineLength - s.length + at, out, key, path, r[0], r[2]);
    i = skipSpaces(s, r[1]);
    if (s[i] === ',') i = skipSpaces(s, i + 1);
    else if (s[i] !== '}') return BAIL;
  }
  return [out, i + 1, false];
}
