import type pg from 'pg';
import { connect, type PgTarget } from './connect.js';

// The state in a PostgreSQL table: one row per key (lineage, serial, the
// document as jsonb), written with a compare-and-set on serial. Locks are
// session advisory locks, each on a connection of its own: the server
// releases them when that connection dies (a killed holder heals at once).
// Who holds a lock is read from pg_locks, with the holder's own description
// from a side table written when it took the lock.

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

export interface PgLock {
  /** Aborted when the connection holding the lock is lost. */
  lost: AbortSignal;
  release(): Promise<void>;
}

export interface PgStateTable {
  read(): Promise<StoredRow | null>;
  /** Insert (expectSerial null) or replace the row at expectSerial; false when the row is not as expected. */
  write(row: StoredRow, expectSerial: number | null): Promise<boolean>;
  /** Take the lock named `scope` now, or null when someone holds it. */
  tryLock(scope: string, info: unknown): Promise<PgLock | null>;
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
  const held = new Set<pg.Client>();

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
    write: async (row, expectSerial) => {
      const doc = JSON.stringify(row.doc);
      const res = expectSerial === null
        ? await (await db()).query(`INSERT INTO ${table} (key, lineage, serial, doc) VALUES ($1, $2, $3, $4::jsonb) ON CONFLICT (key) DO NOTHING`, [key, row.lineage, row.serial, doc])
        : await (await db()).query(`UPDATE ${table} SET lineage = $2, serial = $3, doc = $4::jsonb, updated_at = now() WHERE key = $1 AND serial = $5`, [key, row.lineage, row.serial, doc, expectSerial]);
      return res.rowCount === 1;
    },
    tryLock: async (scope, info) => {
      const lost = new AbortController();
      const conn = await connect(target, (err) => lost.abort(err));
      const got = await conn.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [LOCK_CLASS, lockKey(table, key, scope)]);
      if (!got.rows[0]?.ok) { await conn.end().catch(() => {}); return null; }
      await conn.query(`INSERT INTO ${locks} (key, scope, backend_pid, info) VALUES ($1, $2, pg_backend_pid(), $3::jsonb)
        ON CONFLICT (key, scope) DO UPDATE SET backend_pid = EXCLUDED.backend_pid, info = EXCLUDED.info`, [key, scope, JSON.stringify(info)]);
      held.add(conn);
      return {
        lost: lost.signal,
        release: async () => {
          if (!held.delete(conn)) return;
          // Ending the session releases its advisory locks.
          lost.abort(new Error('released'));
          await conn.end().catch(() => {});
        },
      };
    },
    holder,
    terminate: async (scope) => {
      const who = await holder(scope);
      if (who) await (await db()).query('SELECT pg_terminate_backend($1)', [who.backendPid]);
      return who;
    },
    close: async () => {
      await Promise.all([...held].map((c) => c.end().catch(() => {})));
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
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => {});
    throw err;
  }
}
