import { resolve } from 'node:path';
import type { Io } from '../../lib/io.js';
import { openStore } from '../../state/open.js';
import { readHubEndpoint, readStateBlock } from '../../schema/top-level.js';
import { resolveBackend } from '../../state/spec.js';
import type { StateStore } from '../../state/store.js';
import { commandLine } from '../views/command-line.js';

// The state backend of a command: --state, else ROBOTCTL_STATE, else the
// `state:` block of robot.yaml, else .robotctl/state.json beside it.

export interface StateFlags {
  file: string;
  state?: string | undefined;
  token?: string | undefined;
}

/**
 * `stateBlock`: robot.yaml's `state:` block as schema/ read it (a loaded
 * Config's stateBlock, or schema/top-level.ts's readStateBlock), asked for
 * only when neither --state nor ROBOTCTL_STATE names the backend.
 */
export function openStateOf(io: Io, o: StateFlags, hubEndpoint: string | null, stateBlock: () => Record<string, unknown> | null): Promise<StateStore> {
  const spec = resolveBackend({ configFile: resolve(io.cwd, o.file), cwd: io.cwd, env: io.env, flag: o.state ?? null, block: stateBlock });
  return openStore(spec, { env: io.env, hubEndpoint, token: o.token, command: commandLine(io) });
}

/** Where a healed lock's one line goes: stderr, so --json output stays clean. */
export function noteTo(io: Io): (line: string) => void {
  return (line) => io.err(`${line}\n`);
}

/**
 * The state of robot.yaml `o.file`, its backend found from --state,
 * ROBOTCTL_STATE or the file's `state:` block read on its own (the rest of
 * the file is not loaded, so a broken file or a missing ${VAR} elsewhere
 * never blocks it): `work` runs on it, then it is closed.
 */
export async function withFileState<T>(io: Io, o: StateFlags, work: (store: StateStore) => Promise<T>): Promise<T> {
  const file = resolve(io.cwd, o.file);
  const store = await openStateOf(io, o, readHubEndpoint(file), () => readStateBlock(file, io.env));
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
