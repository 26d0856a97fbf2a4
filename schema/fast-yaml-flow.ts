import { BAIL, plainKey, quoted, resolvePlain, skipSpaces, type Bail, type Value } from './fast-yaml-scalar.js';
import type { Segment } from './yaml-doc.js';

// Values on one line for the fast reader: a scalar or a `[ … ]` / `{ … }`
// flow collection that closes on the same line. BAIL on anything else.
// These run for every value of the file (300,000 of them in a 50,000-webhook
// robot.yaml), before the code is warm, so they return the value alone and
// leave where it ended and whether it was plain in the context: no tuple per
// value, and no path per collection unless the line holds a `$`.

/** A string value holding `$`: where it is, for ${VAR} substitution. */
export interface Dollar {
  parent: Value[] | { [key: string]: Value };
  key: string | number;
  /** The parent's path (shared with its siblings; the value's own path is made only for a finding). */
  parentPath: Segment[];
  /** Unquoted: a substituted number or boolean takes its type. */
  plain: boolean;
}

export interface Context {
  dollars: Dollar[];
  maxDepth: number;
  /** Set by each reader below: the index just after the value it read, and whether that value was a plain scalar. */
  end: number;
  plain: boolean;
}

type Container = Value[] | { [key: string]: Value };

// The path given to collections on a line without `$`: nothing on that line
// is ever recorded, so no path is ever read from it.
const UNUSED_PATH: Segment[] = [];

/** The value written from `s[i]` to the end of the line, after `key: ` or `- ` (`path`: its parent's), or BAIL. */
export function inlineValue(s: string, i: number, ctx: Context, path: Segment[], key: string | number, depth: number): Value | Bail {
  const c = s.charCodeAt(i);
  if (c === 34 || c === 39) { // " '
    const q = quoted(s, i);
    if (q === BAIL || !onlyCommentAfter(s, q[1])) return BAIL;
    ctx.plain = false;
    return q[0];
  }
  if (c === 91 || c === 123) { // [ {
    const v = flowNode(s, i, ctx, s.includes('$', i) ? [...path, key] : UNUSED_PATH, depth);
    if (v === BAIL || !onlyCommentAfter(s, ctx.end)) return BAIL;
    ctx.plain = false;
    return v;
  }
  ctx.plain = true;
  return plainScalar(s, i, s.length);
}

/**
 * The plain scalar written from `s[at]` to `end` (the line's end) or to a
 * comment (` #`), resolved; BAIL for `a: b: c` or a key-looking value
 * (`a: b:`), mappings the fast reader does not take.
 */
export function plainScalar(s: string, at: number, end: number): Value | Bail {
  let stop = end;
  for (let i = at; i < end; i++) {
    const ch = s.charCodeAt(i);
    if (ch === 35 && s.charCodeAt(i - 1) === 32) { stop = i; break; } // ` #`
    if (ch === 58 && (i + 1 === end || s.charCodeAt(i + 1) === 32)) return BAIL; // `: ` or a final `:`
  }
  while (s.charCodeAt(stop - 1) === 32) stop--;
  return resolvePlain(s.slice(at, stop));
}

/** After a value ending before `s[i]`: only spaces, then nothing or a comment that a space opens. */
function onlyCommentAfter(s: string, i: number): boolean {
  const j = skipSpaces(s, i);
  return j === s.length || (s.charCodeAt(j) === 35 && j > i);
}

/** Records a string value with `$` in it. */
export function noteDollar(ctx: Context, parent: Container, key: string | number, path: Segment[], value: Value, plain: boolean): void {
  if (typeof value !== 'string' || !value.includes('$')) return;
  ctx.dollars.push({ parent, key, parentPath: path, plain });
}

// Paths are built only where a collection may hold a `$` value.
function nested(s: string, i: number, path: Segment[]): boolean {
  const c = s.charCodeAt(i);
  return path !== UNUSED_PATH && (c === 91 || c === 123);
}

function flowNode(s: string, i: number, ctx: Context, path: Segment[], depth: number): Value | Bail {
  const c = s.charCodeAt(i);
  if (c === 91 || c === 123) {
    if (depth + 1 > ctx.maxDepth) return BAIL;
    return c === 91 ? flowSeq(s, i + 1, ctx, path, depth + 1) : flowMap(s, i + 1, ctx, path, depth + 1);
  }
  if (c === 34 || c === 39) {
    const q = quoted(s, i);
    if (q === BAIL) return BAIL;
    ctx.end = q[1];
    ctx.plain = false;
    return q[0];
  }
  const j = plainEnd(s, i);
  const stop = s.charCodeAt(j);
  if (stop === 35 || stop === 91 || stop === 123) return BAIL; // # [ {
  let end = j;
  while (end > i && s.charCodeAt(end - 1) === 32) end--;
  if (end === i) return BAIL;
  ctx.end = j;
  ctx.plain = true;
  return resolvePlain(s.slice(i, end));
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

function flowSeq(s: string, i: number, ctx: Context, path: Segment[], depth: number): Value | Bail {
  const out: Value[] = [];
  for (i = skipSpaces(s, i); s.charCodeAt(i) !== 93; ) {
    const at = i;
    const v = flowNode(s, i, ctx, nested(s, i, path) ? [...path, out.length] : path, depth);
    if (v === BAIL) return BAIL;
    if (path !== UNUSED_PATH) noteDollar(ctx, out, out.length, path, v, ctx.plain);
    out.push(v);
    i = skipSpaces(s, ctx.end);
    if (s.charCodeAt(i) === 44) i = skipSpaces(s, i + 1);
    else if (s.charCodeAt(i) !== 93) return BAIL;
  }
  ctx.end = i + 1;
  return out;
}

function flowMap(s: string, i: number, ctx: Context, path: Segment[], depth: number): Value | Bail {
  const out: { [key: string]: Value } = {};
  for (i = skipSpaces(s, i); s.charCodeAt(i) !== 125; ) {
    const colon = s.indexOf(':', i);
    if (colon < 0 || s.charCodeAt(colon + 1) !== 32) return BAIL;
    const key = plainKey(s.slice(i, colon).trim());
    if (key === BAIL || Object.prototype.hasOwnProperty.call(out, key)) return BAIL;
    const at = skipSpaces(s, colon + 1);
    const v = flowNode(s, at, ctx, nested(s, at, path) ? [...path, key] : path, depth);
    if (v === BAIL) return BAIL;
    out[key] = v;
    if (path !== UNUSED_PATH) noteDollar(ctx, out, key, path, v, ctx.plain);
    i = skipSpaces(s, ctx.end);
    if (s.charCodeAt(i) === 44) i = skipSpaces(s, i + 1);
    else if (s.charCodeAt(i) !== 125) return BAIL;
  }
  ctx.end = i + 1;
  return out;
}
