import type { StateFile } from './types.js';
import type { LockInfo } from './lock.js';
import type { StateJournal } from './journal.js';
import type { CommandLine } from '../lib/command-line.js';

// Where a state lives and who may write it: one interface for the local
// file, a hub dataset repo and a PostgreSQL table. Everything above state/
// (apply, import, the agent, `state show|migrate`) talks to this only.

/** How long a hub or PostgreSQL lock lasts without renewal (robot.yaml `state.lease`). */
export const DEFAULT_LEASE_MS = 10_000;

export type BackendKind = 'local' | 'hub' | 'postgres';

/** Which lock: the state's (one writer at a time) or the agents' leadership. */
export type LockScope = 'state' | 'leader';

export interface StoreLockOptions {
  /** How long to wait for the holder; 0 = fail at once. */
  timeoutMs: number;
  pollMs?: number;
  /** What the holder does: apply, import, agent… */
  operation?: string;
  signal?: AbortSignal;
  scope?: LockScope;
  /** One line for the user when a provably dead holder's lock is broken or taken over. */
  onNote?: (line: string) => void;
  /**
   * Called before each attempt to write the lock (a lease commit, a lock
   * file, a lease row); throws to give up without writing: the fence of a
   * holder of another lock (an agent's leader lock) that may have lost it.
   */
  mayWrite?: () => void;
  /** How the user runs robotctl, for the advice of a local lock to break (lib/command-line.ts). */
  command?: CommandLine;
}

export interface WriteOptions {
  /**
   * Store the state as it is, serial included (`state migrate`): refused when
   * the stored state is of another lineage or has a higher serial.
   */
  exact?: boolean;
}

export interface HeldLock {
  readonly info: LockInfo;
  /** Aborted when the lock is lost (database session closed, lease taken over). */
  readonly lost: AbortSignal;
  /**
   * Until when (ms since the epoch, this machine's clock) a new hub, robot or
   * state write is safe: the lease's end less a margin of a quarter of its
   * length (a renewal is due every quarter). Infinity for a lock that lasts as
   * long as its holder lives (a lock file); 0 once lost.
   */
  safeUntil(): number;
  release(): Promise<void>;
}

/**
 * A lease is renewed every quarter of its length and a write needs a quarter
 * left: a renewal may come half a lease late (a loaded machine, commits that
 * contend) before writes stop.
 */
export const LEASE_RENEW_FRACTION = 4;

/** The lease's end less the margin (a quarter of its length), 0 once lost: HeldLock.safeUntil of a lease. */
export function leaseSafeUntil(expires: number, ttlMs: number, lost: AbortSignal): number {
  return lost.aborted ? 0 : expires - ttlMs / LEASE_RENEW_FRACTION;
}

export interface StateStore {
  readonly kind: BackendKind;
  /** Where, for messages: a path, `hub dataset owner/name (state.json)`, `postgres table … key …`. */
  readonly where: string;
  /** The stored state, or null when none was written yet. */
  read(): Promise<StateFile | null>;
  /**
   * Store `state` with serial + 1 and return what was stored. Refuses a
   * different lineage, and a state another writer changed since this store
   * last read or wrote it.
   */
  write(state: StateFile, opts?: WriteOptions): Promise<StateFile>;
  /**
   * How an apply that holds the state lock records its outcomes, starting
   * from `base` (the state it read under the lock): per action in O(1), the
   * whole state written now and then and at close (see state/README.md).
   */
  journal(base: StateFile): StateJournal;
  lock(opts: StoreLockOptions): Promise<HeldLock>;
  /** Who holds the lock of that scope now, or null. */
  holder(scope?: LockScope): Promise<LockInfo | null>;
  /** `state unlock --force`: break the state lock whoever holds it; returns who did. */
  breakLock(): Promise<LockInfo | null>;
  close(): Promise<void>;
}

/** A lock's name in the one line that says a dead holder's lock was healed. */
export function lockNoun(scope: LockScope = 'state'): string {
  return scope === 'leader' ? "agents' leader lock" : 'state lock';
}

export function lineageError(where: string, stored: string, mine: string): string {
  return `the state in ${where} belongs to another lineage (${stored}, not ${mine}); refusing to overwrite it`;
}

export function movedError(where: string, read: number, now: number): string {
  return `the state in ${where} was changed by another writer since it was read (serial ${read} → ${now}); nothing was overwritten: run again`;
}
