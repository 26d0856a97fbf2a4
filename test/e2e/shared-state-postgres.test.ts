import t from 'tap';
import pg from 'pg';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { until } from '../helpers/wait.js';
import { USER } from './helpers.js';
import { twoApplies } from './shared-state.js';

// Concurrent applies of one robot.yaml whose state is a row in a real
// PostgreSQL (test/e2e/shared-state.ts); the lock is a session advisory lock.
// Then the table holds one row at the last serial, owning every webhook.

const noPg = postgresMissing();
let hub: RunningHub;
let server: TestPostgres | null = null;
t.before(async () => {
  hub = await startHub({ users: [USER] });
  if (!noPg) server = await startPostgres();
});
t.teardown(async () => {
  await hub.close();
  await server?.stop();
});

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server?.url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

t.test('postgres backend: two applies of one robot.yaml, one fails fast naming the holder, one waits; no duplicate', { skip: noPg ?? false }, async (t) => {
  await twoApplies(t, {
    hubUrl: hub.url, stateBlock: `{ backend: postgres, url: "${server?.url ?? ''}" }`, spec: server?.url ?? '', tag: 'shared-pg', hooks: 20,
    // Its session is open (the state was read); its lock attempts poll on connections of their own.
    waitingForLock: async (pid) => {
      await until(async () => (await query('SELECT 1 FROM pg_stat_activity WHERE application_name LIKE $1', [`robotctl pid ${pid} %`])).length > 0, 30_000, 'the waiting apply connects');
    },
  });
  const rows = await query<{ serial: string; doc: { webhooks: object } }>('SELECT serial, doc FROM robotctl_state WHERE key = $1', ['default']);
  t.equal(rows.length, 1, 'one row for the key');
  t.equal(Object.keys(rows[0]?.doc.webhooks ?? {}).length, 20, 'the shared state owns every webhook');
  // Batched (state/README.md): 20 creates take one write at the end, or a few more on a slow machine.
  const serial = Number(rows[0]?.serial);
  t.ok(serial >= 1 && serial < 20, `the state written in batches, not once per webhook (serial ${serial})`);
});
