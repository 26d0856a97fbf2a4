import t from 'tap';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { STANDALONE_FILE, standalone } from '../../schema/robot-validator.js';
import { robotSchema } from '../../schema/schema-file.js';
import { Ajv } from 'ajv';
import { AJV_OPTIONS, addEditorKeywords } from '../../lib/validators.js';

// The validator generated at build time (npm run build) must judge every file
// exactly as ajv compiling the schema now does: same verdict, same errors.

const here = fileURLToPath(new URL('.', import.meta.url));
const examples = join(here, '..', '..', 'examples');
const invalid = join(here, 'fixtures', 'invalid');
const files = [
  ...readdirSync(examples).filter((f) => f.endsWith('.yaml')).map((f) => join(examples, f)),
  ...readdirSync(invalid).filter((f) => f.endsWith('.yaml')).map((f) => join(invalid, f)),
];

t.ok(existsSync(STANDALONE_FILE), 'npm run build wrote the standalone validator');
const built = standalone();
t.ok(built, 'it was made from the schema as it is now');
// Compiled now with the registry's options, apart from the registry.
const fresh = addEditorKeywords(new Ajv(AJV_OPTIONS)).compile(robotSchema());

for (const file of files) {
  let data: unknown;
  try {
    data = parse(readFileSync(file, 'utf8'), { maxAliasCount: 100 });
  } catch {
    continue; // not YAML at all: nothing reaches the schema
  }
  const a = built?.(data);
  const aErrors = JSON.stringify(built?.errors ?? null);
  const b = fresh(data);
  t.equal(a, b, `${file}: same verdict`);
  t.equal(aErrors, JSON.stringify(fresh.errors ?? null), `${file}: same errors`);
}

t.test('errors gathered from referenced schemas: the same list', async (t) => {
  const webhooks: Record<string, unknown> = {};
  for (let i = 0; i < 200; i++) webhooks[`h${i}`] = i % 3 === 0 ? { url: 'https://x.org', watched: [] } : { url: 1, watched: ['user:a'], colour: 'blue' };
  // Keys that a JSON pointer escapes (~0, ~1).
  webhooks['a/b~c'] = { url: 1, watched: ['user:a'] };
  webhooks['~/'] = { url: 'https://x.org', watched: [3] };
  const robots = { r: { url: 'http://r.local:8000', apps: 'nope' }, s: { url: 'http://s.local:8000' }, 'x/y': { url: 2 } };
  const data = { version: 1, webhooks, robots };
  t.equal(built?.(data), fresh(data));
  t.equal(JSON.stringify(built?.errors ?? null), JSON.stringify(fresh.errors ?? null));
  t.ok((built?.errors?.length ?? 0) > 200, 'many errors, from many calls of the webhook schema');
  t.match(JSON.stringify(built?.errors), '/webhooks/a~1b~0c/url', 'an escaped key in an error\'s path');
  t.match(JSON.stringify(built?.errors), '/robots/x~1y/url');
});
