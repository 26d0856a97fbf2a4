import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { Document, Node, Scalar } from 'yaml';

// The YAML side of loading: parse keeping positions, report syntax errors and
// duplicate keys, and map a document path back to a line and column.

export type Segment = string | number;

/** A problem found before positions are known; `at: 'key'` points at the key, not its value. */
export interface Finding {
  path: Segment[];
  message: string;
  at?: 'key' | 'value';
  /** Where to point when it differs from `path` (e.g. the second of two exclusive keys). */
  pointAt?: Segment[];
}

export interface Located {
  line: number;
  column: number;
  path: string;
  message: string;
}

export interface ParsedYaml {
  doc: Document;
  lines: LineCounter;
  /** Syntax errors, duplicate keys and unsupported constructs, already located. */
  problems: Located[];
}

export function parseYaml(text: string): ParsedYaml {
  const lines = new LineCounter();
  // uniqueKeys off: duplicates are found by dupKeys() below, which knows their path.
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false });
  const problems: Located[] = [];
  for (const e of doc.errors) problems.push(at(lines, e.pos[0], '', syntaxMessage(e.code, e.message)));
  for (const w of doc.warnings) problems.push(at(lines, w.pos[0], '', `unsupported YAML: ${w.message}`));
  if (problems.length === 0) {
    for (const f of duplicateKeys(doc.contents, [], lines)) problems.push(locate({ doc, lines }, f));
  }
  return { doc, lines, problems };
}

function syntaxMessage(code: string, message: string): string {
  if (code === 'MULTIPLE_DOCS') return 'invalid YAML: the file holds several documents (---); robot.yaml must hold one';
  return `invalid YAML: ${message.replace(/\s+/g, ' ').trim()}`;
}

function at(lines: LineCounter, offset: number, path: string, message: string): Located {
  const { line, col } = lines.linePos(offset);
  return { line, column: col, path, message };
}

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

function duplicateKeys(node: unknown, path: Segment[], lines: LineCounter): Finding[] {
  const found: Finding[] = [];
  if (isMap(node)) {
    const firstLine = new Map<string, number>();
    for (const pair of node.items) {
      const k = keyText(pair.key);
      const keyNode = pair.key as Node | null;
      const line = keyNode?.range ? lines.linePos(keyNode.range[0]).line : 0;
      const first = firstLine.get(k);
      if (first === undefined) firstLine.set(k, line);
      else found.push({ path: [...path, k], at: 'key', message: `duplicate key '${k}' (first set on line ${first})` });
      found.push(...duplicateKeys(pair.value, [...path, k], lines));
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => found.push(...duplicateKeys(item, [...path, i], lines)));
  }
  return found;
}

/** Calls fn on every scalar in a value position (never on keys). */
export function eachValueScalar(node: unknown, path: Segment[], fn: (s: Scalar, path: Segment[]) => void): void {
  if (isScalar(node)) fn(node, path);
  else if (isMap(node)) for (const pair of node.items) eachValueScalar(pair.value, [...path, keyText(pair.key)], fn);
  else if (isSeq(node)) node.items.forEach((item, i) => eachValueScalar(item, [...path, i], fn));
}

interface Target {
  key: Node | null;
  value: Node | null;
}

/** The key and value nodes at a path; stops at the deepest node that exists. */
function find(doc: Document, path: Segment[]): Target {
  let target: Target = { key: null, value: (doc.contents as Node | null) ?? null };
  for (const seg of path) {
    let node: unknown = target.value;
    if (isAlias(node)) node = node.resolve(doc);
    if (isMap(node)) {
      const pair = [...node.items].reverse().find((p) => keyText(p.key) === String(seg));
      if (!pair) break;
      target = { key: (pair.key as Node | null) ?? null, value: (pair.value as Node | null) ?? null };
    } else if (isSeq(node) && typeof seg === 'number' && node.items[seg] !== undefined) {
      target = { key: null, value: node.items[seg] as Node };
    } else {
      break;
    }
  }
  return target;
}

export function locate(parsed: Pick<ParsedYaml, 'doc' | 'lines'>, f: Finding): Located {
  const { key, value } = find(parsed.doc, f.pointAt ?? f.path);
  const node = f.at === 'key' ? key ?? value : isEmpty(value) ? key ?? value : value;
  const offset = node?.range ? node.range[0] : 0;
  return at(parsed.lines, offset, formatPath(f.path), f.message);
}

// `url:` with nothing after it: point at the key rather than past the colon.
function isEmpty(node: Node | null): boolean {
  if (!node?.range) return true;
  return isScalar(node) && node.value === null && node.range[0] === node.range[1];
}

/** `webhooks.redeploy.watched[1]`, `apps["hello app"]`; empty for the root. */
export function formatPath(path: Segment[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    // A key that is not a plain name (`redeploy.apps`, `hello app`) is quoted so the path stays unambiguous.
    else if (!/^[A-Za-z0-9_-]+$/.test(seg)) out += `[${JSON.stringify(seg)}]`;
    else out += out ? `.${seg}` : seg;
  }
  return out;
}
