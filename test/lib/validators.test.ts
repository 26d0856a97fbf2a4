import t from 'tap';
import type { ValidateFunction } from 'ajv';
import { validator } from '../../lib/validators.js';

// The one validator registry: a schema is compiled once and found again by
// its $id; the build's generated code is used when given.

t.test('compiled once, found by its $id', async (t) => {
  const id = 'https://robotctl.dev/schema/test-once.json';
  let reads = 0;
  const schema = (): object => { reads += 1; return { $id: id, type: 'object', required: ['a'], properties: { a: { type: 'string' } } }; };
  const first = validator(id, schema);
  t.equal(validator(id, schema), first, 'the same function');
  t.equal(reads, 1, 'the schema was read once');
  t.ok(first({ a: 'x' }));
  t.notOk(first({}));
  t.match(first.errors?.[0], { keyword: 'required', params: { missingProperty: 'a' } });
});

t.test('generated code is used as it is; a schema under another $id is refused', async (t) => {
  // Shaped as ajv's standalone modules are: a function with its schema attached.
  const generated = Object.assign((data: unknown) => data === 42, { errors: null, schema: {}, schemaEnv: {} }) as unknown as ValidateFunction;
  const v = validator('https://robotctl.dev/schema/test-generated.json', () => ({}), () => generated);
  t.equal(v, generated);
  t.throws(() => validator('https://robotctl.dev/schema/test-a.json', () => ({ $id: 'https://robotctl.dev/schema/test-b.json' })), /declares \$id/);
});
