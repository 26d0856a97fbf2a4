import type pg from 'pg';
import { connect, type PgTarget } from './connect.js';
import { tryLease, type PgLease } from './lease.js';

// The state in a PostgreSQL table: one row per key (lineage, serial, the
// document as jsonb), written with a compare-and-set on serial. Locks are
// session advisory locks, each on a connection of its own, with a lease row
// renewed by that connection (lease.ts): the server releases a lock when its
// holder dies (a killed holder heals at once), and a holder whose lease
// expired (frozen) has its session ended by the next taker. A write carries
// the tokens of the leases its writer holds and is refused, in the same
// transaction, unless each is still current (the fencing token).
// Who holds a lock is read from pg_locks, with the holder's own description
// from the lease row written when it took the lock.

export interface StoredRow {
  lineage: string;
  serial: number;
  doc: unknown;
}

export interface PgLockHolder {
  /** What the holder wrote about itself when it took the lock (null if it did not). */
  info: unknown;
  backendPid: number;
  applicationName: string;
  since: string;
}

/** A lease a write must still hold: its scope and token. */
export interface Fence {
  scope: string;
  token: string;
}

export type WriteOutcome = 'written' | 'moved' | 'fenced';

export interface PgStateTable {
  read(): Promise<StoredRow | null>;
  /**
   * Insert (expectSerial null) or replace the row at expectSerial, only while
   * every fence's lease is current: `moved` when the row is not as expected,
   * `fenced` when a lease was lost (nothing written either way).
   */
  write(row: StoredRow, expectSerial: number | null, fences: Fence[]): Promise<WriteOutcome>;
  /** Take the lock named `scope` now (a lease of ttlMs), or null when a live holder has it. */
  tryLock(scope: string, info: unknown, ttlMs: number): Promise<PgLease | null>;
  holder(scope: string): Promise<PgLockHolder | null>;
  /** End the holder's session (the server then drops its lock); returns who it was. */
  terminate(scope: string): Promise<PgLockHolder | null>;
  close(): Promise<void>;
}

const IDENT = /^[a-z_][a-z0-9_]{0,50}$/;
const LOCK_CLASS = 0x524f4254; // "ROBT": our advisory locks' first key

/** A stable 31-bit key for (table, key, scope): the advisory lock's second key. */
export function lockKey(table: string, key: string, scope: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${table}\0${key}\0${scope}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return (h >>> 1) & 0x7fffffff;
}

export function checkTableName(table: string): string | null {
  return IDENT.test(table) ? null : 'must be lower-case letters, digits and _ (at most 51), starting with a letter or _';
}

export async function openStateTable(target: PgTarget, table: string, key: string): Promise<PgStateTable> {
  if (checkTableName(table)) throw new Error(`table ${table}: ${checkTableName(table)}`);
  const locks = `${table}_locks`;
  let client: pg.Client | null = await connect(target, () => { client = null; });
  const db = async (): Promise<pg.Client> => (client ??= await connect(target, () => { client = null; }));
  await ensureTables(await db(), table, locks);
  const held = new Set<PgLease>();

  const holder = async (scope: string): Promise<PgLockHolder | null> => {
    const res = await (await db()).query<{ pid: number; application_name: string | null; backend_start: Date | null; info: unknown }>(
      `SELECT a.pid, a.application_name, a.backend_start, k.info FROM pg_locks l
         JOIN pg_stat_activity a ON a.pid = l.pid
         LEFT JOIN ${locks} k ON k.key = $3 AND k.scope = $4 AND k.backend_pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1::oid AND l.objid = $2::oid AND l.objsubid = 2`,
      [LOCK_CLASS, lockKey(table, key, scope), key, scope]);
    const row = res.rows[0];
    if (!row) return null;
    return { info: row.info ?? null, backendPid: row.pid, applicationName: row.application_name ?? '', since: row.backend_start?.toISOString() ?? '?' };
  };

  return {
    read: async () => {
      const res = await (await db()).query<{ lineage: string; serial: string; doc: unknown }>(`SELECT lineage, serial, doc FROM ${table} WHERE key = $1`, [key]);
      const row = res.rows[0];
      return row ? { lineage: row.lineage, serial: Number(row.serial), doc: row.doc } : null;
    },
    write: async (row, expectSerial, fences) => fencedWrite(await db(), { table, locks, key }, row, expectSerial, fences),
    tryLock: async (scope, info, ttlMs) => {
      const lease = await tryLease(target, { locks, key, scope, classId: LOCK_CLASS, objId: lockKey(table, key, scope) }, info, ttlMs);
      if (!lease) return null;
      held.add(lease);
      return { ...lease, release: async () => { held.delete(lease); await lease.release(); } };
    },
    holder,
    terminate: async (scope) => {
      const who = await holder(scope);
      if (who) await (await db()).query('SELECT pg_terminate_backend($1)', [who.backendPid]);
      return who;
    },
    close: async () => {
      await Promise.all([...held].map((l) => l.release()));
      held.clear();
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

async function ensureTables(c: pg.Client, table: string, locks: string): Promise<void> {
  // Two first users may create at once: serialise on a transaction lock.
  await c.query('BEGIN');
  try {
    await c.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK_CLASS]);
    await c.query(`CREATE TABLE IF NOT EXISTS ${table} (key text PRIMARY KEY, lineage text NOT NULL, serial bigint NOT NULL, doc jsonb NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`);
    await c.query(`CREATE TABLE IF NOT EXISTS ${locks} (key text NOT NULL, scope text NOT NULL, backend_pid integer NOT NULL, info jsonb NOT NULL, PRIMARY KEY (key, scope))`);
    // The lease (lease.ts), added to tables made before it.
    await c.query(`ALTER TABLE ${locks} ADD COLUMN IF NOT EXISTS token text, ADD COLUMN IF NOT EXISTS expires_at timestamptz`);
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/** The write in one transaction: each fence's lease row read FOR SHARE (a takeover waits for this write, or this write sees the takeover), then the compare-and-set. */
async function fencedWrite(c: pg.Client, t: { table: string; locks: string; key: string }, row: StoredRow, expectSerial: number | null, fences: Fence[]): Promise<WriteOutcome> {
  const doc = JSON.stringify(row.doc);
  await c.query('BEGIN');
  try {
    for (const f of fences) {
      const res = await c.query<{ live: boolean }>(`SELECT token = $3 AND expires_at > now() AS live FROM ${t.locks} WHERE key = $1 AND scope = $2 FOR SHARE`, [t.key, f.scope, f.token]);
      if (res.rows[0]?.live !== true) { await c.query('ROLLBACK'); return 'fenced'; }
    }
    const res = expectSerial === null
      ? await c.query(`INSERT INTO ${t.table} (key, lineage, serial, doc) VALUES ($1, $2, $3, $4::jsonb) ON CONFLICT (key) DO NOTHING`, [t.key, row.lineage, row.serial, doc])
      : await c.query(`UPDATE ${t.table} SET lineage = $2, serial = $3, doc = $4::jsonb, updated_at = now() WHERE key = $1 AND serial = $5`, [t.key, row.lineage, row.serial, doc, expectSerial]);
    await c.query('COMMIT');
    return res.rowCount === 1 ? 'written' : 'moved';
  } catch (err) {
    await c.query('ROLLBACK').catch(() => {});
    throw err;
  }
}
