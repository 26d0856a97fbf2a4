import t from 'tap';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { STANDALONE_FILE, compileNow, standalone } from '../../schema/robot-validator.js';
import { schemaToCompile } from '../../schema/ajv-options.js';

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
const fresh = compileNow();

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

t.test('errors gathered from referenced schemas: the same list, appended in place (no copy per webhook)', async (t) => {
  const webhooks: Record<string, unknown> = {};
  for (let i = 0; i < 200; i++) webhooks[`h${i}`] = i % 3 === 0 ? { url: 'https://x.org', watched: [] } : { url: 1, watched: ['user:a'], colour: 'blue' };
  // Keys that a JSON pointer escapes (~0, ~1): the build rewrote ajv's escaping.
  webhooks['a/b~c'] = { url: 1, watched: ['user:a'] };
  webhooks['~/'] = { url: 'https://x.org', watched: [3] };
  const robots = { r: { url: 'http://r.local:8000', apps: 'nope' }, s: { url: 'http://s.local:8000' }, 'x/y': { url: 2 } };
  const data = { version: 1, webhooks, robots };
  t.equal(built?.(data), fresh(data));
  t.equal(JSON.stringify(built?.errors ?? null), JSON.stringify(fresh.errors ?? null));
  t.ok((built?.errors?.length ?? 0) > 200, 'many errors, from many calls of the webhook schema');
  t.notMatch(readFileSync(STANDALONE_FILE, 'utf8'), /vErrors\.concat\(/, 'the build rewrote the concatenations');
  t.match(JSON.stringify(built?.errors), '/webhooks/a~1b~0c/url', 'an escaped key in an error\'s path');
  t.match(JSON.stringify(built?.errors), '/robots/x~1y/url');
});

t.test('the key choices (url or job_id, source or path) are left to rules.ts, all else compiled as written', async (t) => {
  const schema = JSON.parse(readFileSync(join(here, '..', '..', 'schema', 'robot.schema.json'), 'utf8')) as Record<string, unknown>;
  const compiled = schemaToCompile(schema);
  t.notMatch(JSON.stringify(compiled), /"oneOf"/, 'no key choice compiled');
  const defs = (s: Record<string, unknown>) => s.definitions as Record<string, Record<string, unknown>>;
  const { oneOf: webhookChoice, ...webhookRest } = defs(schema).webhook as Record<string, unknown>;
  t.same(webhookChoice, [{ required: ['url'] }, { required: ['job_id'] }], 'the file still has it, for editors');
  t.same(defs(compiled).webhook, webhookRest, 'the webhook schema is otherwise the same');
  const { definitions: _a, ...topCompiled } = compiled;
  const { definitions: _b, ...topSchema } = schema;
  t.same(topCompiled, topSchema);
  // A oneOf that says more than "one of these keys" is compiled.
  const other = { oneOf: [{ required: ['a'], properties: { a: { type: 'string' } } }, { required: ['b'] }] };
  t.same(schemaToCompile(other), other);
  // Both keys: the schema passes it, the rules do not (tested with its message in the invalid fixtures).
  const both = { version: 1, webhooks: { h: { url: 'https://x.org', job_id: 'j', watched: ['user:a'] } } };
  t.equal(built?.(both), true);
});
