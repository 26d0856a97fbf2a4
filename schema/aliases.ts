// A cap on YAML aliases (`*name`), counted in the text before any parsing.
// yaml refuses an anchor used more than 100 times only once it builds the
// data, after parsing every token: 200,000 aliases (a "billion laughs" file)
// took 4.2 s and 359 MB to be refused. A robot.yaml needs a few aliases at
// most; counting the places where one may start is one pass over the text,
// milliseconds for 16 MiB, and stops at the first one past the cap.
//
// The count is a bound from above: a `*` that starts a word (after a space,
// `[`, `{` or `,`) and is followed by a name character counts even inside a
// quoted string or a comment. Only a file with more than MAX_ALIASES such
// places is refused, which no real robot.yaml has.

export const MAX_ALIASES = 1000;

export function aliasMessage(): string {
  return `invalid YAML: more than ${MAX_ALIASES} aliases (*name), as in a file made to exhaust memory: a robot.yaml needs a few; write the values out`;
}

/** Offset of the first alias past `limit`, or undefined. */
export function tooManyAliases(text: string, limit = MAX_ALIASES): number | undefined {
  let count = 0;
  for (let i = text.indexOf('*'); i >= 0; i = text.indexOf('*', i + 1)) {
    if (!startsWord(text, i) || !nameChar(text.charCodeAt(i + 1))) continue;
    count += 1;
    if (count > limit) return i;
  }
  return undefined;
}

function startsWord(text: string, i: number): boolean {
  if (i === 0) return true;
  const c = text.charCodeAt(i - 1);
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x5b || c === 0x7b || c === 0x2c; // space, tab, LF, CR, [ { ,
}

/** YAML's anchor characters: anything printable but spaces and the flow indicators. */
function nameChar(c: number): boolean {
  if (Number.isNaN(c) || c <= 0x20) return false;
  return c !== 0x2c && c !== 0x5b && c !== 0x5d && c !== 0x7b && c !== 0x7d; // , [ ] { }
}
