import t from 'tap';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, loadConfigText } from '../../schema/load.js';
import { formatDiagnostic } from '../../schema/types.js';
import { MAX_CONFIG_BYTES } from '../../schema/read-config.js';
import { runCli } from '../helpers/cli.js';

// Hostile or broken files get one clear diagnostic with file:line:column,
// never a stack overflow, a silent U+FFFD or a cascade of parser errors.

const lines = (text: string, env: NodeJS.ProcessEnv = {}) =>
  loadConfigText(text, 'robot.yaml', '/srv', env).diagnostics.map(formatDiagnostic);

t.test('a file over the size limit is refused before it is read, naming the file and the limit', async (t) => {
  const dir = t.testdir({});
  const file = join(dir, 'huge.yaml');
  writeFileSync(file, 'version: 1\n');
  truncateSync(file, MAX_CONFIG_BYTES + 5 * 1024 * 1024); // sparse: nothing is written
  const r = loadConfig('huge.yaml', {}, { cwd: dir });
  t.strictSame(r.diagnostics.map(formatDiagnostic), [
    'huge.yaml:1:1: the file is too large (21.0 MiB): a robot.yaml may be at most 16 MiB',
  ]);
  const cli = await runCli(['validate', '-f', 'huge.yaml'], { cwd: dir });
  t.equal(cli.code, 1);
  t.equal(cli.stderr, 'huge.yaml:1:1: the file is too large (21.0 MiB): a robot.yaml may be at most 16 MiB\n');
});

t.test('text given in memory is held to the same limit', async (t) => {
  const r = loadConfigText(`version: 1\n#${'x'.repeat(MAX_CONFIG_BYTES)}\n`, 'robot.yaml', '/srv', {});
  t.equal(r.ok, false);
  t.match(r.diagnostics[0]?.message, /may be at most 16 MiB/);
});

t.test('invalid UTF-8 is refused with the position of the first bad byte', async (t) => {
  const dir = t.testdir({});
  const bytes = Buffer.concat([Buffer.from('version: 1\nhub: { endpoint: "https://hé'), Buffer.from([0xff]), Buffer.from('.org" }\n')]);
  writeFileSync(join(dir, 'robot.yaml'), bytes);
  t.strictSame(loadConfig('robot.yaml', {}, { cwd: dir }).diagnostics.map(formatDiagnostic), [
    'robot.yaml:2:29: invalid UTF-8 (byte 0xFF at offset 40): save the file as UTF-8',
  ]);
  // Truncated sequence, overlong form and a UTF-16 surrogate are refused too.
  for (const bad of [[0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80]]) {
    writeFileSync(join(dir, 'robot.yaml'), Buffer.concat([Buffer.from('version: 1\n# '), Buffer.from(bad), Buffer.from('\n')]));
    t.match(loadConfig('robot.yaml', {}, { cwd: dir }).diagnostics.map(formatDiagnostic), [/^robot\.yaml:2:3: invalid UTF-8/]);
  }
  const cli = await runCli(['validate', '-f', 'robot.yaml'], { cwd: dir });
  t.equal(cli.code, 1);
  t.match(cli.stderr, /^robot\.yaml:2:3: invalid UTF-8 \(byte 0xED at offset 13\)/);
});

t.test('deep nesting is a diagnostic at the level past the limit, not a stack overflow', async (t) => {
  const flow = lines(`version: 1\nwebhooks: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`);
  t.strictSame(flow, ['robot.yaml:2:74: nesting deeper than 64 levels: a robot.yaml needs at most 5']);
  const maps = lines(`version: 1\nwebhooks: ${'{a: '.repeat(20_000)}1${'}'.repeat(20_000)}\n`);
  t.strictSame(maps, [`robot.yaml:2:${11 + 63 * 4}: nesting deeper than 64 levels: a robot.yaml needs at most 5`]);
  const block = ['version: 1', 'webhooks:', ...Array.from({ length: 3000 }, (_, i) => `${' '.repeat(2 * (i + 1))}a:`)].join('\n');
  t.strictSame(lines(`${block} 1\n`), ['robot.yaml:66:129: nesting deeper than 64 levels: a robot.yaml needs at most 5']);
  t.strictSame(lines(`version: 1\nrollout: ${'['.repeat(63)}${']'.repeat(63)}\n`).length, 1, 'within the limit: only the schema error');
});

t.test('unquoted ${VAR} inside a flow mapping or list gets one hint that quoting fixes it', async (t) => {
  t.strictSame(lines('version: 1\nwebhooks:\n  w: { url: ${URL}, watched: [user:a] }\n', { URL: 'https://x.org/h' }), [
    'robot.yaml:3:13: invalid YAML: ${URL} inside { … } or [ … ] must be quoted, write "${URL}"',
  ]);
  t.strictSame(lines('version: 1\nwebhooks:\n  w:\n    url: https://x.org/h\n    watched: [user:a, ${WATCHED}]\n'), [
    'robot.yaml:5:23: invalid YAML: ${WATCHED} inside { … } or [ … ] must be quoted, write "${WATCHED}"',
  ]);
  const quoted = loadConfigText('version: 1\nwebhooks:\n  w: { url: "${URL}", watched: [user:a] }\n', 'robot.yaml', '/srv', { URL: 'https://x.org/h' });
  t.equal(quoted.ok, true, 'quoting fixes it');
  const block = loadConfigText('version: 1\nwebhooks:\n  w:\n    url: ${URL}\n    watched: [user:a]\n', 'robot.yaml', '/srv', { URL: 'https://x.org/h' });
  t.equal(block.ok, true, 'a block value needs no quotes');
});

// Issue 29.10: each of these goes through schema/ (loadConfig), so validate,
// plan, apply and the agent say the same; the CLI runs below show two of them.

const laughs = (n: number): string => `version: 1\nx: &a [1]\ny: [${Array.from({ length: n }, () => '*a').join(', ')}]\n`;

t.test('200,000 aliases (a billion-laughs file) are refused before parsing, at the alias past the cap', async (t) => {
  const dir = t.testdir({ 'laughs.yaml': laughs(200_000) });
  // The 1,001st `*a` starts at column 4 + 4 × 1,000 on line 3 (`y: [` then `*a, ` each).
  const line = 'laughs.yaml:3:4005: invalid YAML: more than 1000 aliases (*name), as in a file made to exhaust memory: a robot.yaml needs a few; write the values out';
  t.strictSame(loadConfig('laughs.yaml', {}, { cwd: dir }).diagnostics.map(formatDiagnostic), [line]);
  const cli = await runCli(['validate', '-f', 'laughs.yaml'], { cwd: dir });
  t.equal(cli.code, 1);
  t.equal(cli.stderr, `${line}\n`, 'one line, nothing else');
  const plan = await runCli(['plan', '-f', 'laughs.yaml'], { cwd: dir });
  t.equal(plan.code, 1);
  t.equal(plan.stderr, `${line}\nError: laughs.yaml is not valid (1 problem); fix it and run again.\n`, 'plan says the same');
  // Under the cap, yaml's own per-anchor limit still holds (an anchor used more than 100 times).
  t.match(lines(laughs(1000)), [/^robot\.yaml:1:1: invalid YAML: Excessive alias count/]);
  t.match(lines('version: 1\nrollout: &r { parallelism: 2 }\nx: *r\n'), [/^robot\.yaml:3:1: x: unknown key 'x'/], 'a few aliases are plain YAML');
});

t.test('a complex (non-scalar) key is a diagnostic at its position, not a warning on stderr', async (t) => {
  t.strictSame(lines('version: 1\nwebhooks:\n  ? [a, b]\n  : { url: https://x.org/h, watched: [user:alice] }\n'), [
    'robot.yaml:3:5: webhooks: a key must be a plain name, not a list: write the key as text (a complex key, `? [ … ]`, has no meaning in robot.yaml)',
  ]);
  t.strictSame(lines('version: 1\napps: { {a: 1}: { path: ./x } }\n'), [
    'robot.yaml:2:9: apps: a key must be a plain name, not a mapping: write the key as text (a complex key, `? [ … ]`, has no meaning in robot.yaml)',
  ]);
  t.strictSame(lines('version: 1\nx: &k [a]\napps:\n  *k : { path: ./x }\n'), [
    'robot.yaml:4:3: apps: a key must be a plain name, not an alias (*name): write the key as text (a complex key, `? [ … ]`, has no meaning in robot.yaml)',
  ]);
  const dir = t.testdir({ 'complex.yaml': 'version: 1\nwebhooks:\n  ? [a, b]\n  : {url: https://x.org/h, watched: [user:alice]}\n' });
  const cli = await runCli(['validate', '-f', 'complex.yaml'], { cwd: dir });
  t.equal(cli.code, 1);
  t.equal(cli.stderr,
    'complex.yaml:3:5: webhooks: a key must be a plain name, not a list: write the key as text (a complex key, `? [ … ]`, has no meaning in robot.yaml)\n',
    'no Node warning');
});

t.test('a UTF-16 or UTF-32 file is named as such, with or without a byte order mark', async (t) => {
  const text = 'version: 1\nwebhooks:\n  w:\n    url: https://x.org/h\n    watched: [user:alice]\n';
  const le = Buffer.from(text, 'utf16le');
  const be = Buffer.from(le).swap16();
  const bom = (b: Buffer, mark: number[]): Buffer => Buffer.concat([Buffer.from(mark), b]);
  const u32le = Buffer.alloc(text.length * 4);
  for (let i = 0; i < text.length; i++) u32le.writeUInt32LE(text.charCodeAt(i), i * 4);
  const cases: [string, Buffer, string][] = [
    ['utf16-le-bom.yaml', bom(le, [0xff, 0xfe]), 'UTF-16 (little-endian, with a byte order mark)'],
    ['utf16-le.yaml', le, 'UTF-16 (little-endian, without a byte order mark)'],
    ['utf16-be-bom.yaml', bom(be, [0xfe, 0xff]), 'UTF-16 (big-endian, with a byte order mark)'],
    ['utf16-be.yaml', be, 'UTF-16 (big-endian, without a byte order mark)'],
    ['utf32-le-bom.yaml', bom(u32le, [0xff, 0xfe, 0x00, 0x00]), 'UTF-32 (little-endian, with a byte order mark)'],
    ['utf32-le.yaml', u32le, 'UTF-32 (little-endian, without a byte order mark)'],
  ];
  const dir = t.testdir({});
  for (const [name, bytes, what] of cases) {
    writeFileSync(join(dir, name), bytes);
    t.strictSame(loadConfig(name, {}, { cwd: dir }).diagnostics.map(formatDiagnostic), [`${name}:1:1: the file is ${what}, not UTF-8: save it as UTF-8`], name);
  }
  const cli = await runCli(['validate', '-f', 'utf16-le-bom.yaml'], { cwd: dir });
  t.equal(cli.code, 1);
  t.equal(cli.stderr, 'utf16-le-bom.yaml:1:1: the file is UTF-16 (little-endian, with a byte order mark), not UTF-8: save it as UTF-8\n');
});
