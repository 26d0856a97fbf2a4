import { BAIL, keyColon, plainKey, quoted, skipSpaces, type Bail, type Value } from './fast-yaml-scalar.js';
import { inlineValue, noteDollar, type Context, type Dollar } from './fast-yaml-flow.js';
import { MAX_DEPTH } from './depth.js';
import type { Segment } from './yaml-doc.js';

// The fast reader: robot.yaml as most people write it (block maps, one-line
// values and flow collections, comments) read line by line into plain data,
// with no node objects and no positions. It answers only when sure: for
// anything else (anchors, block scalars, escapes, tabs, odd indentation,
// duplicate keys, syntax errors…) it returns undefined and the full YAML
// parser, which keeps positions, reads the file. Both give the same data
// (test/schema/fast-yaml.test.ts compares them).

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

// Whitespace other than the space and the line feed: YAML's tab, and the
// characters JavaScript's trim() also removes but YAML reads as text (a
// no-break space kept by yaml was dropped here). Such files go to yaml.
const OTHER_WHITESPACE = /[\t\v\f\r\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]/;

export function fastParse(text: string): FastParse | undefined {
  if (OTHER_WHITESPACE.test(text)) return undefined;
  const ctx: Context = { dollars: [], maxDepth: MAX_DEPTH, line: 0, end: 0, plain: false };
  const root: { [key: string]: Value } = {};
  const stack: Frame[] = [];
  // A key with nothing after it (in `pending`), waiting for the next line to say what it holds.
  let pending: Frame | undefined;
  let pendingKey = '';
  // Line by line without splitting first: no array of every line kept alive
  // (and scanned by the garbage collector) while the data is built.
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    ctx.line += 1;
    const c = skipSpaces(line, 0);
    if (c === line.length || line.charCodeAt(c) === 35) continue; // blank, or a # comment
    if (c === 0 && /^(?:---|\.\.\.|%)/.test(line)) return undefined;
    if (pending) {
      if (open(pending, pendingKey, line, c, stack) === BAIL) return undefined;
      pending = undefined;
    }
    if (stack.length === 0) {
      if (c !== 0) return undefined;
      stack.push({ indent: 0, node: root, path: [] });
    }
    while ((stack[stack.length - 1]?.indent ?? -1) > c) stack.pop();
    const top = stack[stack.length - 1];
    if (!top || top.indent !== c) return undefined;
    const opened = entry(top, line, c, ctx, stack.length);
    if (opened === BAIL) return undefined;
    if (opened !== DONE) { pending = top; pendingKey = opened; }
  }
  if (stack.length === 0) return undefined;
  if (pending) setValue(pending, pendingKey, null);
  return { data: root, dollars: ctx.dollars };
}

// A key with nothing after it: a nested block collection if the next line is
// indented further, else null.
function open(frame: Frame, key: string, line: string, c: number, stack: Frame[]): true | Bail {
  const dash = line.charCodeAt(c) === 45;
  if (c <= frame.indent) {
    if (c === frame.indent && dash) return BAIL; // a list at the key's own indentation
    setValue(frame, key, null);
    return true;
  }
  if (stack.length + 1 > MAX_DEPTH) return BAIL;
  const node: Value[] | { [key: string]: Value } = dash ? [] : {};
  setValue(frame, key, node);
  stack.push({ indent: c, node, path: [...frame.path, key] });
  return true;
}

function setValue(frame: Frame, key: string | number, value: Value): void {
  if (Array.isArray(frame.node)) frame.node.push(value);
  else frame.node[key as string] = value;
}

/** entry() read the whole entry, value included. */
const DONE = Symbol('done');

/**
 * One line of a block collection, from its indentation `c`: `key: value`,
 * `- value`, or `key:`, whose key is returned (its value is on the lines below).
 */
function entry(top: Frame, line: string, c: number, ctx: Context, depth: number): string | typeof DONE | Bail {
  let key: string | number;
  let at: number;
  if (Array.isArray(top.node)) {
    if (line.charCodeAt(c) !== 45 || line.charCodeAt(c + 1) !== 32) return BAIL; // `- `
    key = top.node.length;
    at = skipSpaces(line, c + 2);
    const first = line.charCodeAt(at);
    if (at === line.length || first === 35 || first === 45) return BAIL;
  } else {
    const k = blockKey(line, c, ctx);
    if (k === BAIL || Object.prototype.hasOwnProperty.call(top.node, k)) return BAIL;
    key = k;
    at = skipSpaces(line, ctx.end + 1);
    if (at === line.length || line.charCodeAt(at) === 35) return k;
  }
  const v = inlineValue(line, at, ctx, top.path, key, depth);
  if (v === BAIL) return BAIL;
  setValue(top, key, v);
  noteDollar(ctx, at, top.node, key, top.path, v, ctx.plain);
  return DONE;
}

/** The block key written from `line[c]` (quoted or plain), with ctx.end at the colon after it; else BAIL. */
function blockKey(line: string, c: number, ctx: Context): string | Bail {
  let key: string | Bail;
  let colon: number;
  const q = line.charCodeAt(c);
  if (q === 34 || q === 39) { // " '
    const r = quoted(line, c);
    if (r === BAIL || r[0] === '__proto__') return BAIL;
    [key, colon] = r;
    if (line.charCodeAt(colon) !== 58) return BAIL;
  } else {
    colon = keyColon(line, c);
    if (colon < 0) return BAIL;
    key = plainKey(line.slice(c, colon));
  }
  const after = line.charCodeAt(colon + 1);
  if (key === BAIL || (colon + 1 < line.length && after !== 32)) return BAIL;
  ctx.end = colon;
  return key;
}
