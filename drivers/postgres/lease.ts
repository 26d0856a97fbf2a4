import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { connect, type PgTarget } from './connect.js';

// A lock in PostgreSQL is a session advisory lock plus a lease row. The
// advisory lock, on a connection of its own, frees itself when its holder
// dies (the server closes the session). The lease row (`<table>_locks`:
// token, expires_at, renewed every quarter of the lease by that connection)
// covers a holder that is alive but frozen (SIGSTOP, a stalled VM): once its
// lease has expired by the server's clock, a taker ends that holder's session
// (pg_terminate_backend), which frees the advisory lock, and takes it. The
// row's token is the fencing token: a state write checks it in its own
// transaction (state-table.ts), so a holder that lost its lease writes nothing.

export interface LeaseTable {
  /** `<table>_locks` */
  locks: string;
  key: string;
  scope: string;
  /** The advisory lock's two keys. */
  classId: number;
  objId: number;
}

export interface PgLease {
  token: string;
  /** Aborted when the lease is lost: its session closed or ended, the row taken over, a renewal too late. */
  lost: AbortSignal;
  /** End of the lease by this machine's clock (ms since the epoch), as of the last renewal. */
  expires(): number;
  /** What an expired holder whose session was ended wrote about itself, or null when the lock was free. */
  tookOverFrom: { info: unknown; expiredAt: string } | null;
  release(): Promise<void>;
}

const ADVISORY_HELD = `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1::oid AND objid = $2::oid AND objsubid = 2`;

async function tryAdvisory(conn: pg.Client, t: LeaseTable): Promise<boolean> {
  const got = await conn.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [t.classId, t.objId]);
  return got.rows[0]?.ok === true;
}

/** End the session of a holder whose lease expired; returns what it said of itself, or null when there is none. */
async function endExpiredHolder(conn: pg.Client, t: LeaseTable): Promise<{ info: unknown; expiredAt: string } | null> {
  const res = await conn.query<{ info: unknown; expires_at: Date; ended: boolean }>(
    `SELECT k.info, k.expires_at, pg_terminate_backend(k.backend_pid) AS ended FROM ${t.locks} k
      WHERE k.key = $3 AND k.scope = $4 AND k.expires_at < now()
        AND EXISTS (${ADVISORY_HELD} AND pid = k.backend_pid)`,
    [t.classId, t.objId, t.key, t.scope]).catch((err: unknown) => {
    // A role that may not end another's session (42501) waits for that session to close instead.
    if ((err as { code?: string }).code === '42501') return { rows: [] };
    throw err;
  });
  const row = res.rows[0];
  return row?.ended ? { info: row.info, expiredAt: row.expires_at.toISOString() } : null;
}

export async function tryLease(target: PgTarget, t: LeaseTable, info: unknown, ttlMs: number): Promise<PgLease | null> {
  const lost = new AbortController();
  const conn = await connect(target, (err) => lost.abort(err));
  let tookOverFrom: PgLease['tookOverFrom'] = null;
  try {
    let got = await tryAdvisory(conn, t);
    if (!got) {
      tookOverFrom = await endExpiredHolder(conn, t);
      // The ended session lets go of its lock a moment later.
      for (let i = 0; tookOverFrom && !got && i < 50; i++) {
        await sleep(20);
        got = await tryAdvisory(conn, t);
      }
    }
    if (!got) { await conn.end().catch(() => {}); return null; }
  } catch (err) {
    await conn.end().catch(() => {});
    throw err;
  }
  const token = randomBytes(12).toString('hex');
  let expires = Date.now() + ttlMs;
  await conn.query(`INSERT INTO ${t.locks} (key, scope, backend_pid, info, token, expires_at)
      VALUES ($1, $2, pg_backend_pid(), $3::jsonb, $4, now() + $5 * interval '1 millisecond')
    ON CONFLICT (key, scope) DO UPDATE SET backend_pid = EXCLUDED.backend_pid, info = EXCLUDED.info, token = EXCLUDED.token, expires_at = EXCLUDED.expires_at`,
  [t.key, t.scope, JSON.stringify(info), token, ttlMs]);
  let renewing: Promise<void> = Promise.resolve();
  const renew = async (): Promise<void> => {
    const sent = Date.now();
    try {
      const res = await conn.query(`UPDATE ${t.locks} SET expires_at = now() + $4 * interval '1 millisecond' WHERE key = $1 AND scope = $2 AND token = $3`,
        [t.key, t.scope, token, ttlMs]);
      if (res.rowCount === 1) expires = sent + ttlMs;
      else lost.abort(new Error('the lease was taken over'));
    } catch {
      // A failed renewal is tried again next tick; past the expiry the lease is lost.
      if (Date.now() >= expires) lost.abort(new Error('the lease expired before it could be renewed'));
    }
  };
  const timer = setInterval(() => { if (!lost.signal.aborted) renewing = renewing.then(renew); }, Math.max(50, Math.floor(ttlMs / 4)));
  timer.unref();
  lost.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  let released = false;
  return {
    token, lost: lost.signal, expires: () => expires, tookOverFrom,
    release: async () => {
      if (released) return;
      released = true;
      clearInterval(timer);
      await renewing;
      // The row says the lease is over before the session (and its advisory lock) ends.
      if (!lost.signal.aborted) await conn.query(`UPDATE ${t.locks} SET expires_at = now() WHERE key = $1 AND scope = $2 AND token = $3`, [t.key, t.scope, token]).catch(() => {});
      lost.abort(new Error('released'));
      await conn.end().catch(() => {});
    },
  };
}
