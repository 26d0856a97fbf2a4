import pg from 'pg';

// Connections to PostgreSQL from `url:` or the libpq environment (PGHOST,
// PGPORT, PGUSER, PGPASSWORD, PGDATABASE), taken from the given environment
// rather than this process's, so that a test or an embedding can point one
// robotctl at several servers. Every client gets an error listener: a lost
// connection is reported through onLost, never as an uncaught exception.

export interface PgTarget {
  /** postgres://user:password@host:port/db, or null for the PG* variables. */
  url: string | null;
  env: NodeJS.ProcessEnv;
  /** Shown in pg_stat_activity (who holds a lock). */
  applicationName: string;
}

export async function connect(target: PgTarget, onLost: (err: Error) => void = () => {}): Promise<pg.Client> {
  const e = target.env;
  const client = new pg.Client(target.url
    ? { connectionString: target.url, application_name: target.applicationName, connectionTimeoutMillis: 10_000 }
    : {
      host: e.PGHOST, port: e.PGPORT ? Number(e.PGPORT) : undefined, user: e.PGUSER, password: e.PGPASSWORD,
      database: e.PGDATABASE, application_name: target.applicationName, connectionTimeoutMillis: 10_000,
    });
  let lost = false;
  const report = (err: Error): void => { if (!lost) { lost = true; onLost(err); } };
  client.on('error', report);
  client.on('end', () => report(new Error('the connection to PostgreSQL closed')));
  await client.connect();
  return client;
}

/** A URL with its password replaced, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres (url not shown)';
  }
}
