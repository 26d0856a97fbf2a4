import t, { type Test } from 'tap';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { fastRead, positionRead } from '../../schema/read-paths.js';
import { fastParse } from '../../schema/fast-yaml.js';
import { loadConfigText } from '../../schema/load.js';

// The fast reader (no positions) and the position reader (yaml's Document)
// must agree: same data, same findings, wherever the fast one answers; and it
// must not answer for a file yaml reads differently or refuses.

const here = fileURLToPath(new URL('.', import.meta.url));
const dirs = [join(here, 'fixtures', 'invalid'), join(here, '..', '..', 'examples')];
const env = { WEBHOOK_SECRET: 'fixture-secret', RECEIVER_PORT: 'not-a-port' };

function same(t: Test, text: string, label: string, vars: NodeJS.ProcessEnv): boolean {
  const fast = fastRead(text, vars);
  if (!fast) return false;
  const slow = positionRead(text, vars);
  t.notOk('problems' in slow, `${label}: the position reader accepts the YAML too`);
  if ('problems' in slow) return true;
  t.strictSame(fast.data, slow.data, `${label}: same data`);
  t.strictSame(fast.findings, slow.findings, `${label}: same findings`);
  return true;
}

t.test('fixtures and examples: identical findings on both paths', async (t) => {
  let answered = 0;
  for (const dir of dirs) {
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
      if (same(t, readFileSync(join(dir, name), 'utf8'), name, env)) answered += 1;
    }
  }
  t.ok(answered >= 60, `the fast reader answered for ${answered} files`);
  t.ok(fastRead(readFileSync(join(dirs[1] as string, 'fleet.yaml'), 'utf8'), env), 'fleet.yaml takes the fast path');
});

t.test('unset variables are reported at the start of each value that names one', async (t) => {
  const lines = [
    'version: 1',
    'webhooks:',
    '  a:',
    '    url: https://x.org/${HOST}/a   # note',
    "    watched: [space:demo/app, 'user:${WHO}', { type: model, name: \"${M}\" }]",
    '    secret: ${S1}${S2}',
    '  b:',
    '    url: https://x.org/b',
    '    watched:',
    '      - ${H}',
  ];
  const text = `${lines.join('\n')}\n`;
  t.ok(fastRead(text, {}), 'a file the fast reader reads');
  same(t, text, 'unset variables', {});
  const loaded = loadConfigText(text, 'robot.yaml', here, {});
  const col = (line: number, s: string): [number, number] => [line, (lines[line - 1] ?? '').indexOf(s) + 1];
  const expected = [col(4, 'https'), col(5, "'user"), col(5, '"${M}'), col(6, '${S1'), col(6, '${S1'), col(10, '${H}')];
  t.strictSame(loaded.diagnostics.map((d) => [d.line, d.column]), expected, 'at the start of each value');
  same(t, readFileSync(join(dirs[1] as string, 'fleet.yaml'), 'utf8'), 'fleet.yaml, no env', {});
});

t.test('flow lists of plain scalars, read in the loop: yaml\'s data, or no answer', async (t) => {
  const lists = [
    '[a, b]', '[a, b]  # c', '[a,b]#c', '[ a , b ]', '[]', '[ ]', '[a, ]', '[a: b]', '[a:b]', '[a:]', '[${X}]', '[a #b]', '[a#b]',
    '[1, true, null, ~, -2, 1.5]', '[a b, c  d]', '[space:demo/app, user:demo]', '[a, [b]]', '[a, {b: c}]', "[a, 'b']", '[a', '[a, b] x',
    '[&a, b]', '[- a]', '[a, -b]', '[?x]',
  ];
  let answered = 0;
  for (const list of lists) {
    const text = `version: 1\nwebhooks:\n  a:\n    url: https://x.org/a\n    watched: ${list}\n`;
    const fast = fastParse(text);
    const doc = parseDocument(text, { uniqueKeys: true });
    if (doc.errors.length || doc.warnings.length) {
      t.equal(fast, undefined, `${list}: yaml refuses it, so does the fast reader`);
      continue;
    }
    if (fast) {
      answered += 1;
      t.strictSame(fast.data, doc.toJS(), `${list}: same data as yaml`);
    }
    same(t, text, list, { X: 'x' });
  }
  t.ok(answered >= 15, `the fast reader answered for ${answered} of ${lists.length}`);
});

// Random documents in the styles people write, with texts chosen to sit on
// the edges of YAML's rules (numbers, booleans, nulls, comments, colons).
const TEXTS = [
  'hello', 'a b', '1', '-1', '007', '1.5', '1e3', '+.5', '.inf', '0x1F', '0o7', 'true', 'False', 'null', '~', 'yes',
  'x: y', 'a #b', 'a#b', 'http://x:80/p', 'space:demo/app', '${X}', 'pre-${X}', '$${X}', '${X', '${A-B}', "it's", 'say "hi"',
  '- a', '[a]', '{b}', '&a', '*a', '!t', '@x', '%x', '?x', ':x', '2020-01-01', '1_000', '', ' x', 'é ü', 'a,b', 'a]', '\u00A0x', 'x\u2003', 'a\u3000b',
];
const KEYS = ['version', 'url', 'a', 'hook-1', 'app_2', 'hello app', 'true', 'null', '1', 'x.y', 'a:b', '"q"', "'s'"];

const scalar = fc.oneof(
  fc.constantFrom(...TEXTS).map((s) => ({ kind: 'text' as const, s })),
  fc.constantFrom(...TEXTS).map((s) => ({ kind: 'quoted' as const, s })),
);
type Tree = { kind: 'text' | 'quoted'; s: string } | { kind: 'map'; entries: [string, Tree][]; flow: boolean } | { kind: 'seq'; items: Tree[]; flow: boolean };
const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.record({ kind: fc.constant('map' as const), entries: fc.array(fc.tuple(fc.constantFrom(...KEYS), tie('node')), { maxLength: 3 }), flow: fc.boolean() }),
    fc.record({ kind: fc.constant('seq' as const), items: fc.array(tie('node'), { maxLength: 3 }), flow: fc.boolean() }),
  ),
})).node;

function flow(n: Tree): string {
  if (n.kind === 'seq') return `[${n.items.map(flow).join(', ')}]`;
  if (n.kind === 'map') return `{ ${n.entries.map(([k, v]) => `${k}: ${flow(v)}`).join(', ')} }`;
  return n.kind === 'text' ? n.s : `'${n.s.replace(/'/g, "''")}'`;
}

function block(n: Tree, indent: string, comment: boolean): string[] {
  if (n.kind === 'map' && !n.flow && n.entries.length) {
    return n.entries.flatMap(([k, v]) => nested(`${indent}${k}:`, v, indent, comment));
  }
  if (n.kind === 'seq' && !n.flow && n.items.length) return n.items.flatMap((v) => nested(`${indent}-`, v, indent, comment));
  return [`${indent}${flow(n)}`];
}

function nested(head: string, v: Tree, indent: string, comment: boolean): string[] {
  const blockChild = (v.kind === 'map' || v.kind === 'seq') && !v.flow && (v.kind === 'map' ? v.entries.length : v.items.length);
  if (blockChild) return [`${head}${comment ? ' # note' : ''}`, ...block(v, `${indent}  `, comment)];
  return [`${head} ${flow(v)}${comment ? ' # note' : ''}`];
}

t.test('random documents: the fast reader gives yaml\'s data or does not answer', async (t) => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom(...KEYS), tree), { minLength: 1, maxLength: 4 }), fc.boolean(), fc.constantFrom('1', 'abc', '', ' 5', '#c', 'a: b', 'true', '3.5', undefined), (entries, comment, x) => {
      const text = `${block({ kind: 'map', entries, flow: false }, '', comment).join('\n')}\n`;
      const fast = fastParse(text);
      const doc = parseDocument(text, { uniqueKeys: true });
      if (doc.errors.length || doc.warnings.length) return fast === undefined;
      if (fast) t.strictSame(fast.data, doc.toJS({ maxAliasCount: 100 }), text);
      same(t, text, text, x === undefined ? {} : { X: x });
      return true;
    }),
    { numRuns: 1500, seed: 1612 },
  );
});
