import { BAIL, keyColon, plainKey, quoted, type Bail, type Value } from './fast-yaml-scalar.js';
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

interface Pending {
  frame: Frame;
  key: string | number;
  indent: number;
}

// Whitespace other than the space and the line feed: YAML's tab, and the
// characters JavaScript's trim() also removes but YAML reads as text (a
// no-break space kept by yaml was dropped here). Such files go to yaml.
const OTHER_WHITESPACE = /[\t\v\f\r\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]/;

export function fastParse(text: string): FastParse | undefined {
  if (OTHER_WHITESPACE.test(text)) return undefined;
  const ctx: Context = { dollars: [], maxDepth: MAX_DEPTH, line: 0, lineLength: 0 };
  const root: { [key: string]: Value } = {};
  const stack: Frame[] = [];
  let pending: Pending | undefined;
  // Line by line without splitting first: no array of every line kept alive
  // (and scanned by the garbage collector) while the data is built.
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    ctx.line += 1;
    ctx.lineLength = line.length;
    const c = indentOf(line);
    if (c === line.length || line[c] === '#') continue;
    if (c === 0 && /^(?:---|\.\.\.|%)/.test(line)) return undefined;
    if (pending) {
      const opened = open(pending, line, c, stack);
      if (opened === BAIL) return undefined;
      pending = undefined;
    }
    if (stack.length === 0) {
      if (c !== 0) return undefined;
      stack.push({ indent: 0, node: root, path: [] });
    }
    while ((stack[stack.length - 1]?.indent ?? -1) > c) stack.pop();
    const top = stack[stack.length - 1];
    if (!top || top.indent !== c) return undefined;
    const next = entry(top, line.slice(c), ctx, stack.length);
    if (next === BAIL) return undefined;
    pending = next;
  }
  if (stack.length === 0) return undefined;
  if (pending) setValue(pending.frame, pending.key, null);
  return { data: root, dollars: ctx.dollars };
}

function indentOf(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 32) i++;
  return i;
}

// A key with nothing after it: a nested block collection if the next line is
// indented further, else null.
function open(p: Pending, line: string, c: number, stack: Frame[]): true | Bail {
  if (c <= p.indent) {
    if (c === p.indent && line[c] === '-') return BAIL; // a list at the key's own indentation
    setValue(p.frame, p.key, null);
    return true;
  }
  if (stack.length + 1 > MAX_DEPTH) return BAIL;
  const node: Value[] | { [key: string]: Value } = line[c] === '-' ? [] : {};
  setValue(p.frame, p.key, node);
  stack.push({ indent: c, node, path: [...p.frame.path, p.key] });
  return true;
}

function setValue(frame: Frame, key: string | number, value: Value): void {
  if (Array.isArray(frame.node)) frame.node.push(value);
  else frame.node[key as string] = value;
}

/** One line in a block collection: `key: value`, `key:`, `- value`. */
function entry(top: Frame, s: string, ctx: Context, depth: number): Pending | undefined | Bail {
  let key: string | number;
  let rest: string;
  if (Array.isArray(top.node)) {
    if (s[0] !== '-' || s[1] !== ' ') return BAIL;
    key = top.node.length;
    rest = s.slice(2).trimStart();
    if (rest === '' || rest[0] === '#' || rest[0] === '-') return BAIL;
  } else {
    const split = splitKey(s);
    if (split === BAIL || Object.prototype.hasOwnProperty.call(top.node, split[0])) return BAIL;
    [key, rest] = split;
    if (rest === '' || rest[0] === '#') return { frame: top, key, indent: top.indent };
  }
  const v = inlineValue(rest, ctx, top.path, key, depth);
  if (v === BAIL) return BAIL;
  setValue(top, key, v[0]);
  noteDollar(ctx, ctx.lineLength - rest.length, top.node, key, top.path, v[0], v[1]);
  return undefined;
}

/** `key: rest` → [key, rest trimmed at its start]; quoted keys too. */
function splitKey(s: string): [string, string] | Bail {
  let key: string | Bail;
  let end: number;
  if (s[0] === '"' || s[0] === "'") {
    const q = quoted(s, 0);
    if (q === BAIL) return BAIL;
    [key, end] = q;
    if (key === '__proto__') return BAIL;
  } else {
    end = keyColon(s);
    if (end < 0) return BAIL;
    key = plainKey(s.slice(0, end));
  }
  if (key === BAIL || s[end] !== ':' || (s[end + 1] !== undefined && s[end + 1] !== ' ')) return BAIL;
  return [key, s.slice(end + 1).trimStart()];
}
