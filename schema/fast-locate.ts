import { BAIL, keyColon, quoted, skipSpaces } from './fast-yaml-scalar.js';
import { plainEnd } from './fast-yaml-flow.js';
import { formatPath, type Finding, type Located, type Segment } from './yaml-doc.js';

// Lines and columns for the findings of a file the fast reader read
// (fast-yaml.ts), as the Locator gives them from yaml's Document
// (yaml-locate.ts), without building that Document: a file with a mistake in
// each of 50,000 webhooks spent 11 s in yaml's position-keeping parse. The
// text is scanned again line by line, and a node is recorded only on the way
// to a finding. read-paths.test.ts checks both give the same places.

interface Place { line: number; column: number }

interface Node {
  kind: 'map' | 'seq' | 'scalar';
  key: Place | null;
  /** Null for `key:` with nothing after it (yaml's empty scalar: pointed at by its key). */
  value: Place | null;
  children: Map<string, Node>;
}

const SEP = '\u0000';

/** The places of `findings`, or undefined when the text is not one the fast reader reads (then the Locator does it). */
export function fastLocate(text: string, findings: Finding[]): Located[] | undefined {
  if (text.includes(SEP)) return undefined;
  const wanted = new Set<string>();
  for (const f of findings) {
    let k = '';
    wanted.add(k);
    for (const seg of f.pointAt ?? f.path) wanted.add((k += SEP + String(seg)));
  }
  const root = scan(text, wanted);
  if (!root) return undefined;
  return findings.map((f) => {
    const n = find(root, f.pointAt ?? f.path);
    const place = (f.at === 'key' ? n.key ?? n.value : n.value === null ? n.key : n.value) ?? { line: 1, column: 1 };
    return { line: place.line, column: place.column, path: formatPath(f.path), message: f.message };
  });
}

// As the Locator walks yaml's nodes: stops at the deepest node that exists.
function find(root: Node, path: Segment[]): Node {
  let n = root;
  for (const seg of path) {
    if (n.kind === 'seq' && typeof seg !== 'number') break;
    const child = n.kind === 'scalar' ? undefined : n.children.get(String(seg));
    if (!child) break;
    n = child;
  }
  return n;
}

interface Frame { indent: number; node: Node; key: string; next: number }
interface Pending { node: Node; key: string; indent: number }

function scan(text: string, wanted: Set<string>): Node | undefined {
  const root: Node = { kind: 'map', key: null, value: null, children: new Map() };
  const stack: Frame[] = [];
  let pending: Pending | undefined;
  let ln = 0;
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    ln += 1;
    const s = text.slice(start, end);
    start = end + 1;
    let c = 0;
    while (s.charCodeAt(c) === 32) c++;
    if (c === s.length || s[c] === '#') continue;
    if (pending) {
      if (c > pending.indent) {
        pending.node.kind = s[c] === '-' ? 'seq' : 'map';
        pending.node.value = { line: ln, column: c + 1 };
        stack.push({ indent: c, node: pending.node, key: pending.key, next: 0 });
      }
      pending = undefined;
    }
    if (stack.length === 0) {
      root.value = { line: ln, column: c + 1 };
      stack.push({ indent: 0, node: root, key: '', next: 0 });
    }
    while ((stack[stack.length - 1]?.indent ?? -1) > c) stack.pop();
    const top = stack[stack.length - 1];
    if (!top || top.indent !== c) return undefined;
    const next = entry(top, s, c, ln, wanted);
    if (next === null) return undefined;
    pending = next;
  }
  return root;
}

/** One block entry: records its node when wanted; a `key:` with nothing after it is returned as pending. */
function entry(top: Frame, s: string, c: number, ln: number, wanted: Set<string>): Pending | undefined | null {
  let keyText: string;
  let keyPlace: Place | null = null;
  let at: number;
  if (top.node.kind === 'seq') {
    keyText = String(top.next++);
    at = skipSpaces(s, c + 2);
  } else {
    const k = keyAt(s, c);
    if (!k) return null;
    [keyText, at] = k;
    keyPlace = { line: ln, column: c + 1 };
  }
  const key = top.key + SEP + keyText;
  const node: Node = { kind: 'scalar', key: keyPlace, value: null, children: new Map() };
  if (wanted.has(key)) top.node.children.set(keyText, node);
  if (at === s.length || s[at] === '#') return { node, key, indent: c };
  node.value = { line: ln, column: at + 1 };
  if (s[at] === '[' || s[at] === '{') return flow(s, at, node, key, ln, wanted) < 0 ? null : undefined;
  return undefined;
}

/** `key: …` at s[c]: the key's text and where its value starts. */
function keyAt(s: string, c: number): [string, number] | undefined {
  let text: string;
  let end: number;
  if (s[c] === '"' || s[c] === "'") {
    const q = quoted(s, c);
    if (q === BAIL) return undefined;
    [text, end] = q;
  } else {
    end = keyColon(s, c);
    if (end < 0) return undefined;
    text = s.slice(c, end);
  }
  return [text, skipSpaces(s, end + 1)];
}

/** A flow collection at s[i] (its node already placed): its items' places; the index after it, or -1. */
function flow(s: string, i: number, node: Node, key: string, ln: number, wanted: Set<string>): number {
  const seq = s[i] === '[';
  node.kind = seq ? 'seq' : 'map';
  const close = seq ? ']' : '}';
  let n = 0;
  for (i = skipSpaces(s, i + 1); s[i] !== close; ) {
    if (i >= s.length) return -1;
    let keyText = String(n++);
    let keyPlace: Place | null = null;
    if (!seq) {
      const colon = s.indexOf(':', i);
      if (colon < 0) return -1;
      keyText = s.slice(i, colon).trim();
      keyPlace = { line: ln, column: i + 1 };
      i = skipSpaces(s, colon + 1);
    }
    const child: Node = { kind: 'scalar', key: keyPlace, value: { line: ln, column: i + 1 }, children: new Map() };
    const childKey = key + SEP + keyText;
    if (wanted.has(childKey)) node.children.set(keyText, child);
    if (s[i] === '[' || s[i] === '{') {
      i = flow(s, i, child, childKey, ln, wanted);
      if (i < 0) return -1;
    } else if (s[i] === '"' || s[i] === "'") {
      const q = quoted(s, i);
      if (q === BAIL) return -1;
      i = q[1];
    } else {
      i = plainEnd(s, i);
    }
    i = skipSpaces(s, i);
    if (s[i] === ',') i = skipSpaces(s, i + 1);
    else if (s[i] !== close) return -1;
  }
  return i + 1;
}
