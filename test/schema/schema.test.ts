import t from 'tap';
import { Ajv } from 'ajv';
import { robotSchema } from '../../schema/schema-file.js';

// The schema is also what editors read: it must be a valid draft-07 schema
// with an $id, and every field must carry a description.

t.test('the schema compiles and has an $id', async (t) => {
  const schema = robotSchema();
  t.match(schema.$id, /^https:\/\/.+\/robot\.schema\.json$/);
  t.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
  const ajv = new Ajv({ strict: false });
  t.ok(ajv.validateSchema(schema), 'valid against the draft-07 meta-schema');
});

function undescribed(node: unknown, path: string, out: string[]): string[] {
  if (typeof node !== 'object' || node === null) return out;
  const n = node as Record<string, unknown>;
  for (const [key, value] of Object.entries((n.properties as Record<string, unknown> | undefined) ?? {})) {
    const v = value as Record<string, unknown>;
    if (typeof v.description !== 'string' && typeof v.$ref !== 'string') out.push(`${path}.${key}`);
    undescribed(v, `${path}.${key}`, out);
  }
  for (const [key, value] of Object.entries((n.definitions as Record<string, unknown> | undefined) ?? {})) {
    if (typeof (value as Record<string, unknown>).description !== 'string') out.push(`#/definitions/${key}`);
    undescribed(value, `#/definitions/${key}`, out);
  }
  return out;
}

t.test('every property and definition has a description', async (t) => {
  t.strictSame(undescribed(robotSchema(), '', []), []);
});
