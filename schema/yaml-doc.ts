import { Composer, LineCounter, Parser, YAMLParseError, isAlias, isMap, isScalar, isSeq, type CST, type Document, type Node, type Scalar } from 'yaml';
import { MAX_DEPTH, depthMessage, tooDeep } from './depth.js';
import { aliasMessage, tooManyAliases } from './aliases.js';
import { flowVarMessage, flowVars } from './flow-var-hint.js';

// The YAML side of loading: parse keeping positions, report syntax errors,
// duplicate keys, complex keys, too many aliases and too deep nesting.
// Positions are looked up by yaml-locate.ts.

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
  const aliases = tooManyAliases(text);
  if (aliases !== undefined) return { doc: compose([], text), lines, problems: [offsetAt(text, aliases, aliasMessage())] };
  const tokens = [...new Parser(lines.addNewLine).parse(text)];
  const deep = tooDeep(tokens, MAX_DEPTH);
  if (deep !== undefined) return { doc: compose([], text), lines, problems: [at(lines, deep, '', depthMessage())] };
  const doc = compose(tokens, text);
  const problems = syntaxProblems(doc, text, lines);
  if (problems.length === 0) {
    for (const f of keyProblems(doc.contents, [], lines)) problems.push(locateKey(lines, f));
  }
  return { doc, lines, problems };
}

/** Line and column of `offset` counted in the text itself (no parser has run: the lines are not known yet). */
function offsetAt(text: string, offset: number, message: string): Located {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1, path: '', message };
}

// As yaml's parseDocument, from tokens already parsed. uniqueKeys off: yaml's
// own check is quadratic in a map's size; duplicateKeys() below is linear and knows the path.
function compose(tokens: CST.Token[], text: string): Document {
  const composer = new Composer({ uniqueKeys: false, prettyErrors: false });
  let doc: Document | undefined;
  for (const d of composer.compose(tokens, true, text.length)) {
    if (!doc) doc = d;
    else {
      doc.errors.push(new YAMLParseError([d.range[0], d.range[1]], 'MULTIPLE_DOCS', 'several documents'));
      break;
    }
  }
  return doc as Document;
}

function syntaxProblems(doc: Document, text: string, lines: LineCounter): Located[] {
  const problems: Located[] = [];
  const hints = doc.errors.length ? flowVars(text) : [];
  const firstHint = hints[0]?.offset ?? Infinity;
  for (const h of hints) problems.push(at(lines, h.offset, '', flowVarMessage(h)));
  // Past an unquoted ${VAR} in flow, the parser's errors are its cascade.
  for (const e of doc.errors) if (e.pos[0] < firstHint) problems.push(at(lines, e.pos[0], '', syntaxMessage(e.code, e.message)));
  for (const w of doc.warnings) problems.push(at(lines, w.pos[0], '', `unsupported YAML: ${w.message}`));
  return problems;
}

function syntaxMessage(code: string, message: string): string {
  if (code === 'MULTIPLE_DOCS') return 'invalid YAML: the file holds several documents (---); robot.yaml must hold one';
  return `invalid YAML: ${message.replace(/\s+/g, ' ').trim()}`;
}

export function at(lines: LineCounter, offset: number, path: string, message: string): Located {
  const { line, col } = lines.linePos(offset);
  return { line, column: col, path, message };
}

export function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

interface KeyFinding {
  offset: number;
  path: Segment[];
  message: string;
}

/**
 * Duplicate keys, and keys that are not plain values: a `[ … ]` or `{ … }`
 * (or an alias) as a key has no name robot.yaml could mean, and yaml would
 * only turn it into text with a warning printed on stderr.
 */
function keyProblems(node: unknown, path: Segment[], lines: LineCounter): KeyFinding[] {
  const found: KeyFinding[] = [];
  if (isMap(node)) {
    const firstOffset = new Map<string, number>();
    for (const pair of node.items) {
      const offset = ((pair.key as Node | null) ?? (pair.value as Node | null))?.range?.[0] ?? 0;
      if (pair.key !== null && !isScalar(pair.key)) {
        found.push({ offset, path, message: complexKeyMessage(pair.key) });
        continue;
      }
      const k = keyText(pair.key);
      const first = firstOffset.get(k);
      if (first === undefined) firstOffset.set(k, offset);
      else found.push({ offset, path: [...path, k], message: `duplicate key '${k}' (first set on line ${lines.linePos(first).line})` });
      found.push(...keyProblems(pair.value, [...path, k], lines));
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => found.push(...keyProblems(item, [...path, i], lines)));
  }
  return found;
}

function complexKeyMessage(key: unknown): string {
  const what = isAlias(key) ? 'an alias (*name)' : isSeq(key) ? 'a list' : 'a mapping';
  return `a key must be a plain name, not ${what}: write the key as text (a complex key, \`? [ … ]\`, has no meaning in robot.yaml)`;
}

function locateKey(lines: LineCounter, f: KeyFinding): Located {
  return at(lines, f.offset, formatPath(f.path), f.message);
}

/** Calls fn on every scalar in a value position (never on keys). */
export function eachValueScalar(node: unknown, path: Segment[], fn: (s: Scalar, path: Segment[]) => void): void {
  if (isScalar(node)) fn(node, path);
  else if (isMap(node)) for (const pair of node.items) eachValueScalar(pair.value, [...path, keyText(pair.key)], fn);
  else if (isSeq(node)) node.items.forEach((item, i) => eachValueScalar(item, [...path, i], fn));
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
