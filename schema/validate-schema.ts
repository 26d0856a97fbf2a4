import type { ErrorObject } from 'ajv';
import { robotValidator } from './robot-validator.js';
import { didYouMean } from './did-you-mean.js';
import type { Finding, Segment } from './yaml-doc.js';

// ajv against robot.schema.json, its errors turned into findings with
// messages a user can act on.

/** Whether the file's data passes the schema (no findings to build). */
export function schemaValid(data: unknown): boolean {
  return robotValidator()(data);
}

export function schemaFindings(data: unknown): Finding[] {
  const validate = robotValidator();
  if (validate(data)) return [];
  const findings: Finding[] = [];
  for (const e of validate.errors ?? []) {
    const f = toFinding(e, data);
    if (f) findings.push(f);
  }
  return findings;
}

function toPath(pointer: string, data: unknown): Segment[] {
  const path: Segment[] = [];
  let cur: unknown = data;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const index = Array.isArray(cur) ? Number(seg) : NaN;
    path.push(Number.isInteger(index) ? index : seg);
    cur = isRecord(cur) || Array.isArray(cur) ? (cur as Record<string, unknown>)[seg] : undefined;
  }
  return path;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function schemaString(e: ErrorObject, key: string): string | undefined {
  const v: unknown = isRecord(e.parentSchema) ? e.parentSchema[key] : undefined;
  return typeof v === 'string' ? v : undefined;
}

function toFinding(e: ErrorObject, data: unknown): Finding | undefined {
  // url/job_id and source/path exclusivity is checked by rules.ts; propertyNames
  // failures are reported through their inner error, which names the key.
  if (e.keyword === 'oneOf' || e.schemaPath.includes('/oneOf/') || e.keyword === 'propertyNames') return undefined;
  const path = toPath(e.instancePath, data);
  if (e.propertyName !== undefined) {
    return { path: [...path, e.propertyName], at: 'key', message: `name '${e.propertyName}' ${message(e)}` };
  }
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(p.additionalProperty);
      const props = isRecord(e.parentSchema) && isRecord(e.parentSchema.properties) ? Object.keys(e.parentSchema.properties) : [];
      const hint = didYouMean(key, props) || (props.length ? `; expected one of: ${props.join(', ')}` : '');
      return { path: [...path, key], at: 'key', message: `unknown key '${key}'${hint}` };
    }
    case 'required':
      return { path, at: 'key', message: `missing required key '${String(p.missingProperty)}'` };
    case 'uniqueItems': {
      const j = Math.max(Number(p.i), Number(p.j));
      const item: unknown = Array.isArray(e.data) ? e.data[j] : undefined;
      return { path: [...path, j], message: `'${String(item)}' is listed twice` };
    }
    case 'type':
      if (path.length === 0) return { path, message: `the file must be a map of keys starting with \`version: 1\`, got ${describe(e.data)}` };
      return { path, message: `must be ${expected(p.type)}, got ${describe(e.data, path.includes('secret'))}` };
    default:
      return { path, message: schemaString(e, 'errorMessage') ?? message(e) };
  }
}

function message(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'enum': {
      const allowed = Array.isArray(p.allowedValues) ? p.allowedValues.map(String) : [];
      const got = typeof e.data === 'string' ? `, not '${e.data}'${didYouMean(e.data, allowed)}` : `, got ${describe(e.data)}`;
      return `must be one of ${allowed.join(', ')}${got}`;
    }
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'pattern':
      return schemaString(e, 'patternErrorMessage') ?? `must match ${String(p.pattern)}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters long`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters long`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'minItems':
      return p.limit === 1 ? 'must list at least one item' : `must list at least ${String(p.limit)} items`;
    case 'minProperties':
      return p.limit === 1 ? 'must have at least one entry' : `must have at least ${String(p.limit)} entries`;
    default:
      return e.message ?? `fails ${e.keyword}`;
  }
}

const TYPE_NAMES: Record<string, string> = {
  object: 'a map', array: 'a list', string: 'a string', integer: 'an integer',
  number: 'a number', boolean: 'true or false', null: 'null',
};

function expected(type: unknown): string {
  let types = (Array.isArray(type) ? type : String(type).split(',')).map(String);
  // "a map" reads better than "a map or null" for collections that may be left empty.
  if (types.includes('object')) types = types.filter((t) => t !== 'null');
  return types.map((t) => TYPE_NAMES[t] ?? t).join(' or ');
}

/** What the user wrote, by kind; strings, and anything under a secret, are not echoed. */
export function describe(v: unknown, sensitive = false): string {
  if (v === null || v === undefined) return 'an empty value';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a map';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number') return sensitive ? 'a number' : String(v);
  if (typeof v === 'boolean') return sensitive ? 'true or false' : String(v);
  return typeof v;
}
