import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../schema/load.js';
import { formatDiagnostic } from '../../schema/types.js';

// One mistake per fixture; its exact diagnostics live beside it in NAME.expected.
const dir = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures', 'invalid');
const env = { WEBHOOK_SECRET: 'fixture-secret', RECEIVER_PORT: 'not-a-port' };
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();

t.ok(fixtures.length >= 35, `corpus has ${fixtures.length} fixtures`);

for (const name of fixtures) {
  t.test(name, async (t) => {
    const expected = readFileSync(join(dir, name.replace(/\.yaml$/, '.expected')), 'utf8').trimEnd().split('\n');
    const r = loadConfig(name, env, { cwd: dir });
    t.equal(r.ok, false, 'invalid');
    t.strictSame(r.diagnostics.map(formatDiagnostic), expected);
    for (const line of r.diagnostics.map(formatDiagnostic)) t.notMatch(line, /fixture-secret|\n|    at /, 'no secret, no stack');
  });
}
