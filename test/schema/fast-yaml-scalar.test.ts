import t from 'tap';
import { BAIL, plainKey, resolvePlain } from '../../schema/fast-yaml-scalar.js';

// The fast reader's scalar checks test character codes where they once ran
// regular expressions (they run for every key and value, before the code is
// warm). Every UTF-16 code unit, first and later in a key or a value, must
// give what those expressions gave.

const KEY = /^[A-Za-z_][A-Za-z0-9_ ./-]*$/;

// resolvePlain as it was, all regular expressions (yaml's core schema).
function referencePlain(text: string): unknown {
  if (/^[A-Za-z_]/.test(text) && !/^[nNtTfF]/.test(text)) return text;
  if (/^(?:~|[Nn]ull|NULL)?$/.test(text)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(text)) return text[0] === 't' || text[0] === 'T';
  if (/^(?:[&*!|>%@`'"#,[\]{}]|[-?:](?:\s|$))/.test(text) || /^(?:0o|0x|[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$)/.test(text)) return BAIL;
  if (/^[-+]?[0-9]+$/.test(text)) return parseInt(text, 10);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(text) || /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(text)) return parseFloat(text);
  return text;
}

function referenceKey(text: string): string | typeof BAIL {
  if (!KEY.test(text) || text.endsWith(' ') || text === '__proto__') return BAIL;
  return typeof resolvePlain(text) === 'string' ? text : BAIL;
}

t.test('plainKey accepts exactly the keys /^[A-Za-z_][A-Za-z0-9_ ./-]*$/ accepts', async (t) => {
  let differences = 0;
  for (let c = 0; c <= 0xffff; c++) {
    const ch = String.fromCharCode(c);
    for (const text of [ch, `a${ch}`, `_${ch}b`, `${ch}x`]) if (plainKey(text) !== referenceKey(text)) differences += 1;
  }
  t.equal(differences, 0, 'no code unit is read differently');
  t.equal(plainKey(''), BAIL, 'an empty key is not plain');
  t.equal(plainKey('hook-1'), 'hook-1');
  t.equal(plainKey('null'), BAIL, 'a key that reads as null');
  t.equal(plainKey('a b '), BAIL, 'a trailing space');
});

t.test('resolvePlain reads every first code unit as the regular expressions did', async (t) => {
  let differences = 0;
  for (let c = 0; c <= 0xffff; c++) {
    const ch = String.fromCharCode(c);
    for (const text of [ch, `${ch}ull`, `${ch}rue`, `${ch}1`, `${ch}x y`]) if (!Object.is(resolvePlain(text), referencePlain(text))) differences += 1;
  }
  t.equal(differences, 0);
  t.equal(resolvePlain('null'), null);
  t.equal(resolvePlain('Null'), null);
  t.equal(resolvePlain('nullx'), 'nullx');
  t.equal(resolvePlain('True'), true);
  t.equal(resolvePlain('false'), false);
  t.equal(resolvePlain('12'), 12);
  t.equal(resolvePlain('_x'), '_x');
  t.equal(resolvePlain('repo'), 'repo');
});
