import { BAIL, keyColon, plainKey, quoted, resolvePlain, skipSpaces, type Bail, type Value } from './fast-yaml-scalar.js';
import { inlineValue, noteDollar, plainScalar, type Context, type Dollar } from './fast-yaml-flow.js';
import { MAX_DEPTH } from './depth.js';
import type { Segment } from './yaml-doc.js';

// The fast reader: robot.yaml as most people write it (block maps, one-line
// values and flow collections, comments) read line by line into plain data,
// with no node objects and no positions. It answers only when sure: for
// anything else (anchors, block scalars, escapes, tabs, odd indentation,
// duplicate keys, syntax errors…) it returns undefined and the full YAML
// parser, which keeps positions, reads the file. Both give the same data
// (test/schema/read-paths.test.ts compares them on fixtures and on random
// documents).
//
// It runs once per line of the file (300,000 lines for 50,000 webhooks)
// before V8 has optimised anything, so the usual line, `key: plain value` or
// `key:`, is read by index into the text (keyColon and plainScalar, which
// the line readers share): no slice of the line, no object per nesting
// level; so is a flow list of plain scalars (`watched: [space:alice/app,
// user:alice]`). Other quoted and flow values and list items go to the line
// readers of fast-yaml-flow.ts.

export interface FastParse {
  data: { [key: string]: Value };
  /** String values holding `$`, for ${VAR} substitution. */
  dollars: Dollar[];
}

type Container = Value[] | { [key: string]: Value };
type MapNode = { [key: string]: Value };

// Whitespace other than the space and the line feed: YAML's tab, and the
// characters JavaScript's trim() also removes but YAML reads as text (a
// no-break space kept by yaml was dropped here). Such files go to yaml.
const OTHER_WHITESPACE = /[\t\v\f\r\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]/;

const SPACE = 32;
const HASH = 35;
const DASH = 45;
const COLON = 58;
const COMMA = 44;
const CLOSE = 93; // ]

export function fastParse(text: string): FastParse | undefined {
  if (OTHER_WHITESPACE.test(text)) return undefined;
  const ctx: Context = { dollars: [], maxDepth: MAX_DEPTH, end: 0, plain: false };
  const root: MapNode = {};
  // The open block collections, outermost first, as three parallel arrays;
  // `top` is the innermost's index (-1 before the first line).
  const indents: number[] = [];
  const nodes: Container[] = [];
  const paths: Segment[][] = [];
  let top = -1;
  // A key with nothing after it, in the innermost map: the next line says what it holds.
  let pendingKey: string | null = null;
  const length = text.length;
  for (let start = 0; start <= length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = length;
    const lineStart = start;
    start = end + 1;
    let c = lineStart;
    while (text.charCodeAt(c) === SPACE) c++;
    const first = text.charCodeAt(c);
    if (c === end || first === HASH) continue; // blank, or a # comment
    const indent = c - lineStart;
    if (indent === 0 && (first === 37 || text.startsWith('---', c) || text.startsWith('...', c))) return undefined; // %, ---, ...
    if (pendingKey !== null) {
      const parent = nodes[top] as MapNode;
      const dash = first === DASH;
      if (indent <= (indents[top] as number)) {
        if (indent === indents[top] && dash) return undefined; // a list at the key's own indentation
        parent[pendingKey] = null;
      } else {
        if (top + 2 > MAX_DEPTH) return undefined;
        const node: Container = dash ? [] : {};
        parent[pendingKey] = node;
        top += 1;
        indents[top] = indent;
        nodes[top] = node;
        paths[top] = (paths[top - 1] as Segment[]).concat(pendingKey); // exact size, as a spread is not
      }
      pendingKey = null;
    }
    if (top < 0) {
      if (indent !== 0) return undefined;
      top = 0;
      indents[0] = 0;
      nodes[0] = root;
      paths[0] = [];
    }
    while ((indents[top] as number) > indent) top -= 1; // the root (indent 0) is never left
    if (indents[top] !== indent) return undefined;
    const node = nodes[top] as Container;
    const path = paths[top] as Segment[];
    if (Array.isArray(node)) {
      if (listItem(node, text.slice(lineStart, end), indent, ctx, path, top + 1) === BAIL) return undefined;
      continue;
    }
    // A block key: quoted (read from the line), or plain up to the first `: ` or final `:`.
    let key: string | Bail;
    let colon: number;
    if (first === 34 || first === 39) {
      const line = text.slice(lineStart, end);
      key = quotedKey(line, indent, ctx);
      if (key === BAIL) return undefined;
      colon = lineStart + ctx.end;
    } else {
      colon = keyColon(text, c, end);
      if (colon < 0) return undefined;
      key = plainKey(text.slice(c, colon));
      if (key === BAIL) return undefined;
    }
    if (Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    let at = colon + 1;
    while (text.charCodeAt(at) === SPACE) at++; // stops at the line feed
    const v = text.charCodeAt(at);
    if (at === end || v === HASH) {
      pendingKey = key;
      continue;
    }
    if (v === 91 && top + 2 <= MAX_DEPTH) { // [
      const list = plainFlowList(text, at, end);
      if (list) {
        node[key] = list;
        continue;
      }
    }
    if (v === 34 || v === 39 || v === 91 || v === 123) { // " ' [ {
      const value = inlineValue(text.slice(lineStart, end), at - lineStart, ctx, path, key, top + 1);
      if (value === BAIL) return undefined;
      node[key] = value;
      noteDollar(ctx, node, key, path, value, ctx.plain);
      continue;
    }
    const value = plainScalar(text, at, end);
    if (value === BAIL) return undefined;
    node[key] = value;
    noteDollar(ctx, node, key, path, value, true);
  }
  if (top < 0) return undefined;
  if (pendingKey !== null) (nodes[top] as MapNode)[pendingKey] = null;
  return { data: root, dollars: ctx.dollars };
}

// plainFlowList's items, gathered here and copied out at their exact count:
// an array grown by push from empty holds 16 slots, and these lists (two
// per webhook) live until the end of the run, copied by every scavenge.
const listItems: Value[] = [];

/**
 * `[a, b]` of plain scalars at text[i] (the `[`), closing on its line and
 * followed by nothing but a comment; undefined for anything else (quotes,
 * nesting, a `$`, a `#` or a flow `:` inside, a trailing comma…), which
 * inlineValue then reads or refuses exactly as before. Its item loop stops
 * where fast-yaml-flow.ts's plainEnd does and refuses quotes and `$` in the
 * same pass: calling plainEnd, then scanning for those, read every item
 * twice (cold parse of 10,000 webhooks 121 -> 127 ms, measured), so the two
 * rules are kept in step by hand and checked against yaml by read-paths.test.ts.
 */
function plainFlowList(text: string, i: number, end: number): Value[] | undefined {
  let n = 0;
  i += 1;
  while (text.charCodeAt(i) === SPACE) i++;
  if (text.charCodeAt(i) !== CLOSE) {
    for (;;) {
      const from = i;
      for (; i < end; i++) {
        const ch = text.charCodeAt(i);
        if (ch === COMMA || ch === CLOSE) break;
        if (ch === 91 || ch === 123 || ch === 125 || ch === HASH || ch === 34 || ch === 39 || ch === 36) return undefined; // [ { } # " ' $
        if (ch === COLON) {
          const next = text.charCodeAt(i + 1);
          if (i + 1 === end || next === SPACE || next === COMMA || next === CLOSE || next === 125) return undefined;
        }
      }
      if (i === end) return undefined;
      let to = i;
      while (to > from && text.charCodeAt(to - 1) === SPACE) to--;
      if (to === from) return undefined;
      const value = resolvePlain(text.slice(from, to));
      if (value === BAIL) return undefined;
      listItems[n++] = value;
      if (text.charCodeAt(i) === CLOSE) break;
      i += 1;
      while (text.charCodeAt(i) === SPACE) i++;
    }
  }
  let after = i + 1;
  while (text.charCodeAt(after) === SPACE) after++;
  return after === end || (text.charCodeAt(after) === HASH && after > i + 1) ? listItems.slice(0, n) : undefined;
}

/** `- value` at `c` in a block list (the value on the same line), or BAIL. */
function listItem(list: Value[], line: string, c: number, ctx: Context, path: Segment[], depth: number): true | Bail {
  if (line.charCodeAt(c) !== DASH || line.charCodeAt(c + 1) !== SPACE) return BAIL;
  const at = skipSpaces(line, c + 2);
  const first = line.charCodeAt(at);
  if (at === line.length || first === HASH || first === DASH) return BAIL;
  const key = list.length;
  const value = inlineValue(line, at, ctx, path, key, depth);
  if (value === BAIL) return BAIL;
  list.push(value);
  noteDollar(ctx, list, key, path, value, ctx.plain);
  return true;
}

/** A quoted block key at `line[c]`, with ctx.end at the colon right after it; else BAIL. */
function quotedKey(line: string, c: number, ctx: Context): string | Bail {
  const r = quoted(line, c);
  if (r === BAIL || r[0] === '__proto__') return BAIL;
  const colon = r[1];
  if (line.charCodeAt(colon) !== COLON) return BAIL;
  if (colon + 1 < line.length && line.charCodeAt(colon + 1) !== SPACE) return BAIL;
  ctx.end = colon;
  return r[0];
}
