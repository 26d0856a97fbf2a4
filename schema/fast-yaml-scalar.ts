// Scalars for the fast reader (fast-yaml.ts): quoted strings and plain
// scalars resolved exactly as yaml's core schema does. Anything this file is
// not sure about is `BAIL`, and the file goes to the full YAML parser.
//
// The readers work on one line by index and report where they stopped in
// `cursor` instead of returning a tuple: a 50,000-webhook file is 250,000
// lines, and a tuple and a substring per value was most of the reader's time.

export const BAIL = Symbol('bail');
export type Bail = typeof BAIL;
export type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

/** Where the last read ended (index in its line) and whether its value was plain (unquoted). */
export const cursor = { end: 0, plain: false };

const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
// Core-schema forms left to the full parser: octal, hex, .inf and .nan.
const RARE = /^(?:0o|0x|[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$)/;
// Characters that start something else than a plain scalar, or may.
const INDICATOR = /^(?:[&*!|>%@`'"#,[\]{}]|[-?:](?:\s|$))/;

const SPACE = 32;
const HASH = 35;
const QUOTE = 39;
const DQUOTE = 34;
const BACKSLASH = 92;

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

/** A letter that begins no null or boolean word (null, Null, NULL, true, …, FALSE). */
function startsOnlyStrings(c: number): boolean {
  return isLetter(c) && c !== 110 && c !== 78 && c !== 116 && c !== 84 && c !== 102 && c !== 70;
}

/** The value of a plain scalar (already trimmed), as yaml's core schema resolves it. */
export function resolvePlain(text: string): Value | Bail {
  // Most values and keys start with a letter that begins no null, boolean or
  // number (a URL, `space:…`, `repo`, a name): a string, with no regex run.
  if (startsOnlyStrings(text.charCodeAt(0))) return text;
  if (NULL.test(text)) return null;
  if (BOOL.test(text)) return text[0] === 't' || text[0] === 'T';
  if (INDICATOR.test(text) || RARE.test(text)) return BAIL;
  if (INT.test(text)) return parseInt(text, 10);
  if (FLOAT.test(text) || FLOAT_EXP.test(text)) return parseFloat(text);
  return text;
}

/**
 * A plain key the fast reader accepts: a name-like text (`[A-Za-z_][A-Za-z0-9_ ./-]*`,
 * no trailing space) that resolves to a string; else BAIL.
 */
export function plainKey(text: string): string | Bail {
  const n = text.length;
  if (n === 0 || !isLetter(text.charCodeAt(0)) || text.charCodeAt(n - 1) === SPACE) return BAIL;
  for (let i = 1; i < n; i++) {
    const c = text.charCodeAt(i);
    // letters, _, digits, space, '.', '/', '-'
    if (!(isLetter(c) || (c >= 48 && c <= 57) || c === SPACE || c === 46 || c === 47 || c === 45)) return BAIL;
  }
  if (text === '__proto__') return BAIL;
  return typeof resolvePlain(text) === 'string' ? text : BAIL;
}

/** A quoted scalar starting at `s[i]`: its value (cursor.end: the index after the closing quote), or BAIL. */
export function quoted(s: string, i: number): string | Bail {
  if (s.charCodeAt(i) === DQUOTE) {
    const end = s.indexOf('"', i + 1);
    if (end < 0) return BAIL;
    // Escapes and multi-line strings are the full parser's job.
    for (let j = i + 1; j < end; j++) if (s.charCodeAt(j) === BACKSLASH) return BAIL;
    cursor.end = end + 1;
    return s.slice(i + 1, end);
  }
  let out = '';
  let j = i + 1;
  for (;;) {
    const end = s.indexOf("'", j);
    if (end < 0) return BAIL;
    out += s.slice(j, end);
    if (s.charCodeAt(end + 1) !== QUOTE) {
      cursor.end = end + 1;
      return out;
    }
    out += "'";
    j = end + 2;
  }
}

/** The index of the first non-space at or after `i`. */
export function skipSpaces(s: string, i: number): number {
  while (s.charCodeAt(i) === SPACE) i++;
  return i;
}

/** After a value: only spaces, then nothing or a comment (a `#` after at least one space). */
export function onlyComment(s: string, i: number): boolean {
  const j = skipSpaces(s, i);
  return j === s.length || (s.charCodeAt(j) === HASH && j > i);
}
