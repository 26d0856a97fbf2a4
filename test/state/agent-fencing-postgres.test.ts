import t from 'tap';
import pg from 'pg';
import { postgresMissing, startPostgres } from '../helpers/postgres.js';
import { postgresStore } from '../../state/postgres-store.js';
import { fencingScenario } from './fencing-case.js';

// Issue 29.2 on PostgreSQL: a frozen leader (SIGSTOP) keeps its session, so
// its session advisory lock alone never freed: no failover while it was
// frozen. Its lock is now a lease too, renewed every second here (lease 3s):
// once it expired the standby ends the frozen leader's lock session, takes
// over and converges the next change while the old leader is still frozen
// (its run waiting for the state lock). When it resumes (SIGCONT) it sends no
// hub or robot write, and the state row's serial does not move (a write is
// refused in its own transaction unless the writer's lease tokens are current).

t.test('a frozen leader on postgres loses the lead within its lease and writes nothing after it resumes', { skip: postgresMissing() ?? false }, async (t) => {
  const db = await startPostgres();
  t.teardown(() => db.stop());
  const serial = async (): Promise<number> => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      return Number((await c.query<{ serial: string }>('SELECT serial FROM robotctl_state WHERE key = $1', ['fencing'])).rows[0]?.serial ?? 0);
    } finally {
      await c.end();
    }
  };
  const holdStateLock = async () => {
    const store = await postgresStore({ url: db.url, env: {}, key: 'fencing', leaseMs: 3000 });
    const lock = await store.lock({ timeoutMs: 30_000, operation: 'test' });
    return { release: async () => { await lock.release(); await store.close(); } };
  };
  const out = await fencingScenario(t, { block: `{ backend: postgres, url: "${db.url}", key: fencing, lease: 3s }`, serial, holdStateLock });
  t.ok(out.tookOverWhileFrozen, 'the standby took over and converged while the leader was frozen');
  t.match(out.b.out(), new RegExp(`^Took over the agents' leader lock of pid ${out.a.child.pid} on host \\S+ \\(agent since \\S+\\): its lease expired at \\S+\\.$`, 'm'), 'one line says whose lease it took over');
  t.same(out.hubWrites, [], 'no hub write from the old leader after SIGCONT', out.hubWrites.length > 0 ? out.diagnosis : {});
  t.same(out.robotWrites, [], 'no robot write from the old leader after SIGCONT', out.robotWrites.length > 0 ? out.diagnosis : {});
  t.equal(out.serialAfter, out.serialBefore, 'no state serial from the old leader');
  t.equal(out.webhooks, 3, 'one webhook per name');
  t.equal(out.running, 'one_app');
});
