import fc from 'fast-check';

// Values shaped by a route's JSON Schema, for fuzz tests: the subset of JSON
// Schema the servers' route schemas use (type, properties, required, items,
// min/max items and length, enum, const, format uuid, numeric bounds, anyOf,
// oneOf, if/then/else). `typedValue` mostly obeys the schema; `mutated`
// breaks one place of such a value (a field dropped, replaced or added), which
// is where handlers that trust their input fail.

type Schema = Record<string, unknown>;
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const anyJson = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;

function asSchema(v: unknown): Schema | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Schema) : null;
}

function ofType(type: string, s: Schema, depth: number): fc.Arbitrary<Json> {
  switch (type) {
    case 'null': return fc.constant(null);
    case 'boolean': return fc.boolean();
    case 'integer': return fc.integer({ min: typeof s.minimum === 'number' ? s.minimum : -1e6, max: typeof s.maximum === 'number' ? s.maximum : 1e6 });
    case 'number': {
      const min = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : typeof s.minimum === 'number' ? s.minimum : -1e6;
      const max = typeof s.maximum === 'number' ? s.maximum : 1e6;
      return fc.double({ min, max, minExcluded: typeof s.exclusiveMinimum === 'number', noNaN: true, noDefaultInfinity: true });
    }
    case 'string':
      if (s.format === 'uuid') return fc.uuid();
      return fc.string({ minLength: typeof s.minLength === 'number' ? s.minLength : 0, maxLength: typeof s.maxLength === 'number' ? Math.min(s.maxLength, 40) : 40 });
    case 'array': {
      const items = asSchema(s.items);
      const minLength = typeof s.minItems === 'number' ? s.minItems : 0;
      const maxLength = typeof s.maxItems === 'number' ? s.maxItems : minLength + 4;
      return fc.array(items ? typedValue(items, depth + 1) : anyJson, { minLength, maxLength });
    }
    case 'object': {
      const props = asSchema(s.properties) ?? {};
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, typedValue(asSchema(v) ?? {}, depth + 1)]));
      for (const k of required) model[k] ??= anyJson;
      const requiredKeys = Object.keys(model).filter((k) => required.has(k));
      return fc.record(model, { requiredKeys }) as fc.Arbitrary<Json>;
    }
    default: return anyJson;
  }
}

/** A value that mostly obeys `schema`. */
export function typedValue(schema: Schema, depth = 0): fc.Arbitrary<Json> {
  if (depth > 6) return anyJson;
  if ('const' in schema) return fc.constant(schema.const as Json);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as Json[]));
  const branches = [schema.anyOf, schema.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (branches) return fc.oneof(...branches.map((b) => typedValue({ ...schema, anyOf: undefined, oneOf: undefined, ...asSchema(b) }, depth + 1)));
  const then = asSchema(schema.then);
  const otherwise = asSchema(schema.else);
  if (then || otherwise) {
    const base = { ...schema, if: undefined, then: undefined, else: undefined };
    return fc.oneof(...[then, otherwise].filter((b): b is Schema => b !== null).map((b) => typedValue({ ...base, ...b }, depth + 1)));
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? ofType('object', schema, depth) : anyJson;
  return fc.oneof(...types.map((t) => ofType(t, schema, depth)));
}

/** A typed value with one place broken: a field of some object dropped, replaced by any JSON, or added. */
export function mutated(schema: Schema): fc.Arbitrary<Json> {
  return fc.record({ base: typedValue(schema), pick: fc.nat(), op: fc.constantFrom('drop', 'replace', 'add'), value: anyJson, key: fc.string({ maxLength: 8 }) })
    .map(({ base, pick, op, value, key }) => {
      const objects: { [k: string]: Json }[] = [];
      const walk = (v: Json): void => {
        if (Array.isArray(v)) v.forEach(walk);
        else if (v !== null && typeof v === 'object') { objects.push(v); Object.values(v).forEach(walk); }
      };
      walk(base);
      const target = objects[pick % Math.max(objects.length, 1)];
      if (!target) return value;
      const keys = Object.keys(target);
      const field = keys[pick % Math.max(keys.length, 1)] ?? key;
      if (op === 'drop') delete target[field];
      else target[op === 'add' ? key : field] = value;
      return base;
    });
}
