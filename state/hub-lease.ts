import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeHolder, isStale, LockError, type LockInfo } from './lock.js';
import { StaleParent, StaleRead, type HubRepo } from './hub-repo.js';
import { LEASE_RENEW_FRACTION, leaseSafeUntil, type HeldLock, type StoreLockOptions } from './store.js';

// A lock in a hub repo is a lease: a file naming the holder (pid, host,
// operation) and when the lease ends. It is taken and renewed with
// parent_commit, so of two takers exactly one wins; it is renewed every
// quarter of its length while held and taken over once it has expired (or at
// once when its holder is a dead process of this host). A holder that finds
// the lease no longer its own has lost it: `lost` aborts. A holder's own
// commits (renewal, release) are fenced by what they were decided from: each
// request is sent only while the lease, as read, keeps its margin, or while
// the read is fresh (see `holderGuard`), so a holder paused after its read
// sends nothing on waking but a new read. Release deletes the file when a
// read of its own shows it still this holder's, also once it expired
// unrenewed (nobody took it), fenced by that read as a renewal is; its
// parent_commit makes it stale if someone took the lease since. Every step
// (take, renew, release) reads and commits in this process's turn on the
// repo (HubRepo.exclusive).

export interface Lease extends LockInfo {
  /** ISO time after which anyone may take the lease over. */
  expires: string;
}

export interface LeaseOptions {
  repo: HubRepo;
  /** The lease file in the repo. */
  path: string;
  ttlMs: number;
  now?: () => number;
  /** What the lease is, for the takeover note (default `state lock`). */
  noun?: string;
}

export function parseLease(text: string | undefined): Lease | null {
  if (text === undefined) return null;
  try {
    const v = JSON.parse(text) as Partial<Lease> | null;
    if (!v || typeof v.pid !== 'number' || typeof v.host !== 'string' || typeof v.expires !== 'string') return null;
    return { pid: v.pid, host: v.host, time: String(v.time ?? '?'), operation: String(v.operation ?? '?'), token: String(v.token ?? ''), expires: v.expires };
  } catch {
    return null;
  }
}

export async function readLease(o: LeaseOptions): Promise<Lease | null> {
  const snap = await o.repo.snapshot([o.path]);
  return parseLease(snap?.files.get(o.path));
}

export async function takeLease(o: LeaseOptions, opts: StoreLockOptions): Promise<HeldLock> {
  const now = o.now ?? Date.now;
  const info: LockInfo = {
    pid: process.pid, host: hostname(), time: new Date(now()).toISOString(), operation: opts.operation ?? 'apply', token: randomBytes(12).toString('hex'),
  };
  const deadline = now() + Math.max(0, opts.timeoutMs);
  for (;;) {
    // Read and commit as one step among this process's writers (HubRepo.exclusive).
    const step = await o.repo.exclusive(async (): Promise<{ taken: Lease } | { current: Lease } | 'stale'> => {
      const snap = await o.repo.ensure([o.path]);
      const current = parseLease(snap.files.get(o.path));
      const expired = current !== null && Date.parse(current.expires) <= now();
      if (current !== null && !expired && !isStale(current)) return { current };
      opts.mayWrite?.();
      const lease: Lease = { ...info, expires: new Date(now() + o.ttlMs).toISOString() };
      try {
        // mayWrite again before each request (the preupload, then the commit): a pause may fall between them.
        await o.repo.commit(snap.sha, { [o.path]: JSON.stringify(lease) }, `robotctl: lock (${lease.operation}, pid ${lease.pid} on ${lease.host})`, opts.mayWrite);
      } catch (err) {
        if (err instanceof StaleParent) return 'stale';
        throw err;
      }
      if (current) opts.onNote?.(takeOverNote(current, expired, o.noun ?? 'state lock'));
      return { taken: lease };
    });
    if (step === 'stale') continue;
    if ('taken' in step) return hold(o, step.taken);
    const { current } = step;
    if (now() >= deadline || opts.signal?.aborted) {
      throw new LockError(`${describeHolder(current)}, lease until ${current.expires}; gave up after ${Math.round(opts.timeoutMs / 100) / 10}s: try again later or raise --lock-timeout`, current, false);
    }
    await sleep(Math.min(opts.pollMs ?? 1000, Math.max(1, deadline - now())));
  }
}

function takeOverNote(old: Lease, expired: boolean, noun: string): string {
  const why = expired ? `its lease expired at ${old.expires}` : 'that process no longer runs';
  return `Took over the ${noun} of pid ${old.pid} on host ${old.host} (${old.operation} since ${old.time}): ${why}.`;
}

function hold(o: LeaseOptions, lease: Lease): HeldLock {
  const now = o.now ?? Date.now;
  const lost = new AbortController();
  let expires = Date.parse(lease.expires);
  let renewing: Promise<void> | null = null;
  const renew = async (): Promise<void> => {
    // Main moves under every commit of this process too (the state, its other
    // lease): a stale parent is read again at once, not left to the next tick,
    // and again while the lease lasts (then five more times, a late renewal).
    for (let attempt = 0; attempt < 5 || now() < expires; attempt++) {
      try {
        await o.repo.exclusive(async () => {
          // Read in this turn: the guard counts the read's age from here, not from a wait for the turn.
          const readAt = now();
          const snap = await o.repo.ensure([o.path]);
          const current = parseLease(snap.files.get(o.path));
          if (current?.token !== lease.token) { lost.abort(new Error('the lease was taken over')); return; }
          const sent = now();
          const next: Lease = { ...lease, expires: new Date(sent + o.ttlMs).toISOString() };
          await o.repo.commit(snap.sha, { [o.path]: JSON.stringify(next) }, `robotctl: renew lock (pid ${lease.pid} on ${lease.host})`, holderGuard(o, readAt, current));
          expires = sent + o.ttlMs;
        });
        return;
      } catch (err) {
        if (!(err instanceof StaleParent)) break;
      }
    }
    // A failed renewal is tried again next tick; past the expiry the lease is lost.
    if (now() >= expires) lost.abort(new Error('the lease expired before it could be renewed'));
  };
  // One renewal at a time: a tick that finds one still running (a loaded
  // machine, commits that contend) is skipped. Queued, late renewals came in
  // a burst of commits that made each other, and the state's, stale.
  const timer = setInterval(() => {
    if (lost.signal.aborted || renewing) return;
    renewing = renew().finally(() => { renewing = null; });
  }, Math.max(50, Math.floor(o.ttlMs / LEASE_RENEW_FRACTION)));
  timer.unref();
  return {
    info: lease,
    lost: lost.signal,
    safeUntil: () => leaseSafeUntil(expires, o.ttlMs, lost.signal),
    release: async () => {
      clearInterval(timer);
      await renewing;
      // Lost or not: dropLease deletes the file only if a fresh read shows it
      // still this holder's (one taken over is left alone). A lease that
      // expired before a renewal could land, and that nobody took, is still
      // this holder's file: left behind, the next taker would report taking
      // over from a holder that had finished.
      const drop = dropLease(o, lease.token);
      // A holder that knows it lost the lease (the hub unreachable, say) fails no caller for the cleanup.
      await (lost.signal.aborted ? drop.catch(() => null) : drop);
      lost.abort(new Error('released'));
    },
  };
}

/**
 * The fence of a holder's commit on its own lease (`mine`, as read at
 * `readAt`), asked before each request: sent while the lease as read keeps
 * its margin (nobody may take it before it expires), or else while the read
 * is fresh, younger than that margin (a late renewal under load: a lease that
 * expired but that nobody took is still renewed). Otherwise StaleRead and
 * nothing is sent: this process was paused after it read (or while the read
 * was in flight), the lease may have been taken over meanwhile, and what it
 * decided from is read again.
 */
function holderGuard(o: LeaseOptions, readAt: number, mine: Lease): () => void {
  const now = o.now ?? Date.now;
  const margin = o.ttlMs / LEASE_RENEW_FRACTION;
  const safeUntil = Date.parse(mine.expires) - margin;
  return () => {
    const t = now();
    if (t < safeUntil || t - readAt < margin) return;
    throw new StaleRead();
  };
}

/** Delete the lease file if it is still `token`'s (or anyone's when token is null); returns who held it. */
export async function dropLease(o: LeaseOptions, token: string | null): Promise<Lease | null> {
  const now = o.now ?? Date.now;
  for (let attempt = 0; attempt < 10; attempt++) {
    const dropped = await o.repo.exclusive(async (): Promise<{ holder: Lease | null } | 'stale'> => {
      const readAt = now();
      const snap = await o.repo.snapshot([o.path]);
      const current = parseLease(snap?.files.get(o.path));
      if (!snap || !current || (token !== null && current.token !== token)) return { holder: token === null ? current : null };
      try {
        // A holder's release is fenced as its renewals are; `state unlock --force` (no token) is a person's decision.
        await o.repo.commit(snap.sha, { [o.path]: null }, `robotctl: unlock (pid ${current.pid} on ${current.host})`, token === null ? undefined : holderGuard(o, readAt, current));
        return { holder: current };
      } catch (err) {
        if (err instanceof StaleParent) return 'stale';
        throw err;
      }
    });
    if (dropped !== 'stale') return dropped.holder;
  }
  return null;
}
