import { BAIL, cursor, plainKey, quoted, skipSpaces, type Bail, type Value } from './fast-yaml-scalar.js';
import { inlineValue, noteDollar, type Context, type Dollar } from './fast-yaml-flow.js';
import { MAX_DEPTH } from './depth.js';
import type { Segment } from './yaml-doc.js';

// The fast reader: robot.yaml as most people write it (block maps, one-line
// values and flow collections, comments) read line by line into plain data,
// with no node objects and no positions. It answers only when sure: for
// anything else (anchors, block scalars, escapes, tabs, odd indentation,
// duplicate keys, syntax errors…) it returns undefined and the full YAML
// parser, which keeps positions, reads the file. Both give the same data
// (test/schema/read-paths.test.ts compares them).

export interface FastParse {
  data: { [key: string]: Value };
  /** String values holding `$`, for ${VAR} substitution. */
  dollars: Dollar[];
}

interface Frame {
  indent: number;
  node: Value[] | { [key: string]: Value };
  path: Segment[];
}

interface Pending {
  frame: Frame;
  key: string | number;
  indent: number;
}

// Whitespace other than the space and the line feed: YAML's tab and the
// characters JavaScript also counts as spaces but YAML reads as text. The
// reader below skips and trims only spaces, so it leaves such files to yaml.
const OTHER_WHITESPACE = /[\t\v\f\r\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]/;

const SPACE = 32;
const HASH = 35;
const DASH = 45;
const COLON = 58;

export function fastParse(text: string): FastParse | undefined {
  if (OTHER_WHITESPACE.test(text)) return undefined;
  const ctx: Context = { dollars: [], maxDepth: MAX_DEPTH, line: 0 };
  const root: { [key: string]: Value } = {};
  const stack: Frame[] = [];
  let pending: Pending | undefined;
  // Line by line without splitting first: no array of every line kept alive
  // (and scanned by the garbage collector) while the data is built.
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    ctx.line += 1;
    const first = skipSpaces(text, start);
    const lineStart = start;
    start = end + 1;
    // Blank lines and comments are skipped before any substring is made.
    if (first >= end || text.charCodeAt(first) === HASH) continue;
    const line = text.slice(lineStart, end);
    const c = first - lineStart;
    if (c === 0 && /^(?:---|\.\.\.|%)/.test(line)) return undefined;
    if (pending) {
      if (open(pending, line, c, stack) === BAIL) return undefined;
      pending = undefined;
    }
    if (stack.length === 0) {
      if (c !== 0) return undefined;
      stack.push({ indent: 0, node: root, path: [] });
    }
    while ((stack[stack.length - 1]?.indent ?? -1) > c) stack.pop();
    const top = stack[stack.length - 1];
    if (!top || top.indent !== c) return undefined;
    const next = entry(top, line, c, ctx, stack.length);
    if (next === BAIL) return undefined;
    pending = next;
  }
  if (stack.length === 0) return undefined;
  if (pending) setValue(pending.frame, pending.key, null);
  return { data: root, dollars: ctx.dollars };
}

// A key with nothing after it: a nested block collection if the next line is
// indented further, else null.
function open(p: Pending, line: string, c: number, stack: Frame[]): true | Bail {
  const dash = line.charCodeAt(c) === DASH;
  if (c <= p.indent) {
    if (c === p.indent && dash) return BAIL; // a list at the key's own indentation
    setValue(p.frame, p.key, null);
    return true;
  }
  if (stack.length + 1 > MAX_DEPTH) return BAIL;
  const node: Value[] | { [key: string]: Value } = dash ? [] : {};
  setValue(p.frame, p.key, node);
  stack.push({ indent: c, node, path: [...p.frame.path, p.key] });
  return true;
}

function setValue(frame: Frame, key: string | number, value: Value): void {
  if (Array.isArray(frame.node)) frame.node.push(value);
  else frame.node[key as string] = value;
}

/** One line in a block collection, from its first character `c`: `key: value`, `key:`, `- value`. */
function entry(top: Frame, line: string, c: number, ctx: Context, depth: number): Pending | undefined | Bail {
  let key: string | number;
  let at: number;
  if (Array.isArray(top.node)) {
    if (line.charCodeAt(c) !== DASH || line.charCodeAt(c + 1) !== SPACE) return BAIL;
    key = top.node.length;
    at = skipSpaces(line, c + 2);
    const v = line.charCodeAt(at);
    if (at === line.length || v === HASH || v === DASH) return BAIL;
  } else {
    const k = splitKey(line, c);
    if (k === BAIL || Object.prototype.hasOwnProperty.call(top.node, k)) return BAIL;
    key = k;
    at = cursor.end;
    if (at === line.length || line.charCodeAt(at) === HASH) return { frame: top, key, indent: top.indent };
  }
  const v = inlineValue(line, at, ctx, top.path, key, depth);
  if (v === BAIL) return BAIL;
  setValue(top, key, v);
  noteDollar(ctx, at, top.node, key, top.path, v, cursor.plain);
  return undefined;
}

/** `key: …` from `line[c]`: the key (quoted keys too), cursor.end at the first non-space after the colon; or BAIL. */
function splitKey(line: string, c: number): string | Bail {
  let key: string | Bail;
  let end: number;
  const q = line.charCodeAt(c);
  if (q === 34 || q === 39) {
    key = quoted(line, c);
    if (key === BAIL || key === '__proto__') return BAIL;
    end = cursor.end;
  } else {
    end = keyColon(line, c);
    if (end < 0) return BAIL;
    key = plainKey(line.slice(c, end));
  }
  if (key === BAIL || line.charCodeAt(end) !== COLON) return BAIL;
  if (end + 1 < line.length && line.charCodeAt(end + 1) !== SPACE) return BAIL;
  cursor.end = skipSpaces(line, end + 1);
  return key;
}

/** The first `:` at or after `c` followed by a space or the end of the line; -1 if none. */
function keyColon(line: string, c: number): number {
  for (let i = line.indexOf(':', c); i >= 0; i = line.indexOf(':', i + 1)) {
    if (i + 1 === line.length || line.charCodeAt(i + 1) === SPACE) return i;
  }
  return -1;
}
