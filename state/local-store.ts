import { readFile } from 'node:fs/promises';
import { acquireLock, breakLock, readLock } from './lock.js';
import { readState, writeState } from './file.js';
import type { HeldLock, LockScope, StateStore, StoreLockOptions } from './store.js';

// The default backend: `.robotctl/state.json` beside robot.yaml (or --state
// PATH), its lock `<path>.lock`, and the agents' leadership `<path>.leader.lock`.

function lockTarget(path: string, scope: LockScope = 'state'): string {
  return scope === 'leader' ? `${path}.leader` : path;
}

export function localStore(path: string): StateStore {
  const never = new AbortController().signal;
  return {
    kind: 'local',
    where: path,
    read: async () => {
      const exists = await readFile(path).then(() => true, () => false);
      return exists ? readState(path) : null;
    },
    write: (state, w) => writeState(path, state, w?.exact === true),
    lock: async (opts: StoreLockOptions): Promise<HeldLock> => {
      const lock = await acquireLock(lockTarget(path, opts.scope), {
        timeoutMs: opts.timeoutMs, operation: opts.operation ?? 'apply',
        ...(opts.pollMs ? { pollMs: opts.pollMs } : {}), ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.onNote ? { onNote: opts.onNote } : {}),
      });
      return { info: lock.info, lost: never, release: () => lock.release() };
    },
    holder: (scope) => readLock(lockTarget(path, scope)),
    breakLock: () => breakLock(path),
    close: async () => {},
  };
}
