import { BAIL, cursor, onlyComment, plainKey, quoted, resolvePlain, skipSpaces, type Bail, type Value } from './fast-yaml-scalar.js';
import type { Segment } from './yaml-doc.js';

// Values on one line for the fast reader: a scalar or a `[ … ]` / `{ … }`
// flow collection that closes on the same line. BAIL on anything else.
// `s` is the whole line and `i` an index in it; each reader leaves where it
// stopped in `cursor.end` and whether the value was plain in `cursor.plain`.

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
  /** The number (1-based) of the line being read. */
  line: number;
}

type Container = Value[] | { [key: string]: Value };

const SPACE = 32;
const HASH = 35;
const COMMA = 44;
const COLON = 58;
const OPEN_SEQ = 91;
const CLOSE_SEQ = 93;
const OPEN_MAP = 123;
const CLOSE_MAP = 125;

/** The value written from `s[at]` to the end of the line (after `key: ` or `- `), or BAIL; sets cursor.plain. */
export function inlineValue(s: string, at: number, ctx: Context, path: Segment[], key: string | number, depth: number): Value | Bail {
  const c = s.charCodeAt(at);
  if (c === 34 || c === 39) {
    const q = quoted(s, at);
    if (q === BAIL || !onlyComment(s, cursor.end)) return BAIL;
    cursor.plain = false;
    return q;
  }
  if (c === OPEN_SEQ || c === OPEN_MAP) {
    const v = flowNode(s, at, ctx, [...path, key], depth);
    if (v === BAIL || !onlyComment(s, cursor.end)) return BAIL;
    cursor.plain = false;
    return v;
  }
  const hash = s.indexOf(' #', at);
  let end = hash < 0 ? s.length : hash;
  while (end > at && s.charCodeAt(end - 1) === SPACE) end--;
  const text = s.slice(at, end);
  // `a: b: c` or a key-looking item: a mapping the fast reader does not take.
  if (text.includes(': ') || text.charCodeAt(text.length - 1) === COLON) return BAIL;
  cursor.plain = true;
  return resolvePlain(text);
}

/** Records a string value with `$` in it; `at`: where the value starts in its line (0-based). */
export function noteDollar(ctx: Context, at: number, parent: Container, key: string | number, path: Segment[], value: Value, plain: boolean): void {
  if (typeof value !== 'string' || !value.includes('$')) return;
  ctx.dollars.push({ parent, key, parentPath: path, plain, line: ctx.line, column: at + 1 });
}

// Paths are built only where a collection may hold a `$` value.
function nested(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c === OPEN_SEQ || c === OPEN_MAP;
}

function flowNode(s: string, i: number, ctx: Context, path: Segment[], depth: number): Value | Bail {
  const c = s.charCodeAt(i);
  if (c === OPEN_SEQ || c === OPEN_MAP) {
    if (depth + 1 > ctx.maxDepth) return BAIL;
    return c === OPEN_SEQ ? flowSeq(s, i + 1, ctx, path, depth + 1) : flowMap(s, i + 1, ctx, path, depth + 1);
  }
  if (c === 34 || c === 39) {
    const q = quoted(s, i);
    cursor.plain = false;
    return q;
  }
  const j = plainEnd(s, i);
  // The line ended inside the collection, or a comment or collection starts mid-value.
  if (j === s.length) return BAIL;
  const d = s.charCodeAt(j);
  if (d === HASH || d === OPEN_SEQ || d === OPEN_MAP) return BAIL;
  let end = j;
  while (end > i && s.charCodeAt(end - 1) === SPACE) end--;
  if (end === i) return BAIL;
  cursor.end = j;
  cursor.plain = true;
  return resolvePlain(s.slice(i, end));
}

/** Where a plain scalar in flow ends: at `,[]{}#` or a `:` followed by a space, `,`, `]`, `}` or the end. */
function plainEnd(s: string, i: number): number {
  let j = i;
  for (; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === COMMA || c === OPEN_SEQ || c === CLOSE_SEQ || c === OPEN_MAP || c === CLOSE_MAP || c === HASH) break;
    if (c === COLON) {
      const n = s.charCodeAt(j + 1);
      if (Number.isNaN(n) || n === SPACE || n === COMMA || n === CLOSE_SEQ || n === CLOSE_MAP) break;
    }
  }
  return j;
}

/** After an item: `,` then the next, or the closing bracket; the index of what follows, or -1. */
function afterItem(s: string, i: number, close: number): number {
  i = skipSpaces(s, i);
  const c = s.charCodeAt(i);
  if (c === COMMA) return skipSpaces(s, i + 1);
  return c === close ? i : -1;
}

function flowSeq(s: string, i: number, ctx: Context, path: Segment[], depth: number): Value | Bail {
  const out: Value[] = [];
  for (i = skipSpaces(s, i); s.charCodeAt(i) !== CLOSE_SEQ; ) {
    const v = flowNode(s, i, ctx, nested(s, i) ? [...path, out.length] : path, depth);
    if (v === BAIL) return BAIL;
    noteDollar(ctx, i, out, out.length, path, v, cursor.plain);
    out.push(v);
    i = afterItem(s, cursor.end, CLOSE_SEQ);
    if (i < 0) return BAIL;
  }
  cursor.end = i + 1;
  cursor.plain = false;
  return out;
}

function flowMap(s: string, i: number, ctx: Context, path: Segment[], depth: number): Value | Bail {
  const out: { [key: string]: Value } = {};
  for (i = skipSpaces(s, i); s.charCodeAt(i) !== CLOSE_MAP; ) {
    const colon = s.indexOf(':', i);
    if (colon < 0 || s.charCodeAt(colon + 1) !== SPACE) return BAIL;
    let keyEnd = colon;
    while (keyEnd > i && s.charCodeAt(keyEnd - 1) === SPACE) keyEnd--;
    const key = plainKey(s.slice(i, keyEnd));
    if (key === BAIL || Object.prototype.hasOwnProperty.call(out, key)) return BAIL;
    const at = skipSpaces(s, colon + 1);
    const v = flowNode(s, at, ctx, nested(s, at) ? [...path, key] : path, depth);
    if (v === BAIL) return BAIL;
    out[key] = v;
    noteDollar(ctx, at, out, key, path, v, cursor.plain);
    i = afterItem(s, cursor.end, CLOSE_MAP);
    if (i < 0) return BAIL;
  }
  cursor.end = i + 1;
  cursor.plain = false;
  return out;
}
