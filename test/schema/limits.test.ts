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
