import { readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import { UserError } from '../lib/errors.js';
import { packagePath } from '../lib/paths.js';
import { validator } from '../lib/validators.js';
import { STATE_VERSION, type StateFile } from './types.js';

// A state read from any backend is checked against schema/state-file.schema.json
// (lib/validators.ts). Unknown versions are refused first, with what to do,
// never guessed at (a newer robotctl wrote it).

export const STATE_SCHEMA_FILE = packagePath('schema', 'state-file.schema.json');
const STATE_SCHEMA_ID = 'https://robotctl.dev/schema/state-file.schema.json';

const stateSchema = (): object => JSON.parse(readFileSync(STATE_SCHEMA_FILE, 'utf8')) as object;

export function validateState(data: unknown, path: string): StateFile {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw corrupt(path, 'not a JSON object');
  const version = (data as Record<string, unknown>).version;
  if (version !== STATE_VERSION) {
    throw new UserError(
      `the state file ${path} has version ${JSON.stringify(version)}, but this robotctl reads version ${STATE_VERSION}; ` +
      'upgrade robotctl to the version that wrote it, or move the file away to start afresh',
    );
  }
  const validate = validator(STATE_SCHEMA_ID, stateSchema);
  if (!validate(data)) throw corrupt(path, describe(validate.errors ?? []));
  return data as StateFile;
}

/** True when `state` passes the state's schema (the journal checks a rollouts record with it). */
export function validRollouts(state: StateFile): boolean {
  return validator(STATE_SCHEMA_ID, stateSchema)(state);
}

/** `webhooks.a.id: must be string`: the first problem, as a dotted path. */
function describe(errors: ErrorObject[]): string {
  const e = errors[0];
  if (!e) return 'unknown problem';
  const where = e.instancePath === '' ? 'the top level' : e.instancePath.slice(1).split('/').join('.');
  const extra = e.keyword === 'additionalProperties' ? ` '${String((e.params as { additionalProperty?: unknown }).additionalProperty)}'` : '';
  return `${where}: ${e.message ?? e.keyword}${extra}`;
}

function corrupt(path: string, what: string): UserError {
  return new UserError(`the state file ${path} is damaged (${what}); restore it from a backup or move it away to start afresh`);
}
