// Scalars for the fast reader (fast-yaml.ts): quoted strings and plain
// scalars resolved exactly as yaml's core schema does. Anything this file is
// not sure about is `BAIL`, and the file goes to the full YAML parser.

export const BAIL = Symbol('bail');
export type Bail = typeof BAIL;
export type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
// Core-schema forms left to the full parser: octal, hex, .inf and .nan.
const RARE = /^(?:0o|0x|[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$)/;
// Characters that start something else than a plain scalar, or may.
const INDICATOR = /^(?:[&*!|>%@`'"#,[\]{}]|[-?:](?:\s|$))/;
// The checks below run once per key and value of the file, before the code is
// warm: character codes, not regular expressions, on the usual path.

/**
 * A letter, `_`, `$` (a ${VAR} in every secret) or `/`, other than the first
 * letters of the null and boolean words (n, N, t, T, f, F): no core-schema
 * type but the string starts so.
 */
function stringStart(c: number): boolean {
  if (c === 95 || c === 36 || c === 47) return true;
  const lower = c | 32; // A–Z onto a–z; nothing else lands there
  return lower >= 97 && lower <= 122 && lower !== 110 && lower !== 116 && lower !== 102;
}

/** The value of a plain scalar (already trimmed), as yaml's core schema resolves it. */
export function resolvePlain(text: string): Value | Bail {
  // Most values and keys start with a letter that begins no null, boolean or
  // number (a URL, `space:…`, `repo`, a name): a string, with no regex run.
  if (stringStart(text.charCodeAt(0))) return text;
  if (NULL.test(text)) return null;
  if (BOOL.test(text)) return text[0] === 't' || text[0] === 'T';
  if (INDICATOR.test(text) || RARE.test(text)) return BAIL;
  if (INT.test(text)) return parseInt(text, 10);
  if (FLOAT.test(text) || FLOAT_EXP.test(text)) return parseFloat(text);
  return text;
}

/** A plain key: a string that no YAML rule reads otherwise, else BAIL. */
export function plainKey(text: string): string | Bail {
  if (!keyChars(text) || text.charCodeAt(text.length - 1) === 32 || text === '__proto__') return BAIL;
  return typeof resolvePlain(text) === 'string' ? text : BAIL;
}

/** A name-like key, /^[A-Za-z_][A-Za-z0-9_ ./-]*$/: a letter or `_`, then letters, digits and `_ ./-`. */
function keyChars(text: string): boolean {
  const first = text.charCodeAt(0) | 32;
  if (!((first >= 97 && first <= 122) || text.charCodeAt(0) === 95)) return false;
  for (let i = 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const lower = c | 32;
    if ((lower >= 97 && lower <= 122) || (c >= 45 && c <= 57) || c === 95 || c === 32) continue; // letters, - . / 0–9, _, space
    return false;
  }
  return true;
}

/** A quoted scalar starting at `s[i]`: [value, index after the closing quote], or BAIL. */
export function quoted(s: string, i: number): [string, number] | Bail {
  const q = s[i];
  if (q === '"') {
    const end = s.indexOf('"', i + 1);
    // Escapes and multi-line strings are the full parser's job.
    if (end < 0 || s.slice(i + 1, end).includes('\\')) return BAIL;
    return [s.slice(i + 1, end), end + 1];
  }
  let out = '';
  let j = i + 1;
  for (;;) {
    const end = s.indexOf("'", j);
    if (end < 0) return BAIL;
    out += s.slice(j, end);
    if (s[end + 1] !== "'") return [out, end + 1];
    out += "'";
    j = end + 2;
  }
}

/** The index of the first non-space at or after `i`. */
export function skipSpaces(s: string, i: number): number {
  while (s[i] === ' ') i++;
  return i;
}

/**
 * The colon ending a block key written from `s[from]`: the first `:` before
 * `end` (the line's end) followed by a space or by `end`; -1 if none.
 */
export function keyColon(s: string, from = 0, end = s.length): number {
  for (let i = s.indexOf(':', from); i >= 0 && i < end; i = s.indexOf(':', i + 1)) {
    if (i + 1 === end || s.charCodeAt(i + 1) === 32) return i;
  }
  return -1;
}
