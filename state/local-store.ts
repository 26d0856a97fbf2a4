import { readFile, rm } from 'node:fs/promises';
import { acquireLock, breakLock, readLock } from './lock.js';
import { readState, storeState, writeState } from './file.js';
import { journalPath, readJournal, replayJournal } from './journal-file.js';
import { localJournal } from './local-journal.js';
import type { StateFile } from './types.js';
import { lockNoun, type HeldLock, type LockScope, type StateStore, type StoreLockOptions } from './store.js';

// The default backend: `.robotctl/state.json` beside robot.yaml (or --state
// PATH), its lock `<path>.lock`, the agents' leadership `<path>.leader.lock`,
// and the journal an apply keeps `<path>.journal`. A read folds a journal a
// killed apply left: in memory without the state lock (plan, diff, show),
// into the file and away with it (apply, import, the agent).

function lockTarget(path: string, scope: LockScope = 'state'): string {
  return scope === 'leader' ? `${path}.leader` : path;
}

export function localStore(path: string): StateStore {
  const never = new AbortController().signal;
  let held = false;

  const read = async (): Promise<StateFile | null> => {
    // The journal first: a fold that runs meanwhile only makes the file newer than it (then it is ignored).
    const journal = await readJournal(journalPath(path));
    const exists = await readFile(path).then(() => true, () => false);
    const state = exists ? await readState(path) : null;
    if (!journal) return state;
    const replayed = replayJournal(state, journal, path, journalPath(path));
    if (!held) return replayed ?? state;
    const folded = replayed ? await storeState(path, { ...replayed, serial: (state?.serial ?? 0) + 1 }) : state;
    await rm(journalPath(path), { force: true });
    return folded;
  };

  return {
    kind: 'local',
    where: path,
    read,
    write: (state, w) => writeState(path, state, w?.exact === true),
    journal: (base) => localJournal(path, base),
    lock: async (opts: StoreLockOptions): Promise<HeldLock> => {
      const lock = await acquireLock(lockTarget(path, opts.scope), {
        timeoutMs: opts.timeoutMs, operation: opts.operation ?? 'apply', noun: lockNoun(opts.scope),
        ...(opts.pollMs ? { pollMs: opts.pollMs } : {}), ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.onNote ? { onNote: opts.onNote } : {}),
        ...(opts.mayWrite ? { mayWrite: opts.mayWrite } : {}), ...(opts.command ? { command: opts.command } : {}),
      });
      // A lock file lasts while its holder lives: no lease to run out.
      const safeUntil = (): number => Infinity;
      if ((opts.scope ?? 'state') !== 'state') return { info: lock.info, lost: never, safeUntil, release: () => lock.release() };
      held = true;
      return { info: lock.info, lost: never, safeUntil, release: async () => { held = false; await lock.release(); } };
    },
    holder: (scope) => readLock(lockTarget(path, scope)),
    breakLock: () => breakLock(path),
    close: async () => {},
  };
}
