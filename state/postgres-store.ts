import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStateTable, type PgLockHolder, type PgStateTable } from '../drivers/postgres/state-table.js';
import { redactUrl } from '../drivers/postgres/connect.js';
import { UserError, errorMessage } from '../lib/errors.js';
import { LockError, describeHolder, type LockInfo } from './lock.js';
import { validateState } from './validate.js';
import type { StateFile } from './types.js';
import { batchedJournal } from './batched-journal.js';
import { DEFAULT_LEASE_MS, leaseSafeUntil, lineageError, lockNoun, movedError, type HeldLock, type LockScope, type StateStore, type StoreLockOptions, type WriteOptions } from './store.js';

// The state as a row of a PostgreSQL table (one row per key, so several
// robot.yaml files can share a database), written with a compare-and-set on
// serial. The lock is a session advisory lock with a lease: when its holder
// dies, the server closes the session and the lock is free at once; when its
// holder is frozen past its lease, the next taker ends that session and takes
// over. Every write carries the tokens of the leases this store holds (the
// state lock, an agent's leader lock) and is refused once one was lost.

export interface PostgresStoreOptions {
  url: string | null;
  env: NodeJS.ProcessEnv;
  table?: string;
  key?: string;
  /** Lease length (default 10 s); renewed every quarter of it. */
  leaseMs?: number;
}

export async function postgresStore(o: PostgresStoreOptions): Promise<StateStore> {
  const table = o.table ?? 'robotctl_state';
  const key = o.key ?? 'default';
  const server = o.url ? redactUrl(o.url) : `${o.env.PGHOST ?? 'localhost'}:${o.env.PGPORT ?? '5432'} (PG* environment)`;
  const where = `postgres ${server} table ${table} key ${key}`;
  let db: PgStateTable;
  try {
    db = await openStateTable({ url: o.url, env: o.env, applicationName: `robotctl pid ${process.pid} on ${hostname()}`.slice(0, 63) }, table, key);
  } catch (err) {
    throw new UserError(`cannot open the state in ${where}: ${errorMessage(err)}`);
  }
  let known: number | undefined;
  /** The token of each lease this store holds, by scope: the write's fence. Kept after a loss (writes refused) until released. */
  const held = new Map<LockScope, string>();
  const ttlMs = o.leaseMs ?? DEFAULT_LEASE_MS;
  const guard = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof UserError) throw err;
      throw new UserError(`cannot ${what} the state in ${where}: ${errorMessage(err)}`);
    }
  };

  const read = (): Promise<StateFile | null> => guard('read', async () => {
    const row = await db.read();
    known = row?.serial ?? 0;
    return row ? validateState(row.doc, where) : null;
  });

  const write = (state: StateFile, w: WriteOptions = {}): Promise<StateFile> => guard('write', async () => {
    const row = await db.read();
    if (row && row.lineage !== state.lineage) throw new UserError(lineageError(where, row.lineage, state.lineage));
    if (!w.exact && known !== undefined && (row?.serial ?? 0) !== known) throw new UserError(movedError(where, known, row?.serial ?? 0));
    if (w.exact && row && row.serial > state.serial) throw new UserError(`the state in ${where} is newer (serial ${row.serial} > ${state.serial}); refusing to overwrite it`);
    const next: StateFile = w.exact ? state : { ...state, serial: Math.max(state.serial, row?.serial ?? 0) + 1 };
    const fences = [...held].map(([scope, token]) => ({ scope, token }));
    const outcome = await db.write({ lineage: next.lineage, serial: next.serial, doc: next }, row ? row.serial : null, fences);
    if (outcome === 'fenced') {
      throw new UserError(`a lock this process held on ${where} was lost (its lease expired or was taken over); nothing was written: run again`);
    }
    if (outcome === 'moved') {
      const now = await db.read();
      throw new UserError(movedError(where, row?.serial ?? 0, now?.serial ?? 0));
    }
    known = next.serial;
    return next;
  });

  return {
    kind: 'postgres',
    where,
    read,
    write,
    journal: (base) => batchedJournal(write, base),
    lock: (opts) => guard('lock', async () => {
      const scope = opts.scope ?? 'state';
      const got = await lock(db, where, opts, ttlMs);
      held.set(scope, got.info.token);
      return { ...got, release: async () => { if (held.get(scope) === got.info.token) held.delete(scope); await got.release(); } };
    }),
    holder: (scope = 'state') => guard('read the lock of', async () => holderInfo(await db.holder(scope))),
    breakLock: () => guard('unlock', async () => holderInfo(await db.terminate('state'))),
    close: () => db.close(),
  };
}

async function lock(db: PgStateTable, where: string, opts: StoreLockOptions, ttlMs: number): Promise<HeldLock> {
  const scope = opts.scope ?? 'state';
  const deadline = Date.now() + Math.max(0, opts.timeoutMs);
  for (;;) {
    const info: LockInfo = { pid: process.pid, host: hostname(), time: new Date().toISOString(), operation: opts.operation ?? 'apply', token: '' };
    opts.mayWrite?.();
    const got = await db.tryLock(scope, info, ttlMs);
    if (got) {
      const was = got.tookOverFrom ? holderInfo({ info: got.tookOverFrom.info, backendPid: 0, applicationName: '', since: '?' }) : null;
      if (was && got.tookOverFrom) opts.onNote?.(`Took over the ${lockNoun(scope)} of pid ${was.pid} on host ${was.host} (${was.operation} since ${was.time}): its lease expired at ${got.tookOverFrom.expiredAt}.`);
      return { info: { ...info, token: got.token }, lost: got.lost, safeUntil: () => leaseSafeUntil(got.expires(), ttlMs, got.lost), release: got.release };
    }
    if (Date.now() >= deadline || opts.signal?.aborted) {
      const who = holderInfo(await db.holder(scope));
      const what = who ? describeHolder(who) : `state in ${where} is locked by a session that has since ended`;
      throw new LockError(`${what}; gave up after ${Math.round(opts.timeoutMs / 100) / 10}s: try again later or raise --lock-timeout`, who, false);
    }
    await sleep(Math.min(opts.pollMs ?? 500, Math.max(1, deadline - Date.now())));
  }
}

function holderInfo(h: PgLockHolder | null): LockInfo | null {
  if (!h) return null;
  const i = (h.info ?? {}) as Partial<LockInfo>;
  if (typeof i.pid === 'number' && typeof i.host === 'string') {
    return { pid: i.pid, host: i.host, time: String(i.time ?? h.since), operation: String(i.operation ?? '?'), token: String(i.token ?? '') };
  }
  return { pid: h.backendPid, host: `postgres session (${h.applicationName || 'no application name'})`, time: h.since, operation: '?', token: '' };
}
