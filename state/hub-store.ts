import type { HubClient } from '../drivers/hub/types.js';
import { UserError } from '../lib/errors.js';
import { HubRepo, StaleParent, StaleRead, type RepoSnapshot } from './hub-repo.js';
import { dropLease, parseLease, readLease, takeLease, type LeaseOptions } from './hub-lease.js';
import { parseStateText } from './file.js';
import type { StateFile } from './types.js';
import { batchedJournal } from './batched-journal.js';
import { DEFAULT_LEASE_MS, LEASE_RENEW_FRACTION, lineageError, lockNoun, movedError, type HeldLock, type LockScope, type StateStore, type StoreLockOptions, type WriteOptions } from './store.js';

// The state as a file in a private dataset repo on the hub, so that CI
// runners and laptops share it. Every write is one commit on the head it
// was decided from (parent_commit): when main moved, the state is read
// again; if only a lease moved it is committed again, if the state itself
// changed the write is refused. Writes under a held lease also check that
// the lease is still this holder's (a holder that lost it writes nothing).
// That check is the fencing token: every lease this store holds (the state
// lock, and an agent's leader lock) is read in the same snapshot whose head
// is the write's parent_commit, so a takeover committed after the read makes
// the write fail as stale, and one committed before makes it refused. And
// each request of the commit is sent only while every one of those leases
// keeps its margin (HeldLock.safeUntil), or else while the read is younger
// than that margin (a renewal late under load): a writer paused between its
// read and its commit sends nothing on waking but a new read.

export interface HubStoreOptions {
  hub: HubClient;
  repo: string;
  /** The state file in the repo (default state.json). */
  path?: string;
  /** Lease length (default 10 s); renewed every quarter of it. */
  leaseMs?: number;
}

export { DEFAULT_LEASE_MS } from './store.js';
const MAX_TRIES = 10;
const STALE = Symbol('stale');

export function hubStore(o: HubStoreOptions): StateStore {
  const repo = new HubRepo(o.hub, o.repo);
  const path = o.path ?? 'state.json';
  const where = `hub dataset ${o.repo} (${path})`;
  const leaseMs = o.leaseMs ?? DEFAULT_LEASE_MS;
  const lease = (scope: LockScope = 'state'): LeaseOptions => ({
    repo, path: scope === 'leader' ? `${path}.leader.lock` : `${path}.lock`, ttlMs: leaseMs, noun: lockNoun(scope),
  });
  /** Serial last read or written (0: read and absent); undefined before the first read. */
  let known: number | undefined;
  /** Each lease this store holds, by scope: the write's fence. Kept after a loss (writes refused) until released. */
  const held = new Map<LockScope, HeldLock>();

  const stateOf = (snap: RepoSnapshot | null): StateFile | null => {
    const text = snap?.files.get(path);
    return text === undefined ? null : parseStateText(text, where);
  };

  const write = async (state: StateFile, w: WriteOptions = {}): Promise<StateFile> => {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      // Read and commit as one step among this process's writers (HubRepo.exclusive); another process's commit still makes it stale.
      const written = await repo.exclusive(() => writeOnce(state, w));
      if (written !== STALE) return written;
    }
    throw new UserError(`could not write the state to ${where}: main kept moving during ${MAX_TRIES} tries; run again`);
  };

  /** One try: the state committed on the head it was read at, or STALE when main moved meanwhile. */
  const writeOnce = async (state: StateFile, w: WriteOptions): Promise<StateFile | typeof STALE> => {
    const scopes = [...held.keys()];
    // Read in this turn: the guard counts the read's age from here, not from a wait for the turn.
    const readAt = Date.now();
    const snap = await repo.ensure([path, ...scopes.map((sc) => lease(sc).path)]);
    const stored = stateOf(snap);
    if (stored && stored.lineage !== state.lineage) throw new UserError(lineageError(where, stored.lineage, state.lineage));
    if (!w.exact && known !== undefined && (stored?.serial ?? 0) !== known) throw new UserError(movedError(where, known, stored?.serial ?? 0));
    if (w.exact && stored && stored.serial > state.serial) throw new UserError(`the state in ${where} is newer (serial ${stored.serial} > ${state.serial}); refusing to overwrite it`);
    const lostScope = scopes.find((sc) => parseLease(snap.files.get(lease(sc).path))?.token !== held.get(sc)?.info.token);
    if (lostScope !== undefined) {
      throw new UserError(`the ${lockNoun(lostScope)} on ${where} was taken over by another process (this one's lease expired); nothing was written: run again`);
    }
    const next: StateFile = w.exact ? state : { ...state, serial: Math.max(state.serial, stored?.serial ?? 0) + 1 };
    const guard = (): void => {
      const now = Date.now();
      if (now - readAt < leaseMs / LEASE_RENEW_FRACTION) return;
      if (scopes.every((sc) => (held.get(sc)?.safeUntil() ?? 0) > now)) return;
      throw new StaleRead();
    };
    try {
      await repo.commit(snap.sha, { [path]: `${JSON.stringify(next, null, 2)}\n` }, `robotctl: state serial ${next.serial}`, guard);
    } catch (err) {
      if (err instanceof StaleParent) return STALE;
      // The commit may have landed though its answer was lost.
      if (JSON.stringify(stateOf(await repo.snapshot([path]))) === JSON.stringify(next)) { known = next.serial; return next; }
      throw err;
    }
    known = next.serial;
    return next;
  };

  return {
    kind: 'hub',
    where,
    read: async () => {
      const state = stateOf(await repo.snapshot([path]));
      known = state?.serial ?? 0;
      return state;
    },
    write,
    journal: (base) => batchedJournal(write, base),
    lock: async (opts: StoreLockOptions): Promise<HeldLock> => {
      const scope = opts.scope ?? 'state';
      const lock = await takeLease(lease(scope), opts);
      held.set(scope, lock);
      return {
        ...lock,
        release: async () => {
          if (held.get(scope) === lock) held.delete(scope);
          await lock.release();
        },
      };
    },
    holder: (scope) => readLease(lease(scope)),
    breakLock: () => dropLease(lease(), null),
    close: async () => {},
  };
}
