import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStateTable, type PgLockHolder, type PgStateTable } from '../drivers/postgres/state-table.js';
import { redactUrl } from '../drivers/postgres/connect.js';
import { UserError, errorMessage } from '../lib/errors.js';
import { LockError, describeHolder, type LockInfo } from './lock.js';
import { validateState } from './validate.js';
import type { StateFile } from './types.js';
import { batchedJournal } from './batched-journal.js';
import { lineageError, movedError, type HeldLock, type StateStore, type StoreLockOptions, type WriteOptions } from './store.js';

// The state as a row of a PostgreSQL table (one row per key, so several
// robot.yaml files can share a database), written with a compare-and-set on
// serial. The lock is a session advisory lock: when its holder dies, the
// server closes the session and the lock is free at once.

export interface PostgresStoreOptions {
  url: string | null;
  env: NodeJS.ProcessEnv;
  table?: string;
  key?: string;
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
    if (!(await db.write({ lineage: next.lineage, serial: next.serial, doc: next }, row ? row.serial : null))) {
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
    lock: (opts) => guard('lock', () => lock(db, where, opts)),
    holder: (scope = 'state') => guard('read the lock of', async () => holderInfo(await db.holder(scope))),
    breakLock: () => guard('unlock', async () => holderInfo(await db.terminate('state'))),
    close: () => db.close(),
  };
}

async function lock(db: PgStateTable, where: string, opts: StoreLockOptions): Promise<HeldLock> {
  const scope = opts.scope ?? 'state';
  const info: LockInfo = { pid: process.pid, host: hostname(), time: new Date().toISOString(), operation: opts.operation ?? 'apply', token: randomBytes(12).toString('hex') };
  const deadline = Date.now() + Math.max(0, opts.timeoutMs);
  for (;;) {
    const got = await db.tryLock(scope, info);
    if (got) return { info, lost: got.lost, release: got.release };
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
