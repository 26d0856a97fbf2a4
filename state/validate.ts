import { UserError } from '../lib/errors.js';
import { STATE_VERSION, type StateFile } from './types.js';

// Shape check of a state file read from disk. Unknown versions are refused
// with what to do, never guessed at (a newer robotctl wrote it).

export function validateState(data: unknown, path: string): StateFile {
  if (!isObject(data)) throw corrupt(path, 'not a JSON object');
  if (data.version !== STATE_VERSION) {
    throw new UserError(
      `the state file ${path} has version ${JSON.stringify(data.version)}, but this robotctl reads version ${STATE_VERSION}; ` +
      'upgrade robotctl to the version that wrote it, or move the file away to start afresh',
    );
  }
  if (typeof data.lineage !== 'string' || data.lineage === '') throw corrupt(path, 'lineage is missing');
  if (!Number.isInteger(data.serial) || (data.serial as number) < 0) throw corrupt(path, 'serial is not a non-negative integer');
  if (!isObject(data.webhooks)) throw corrupt(path, 'webhooks is not an object');
  for (const [name, rec] of Object.entries(data.webhooks)) {
    if (!isObject(rec) || typeof rec.id !== 'string' || typeof rec.specHash !== 'string') throw corrupt(path, `webhooks.${name} needs id and specHash`);
  }
  if (!isObject(data.robots)) throw corrupt(path, 'robots is not an object');
  for (const [name, robot] of Object.entries(data.robots)) {
    if (!isObject(robot) || !isObject(robot.apps)) throw corrupt(path, `robots.${name}.apps is not an object`);
    for (const [app, rec] of Object.entries(robot.apps)) {
      if (!isObject(rec) || !nullableString(rec.source) || !nullableString(rec.path) || !nullableString(rec.sha)) {
        throw corrupt(path, `robots.${name}.apps.${app} needs source, path and sha (string or null)`);
      }
    }
  }
  return data as unknown as StateFile;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function nullableString(v: unknown): boolean {
  return v === null || typeof v === 'string';
}

function corrupt(path: string, what: string): UserError {
  return new UserError(`the state file ${path} is damaged (${what}); restore it from a backup or move it away to start afresh`);
}
