import type { Io } from '../../lib/io.js';
import type { StateFile } from '../../state/types.js';
import type { ViewType } from './view-type.js';
import type { LockInfo } from '../../state/lock.js';
import { describeHolder } from '../../state/lock.js';
import { indent } from './format.js';
import { formatTable } from './table.js';

// `robotctl state show`. The state holds no secret (only hashes); the lock's
// token is an internal detail and is not shown.

export const STATE_FORMAT_VERSION = '1.0';

export interface StateView {
  show(path: string, exists: boolean, state: StateFile, lock: LockInfo | null): void;
}

export function newStateView(type: ViewType, io: Io): StateView {
  if (type === 'json') return { show: (...a) => io.out(stateJson(...a)) };
  return { show: (...a) => io.out(renderState(...a)) };
}

export function renderState(path: string, exists: boolean, state: StateFile, lock: LockInfo | null): string {
  const lines: string[] = [];
  if (!exists) lines.push(`No state at ${path} yet: nothing has been applied with this file.`);
  else {
    lines.push(`State: ${path} (lineage ${state.lineage}, serial ${state.serial})`, '', 'Webhooks owned:');
    const hooks = Object.entries(state.webhooks).map(([name, w]) => [name, w.id, `${w.specHash.slice(0, 12)}…`]);
    lines.push(hooks.length === 0 ? '  (none)' : indent(formatTable(['NAME', 'ID', 'SPEC HASH'], hooks).text));
    lines.push('', 'Apps installed by this file:');
    const apps = Object.entries(state.robots).flatMap(([robot, r]) =>
      Object.entries(r.apps).map(([app, a]) => [robot, app, a.source ?? a.path ?? '-', a.sha ?? '-']));
    lines.push(apps.length === 0 ? '  (none)' : indent(formatTable(['ROBOT', 'APP', 'FROM', 'SHA'], apps).text));
  }
  lines.push('', lock ? `Lock: ${describeHolder(lock)}` : 'Lock: not locked');
  return `${lines.join('\n')}\n`;
}

/** `path` is where the state is (a file path, or the hub dataset / PostgreSQL table); `backend` says which. */
export function stateJson(path: string, exists: boolean, state: StateFile, lock: LockInfo | null, backend = 'local'): string {
  const holder = lock ? { pid: lock.pid, host: lock.host, time: lock.time, operation: lock.operation } : null;
  return `${JSON.stringify({ format_version: STATE_FORMAT_VERSION, backend, path, exists, state: exists ? state : null, lock: holder }, null, 2)}\n`;
}
