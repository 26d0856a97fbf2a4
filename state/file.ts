import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { atomicWrite } from '../lib/atomic-write.js';
import { UserError, errorMessage } from '../lib/errors.js';
import { STATE_VERSION, type StateFile } from './types.js';
import { validateState } from './validate.js';

// The local state file (by default .robotctl/state.json beside robot.yaml:
// spec.ts), mode 0600, replaced atomically (temp file + fsync + rename +
// fsync of the folder) so a kill at any moment leaves either the old or the
// new file, never half.

export function newState(): StateFile {
  return { version: STATE_VERSION, lineage: randomUUID(), serial: 0, webhooks: {}, robots: {} };
}

/** A missing file is a fresh state with a new lineage; anything unreadable is a UserError. */
export async function readState(path: string): Promise<StateFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return newState();
    throw new UserError(`cannot read the state file ${path}: ${errorMessage(err)}`);
  }
  return parseStateText(text, path);
}

/** Parse and check a state document read from `path` (a file, or where a backend keeps it). */
export function parseStateText(text: string, path: string): StateFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UserError(`the state file ${path} is not valid JSON (${errorMessage(err)}); restore it from a backup or move it away to start afresh (robotctl would then re-adopt identical webhooks)`);
  }
  return validateState(data, path);
}

/**
 * Write `state` with serial + 1 (or as it is, with `exact`) and return what was written. Refuses to
 * overwrite a state of another lineage (a different robot.yaml's record).
 */
export async function writeState(path: string, state: StateFile, exact = false): Promise<StateFile> {
  const onDisk = await readExisting(path);
  if (onDisk && onDisk.lineage !== state.lineage) {
    throw new UserError(`the state file ${path} belongs to another lineage (${onDisk.lineage}, not ${state.lineage}); refusing to overwrite it`);
  }
  if (exact && onDisk && onDisk.serial > state.serial) {
    throw new UserError(`the state file ${path} is newer (serial ${onDisk.serial} > ${state.serial}); refusing to overwrite it`);
  }
  // `exact` (state migrate) keeps the serial; every other write increments it.
  const next: StateFile = exact ? state : { ...state, serial: Math.max(state.serial, onDisk?.serial ?? 0) + 1 };
  return storeState(path, next);
}

/** Replace the file with `next` as it is, with no check: for a writer that holds the lock and knows what is there. */
export async function storeState(path: string, next: StateFile): Promise<StateFile> {
  const text = `${JSON.stringify(next, null, 2)}\n`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await atomicWrite(path, text, 0o600);
  } catch (err) {
    throw new UserError(`cannot write the state file ${path}: ${errorMessage(err)}`);
  }
  return next;
}

async function readExisting(path: string): Promise<StateFile | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return null;
  }
  return parseStateText(text, path);
}
