import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import type { HubClient } from '../../drivers/hub/types.js';
import { newState } from '../../state/file.js';
import { LockError } from '../../state/lock.js';
import { localStore } from '../../state/local-store.js';
import { hubStore } from '../../state/hub-store.js';
import { postgresStore } from '../../state/postgres-store.js';
import type { StateStore } from '../../state/store.js';
import { migrateState } from '../../state/migrate.js';
import type { StateFile } from '../../state/types.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';

// One conformance suite run against every backend: the local file, a private
// dataset on the embedded hub, a table in a real PostgreSQL. Then what only
// one backend has: the hub's commit race, the lease, migrate across all three.

const USER = { name: 'alice', token: 'hf_alice_state_token_0123456789' };
const noPg = postgresMissing();

let hub: RunningHub;
let pg: TestPostgres | null = null;
const dir = mkdtempSync(join(tmpdir(), 'robotctl-backends-'));
const clients: HubClient[] = [];
const opened: StateStore[] = [];

t.before(async () => {
  hub = await startHub({ users: [USER] });
  if (!noPg) pg = await startPostgres();
});
t.teardown(async () => {
  await Promise.all(opened.map((s) => s.close().catch(() => {})));
  await Promise.all(clients.map((c) => c.close()));
  await hub.close();
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function hubClient(): HubClient {
  const c = createHubClient({ endpoint: hub.url, token: USER.token, retryBaseMs: 5 });
  clients.push(c);
  return c;
}

let n = 0;
type Factory = () => Promise<StateStore>;
function backends(dir: string): [string, () => Factory, string | false][] {
  return [
    ['local', () => { const path = join(dir, `s${++n}`, 'state.json'); return async () => localStore(path); }, false],
    ['hub', () => { const repo = `alice/state-${++n}`; return async () => hubStore({ hub: hubClient(), repo }); }, false],
    ['postgres', () => { const key = `k${++n}`; return async () => postgresStore({ url: pg?.url ?? null, env: {}, key }); }, noPg ?? false],
  ];
}

async function open(f: Factory): Promise<StateStore> {
  const s = await f();
  opened.push(s);
  return s;
}

const withHook = (s: StateFile, name: string): StateFile => ({ ...s, webhooks: { ...s.webhooks, [name]: { id: `id-${name}`, specHash: 'h' } } });

for (const [kind, fresh, skip] of backends(dir)) {
  t.test(`${kind}: read, write, serial and lineage`, { skip }, async (t) => {
    const make = fresh();
    const a = await open(make);
    t.equal(a.kind, kind);
    t.equal(await a.read(), null, 'nothing stored yet');
    const s0 = newState();
    const s1 = await a.write(withHook(s0, 'one'));
    t.equal(s1.serial, 1);
    const b = await open(make);
    t.same(await b.read(), s1, 'another client reads what was written');
    const s2 = await b.write(withHook(s1, 'two'));
    t.equal(s2.serial, 2);
    await t.rejects(b.write(newState()), /belongs to another lineage/, 'another lineage is refused');
    if (kind !== 'local') {
      await t.rejects(a.write(withHook(s1, 'stale')), /changed by another writer since it was read \(serial 1 → 2\)/, 'a writer that read an older serial is refused');
    }
    t.same(Object.keys((await open(make).then((c) => c.read()))?.webhooks ?? {}), ['one', 'two']);
  });

  t.test(`${kind}: the lock: one holder, the other fails fast naming it, then gets it after the release`, { skip }, async (t) => {
    const make = fresh();
    const a = await open(make);
    const b = await open(make);
    const results = await Promise.allSettled([a.lock({ timeoutMs: 0 }), b.lock({ timeoutMs: 0 })]);
    const won = results.filter((r) => r.status === 'fulfilled');
    t.equal(won.length, 1, 'exactly one of two concurrent lockers wins');
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    t.type(lost.reason, LockError);
    t.match((lost.reason as Error).message, new RegExp(`^state is locked by pid ${process.pid} on host \\S+ since \\S+ \\(apply\\)`));
    t.match(await a.holder(), { pid: process.pid, operation: 'apply' });
    const held = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<StateStore['lock']>>>).value;
    const waiting = (held === (results[0] as PromiseFulfilledResult<unknown>).value ? b : a).lock({ timeoutMs: 20_000, pollMs: 50, operation: 'import' });
    await held.release();
    const second = await waiting;
    t.equal(second.info.operation, 'import');
    t.match(await a.holder(), { operation: 'import' });
    await second.release();
    t.equal(await a.holder(), null);
  });

  t.test(`${kind}: the leader lock is separate from the state lock`, { skip }, async (t) => {
    const make = fresh();
    const a = await open(make);
    const leader = await a.lock({ timeoutMs: 0, scope: 'leader', operation: 'agent' });
    const state = await a.lock({ timeoutMs: 0 });
    await t.rejects(a.lock({ timeoutMs: 0, scope: 'leader' }), /\(agent\)/);
    await state.release();
    await leader.release();
  });
}

t.test('hub: a commit race is refused by parent_commit and retried', async (t) => {
  const repo = 'alice/race-state';
  const real = hubClient();
  const other = hubClient();
  let raced = 0;
  // A client whose next commit loses a race: another commit lands on main just before it.
  const racing: HubClient = {
    ...real,
    commit: async (...args: Parameters<HubClient['commit']>) => {
      if (raced === 0 && args[5]) {
        raced += 1;
        await other.commit('dataset', repo, [{ op: 'add', path: 'unrelated.txt', content: Buffer.from('x') }], 'someone else');
      }
      return real.commit(...args);
    },
  };
  const store = await open(async () => hubStore({ hub: racing, repo }));
  await store.read();
  const s1 = await store.write(withHook(newState(), 'a'));
  t.equal(raced, 1, 'the first commit was raced');
  t.equal(s1.serial, 1, 'and the write landed on the second try');
  const info = await real.repoInfo('dataset', repo);
  t.equal(info?.private, true, 'the repo was created private');
  t.same(info?.siblings.map((s) => s.rfilename).sort(), ['.gitattributes', 'state.json', 'unrelated.txt']);
});

t.test('hub: two writers that read the same serial never both win', async (t) => {
  const make = (): Promise<StateStore> => open(async () => hubStore({ hub: hubClient(), repo: 'alice/two-writers' }));
  const seed = await (await make()).write(newState());
  const [a, b] = [await make(), await make()];
  await Promise.all([a.read(), b.read()]);
  const results = await Promise.allSettled([a.write(withHook(seed, 'a')), b.write(withHook(seed, 'b'))]);
  t.equal(results.filter((r) => r.status === 'fulfilled').length, 1, 'one write lands');
  t.match((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason.message, /changed by another writer/);
  t.equal((await (await make()).read())?.serial, 2);
});

t.test('hub: a lease is renewed while held, and a lost lease stops writes', async (t) => {
  const repo = 'alice/lease-state';
  const a = await open(async () => hubStore({ hub: hubClient(), repo, leaseMs: 3000 }));
  const b = await open(async () => hubStore({ hub: hubClient(), repo, leaseMs: 3000 }));
  const held = await a.lock({ timeoutMs: 0 });
  const first = (await a.holder()) as { expires?: string } | null;
  // Past the lease length, b still cannot take it: a renewed it.
  await t.rejects(b.lock({ timeoutMs: 4500, pollMs: 200 }), /lease until/);
  const later = (await a.holder()) as { expires?: string } | null;
  t.ok(Date.parse(later?.expires ?? '') > Date.parse(first?.expires ?? ''), 'the expiry moved forward');
  await a.read();
  const s1 = await a.write(newState());
  t.equal(s1.serial, 1, 'the holder writes');
  // Forced away (state unlock --force) and taken by b: a's next write is refused and a learns it lost the lock.
  await b.breakLock();
  const taken = await b.lock({ timeoutMs: 0 });
  await t.rejects(a.write(withHook(s1, 'late')), /taken over by another process/);
  await new Promise<void>((r) => { if (held.lost.aborted) r(); else held.lost.addEventListener('abort', () => r(), { once: true }); });
  t.ok(held.lost.aborted, 'the old holder is told at its next renewal');
  await held.release();
  t.match(await a.holder(), { token: taken.info.token }, 'releasing a lost lease leaves the new holder alone');
  await taken.release();
  t.equal(await a.holder(), null);
});

t.test('hub: a lease of another host is taken over once it has expired, with one line that says so', async (t) => {
  const repo = 'alice/expired-lease';
  const client = hubClient();
  await client.createRepo('dataset', repo, { private: true });
  const soon = new Date(Date.now() + 4000).toISOString();
  await client.commit('dataset', repo, [{ op: 'add', path: 'state.json.lock', content: Buffer.from(JSON.stringify({ pid: 4242, host: 'ci-runner-7', time: '2026-01-01T00:00:00.000Z', operation: 'apply', token: 't', expires: soon })) }], 'a lease');
  const store = await open(async () => hubStore({ hub: hubClient(), repo }));
  await t.rejects(store.lock({ timeoutMs: 0 }), /^state is locked by pid 4242 on host ci-runner-7 since \S+ \(apply\), lease until/);
  const notes: string[] = [];
  const lock = await store.lock({ timeoutMs: 20_000, pollMs: 100, onNote: (l) => notes.push(l) });
  t.same(notes, [`Took over the state lock of pid 4242 on host ci-runner-7 (apply since 2026-01-01T00:00:00.000Z): its lease expired at ${soon}.`]);
  await lock.release();
});

t.test('migrate local → hub → postgres keeps lineage and serial; another lineage is refused', { skip: noPg ?? false }, async (t) => {
  const local = await open(async () => localStore(join(dir, 'm', 'state.json')));
  const hubSide = await open(async () => hubStore({ hub: hubClient(), repo: 'alice/migrated' }));
  const pgSide = await open(async () => postgresStore({ url: pg?.url ?? null, env: {}, key: 'migrated' }));
  let s = await local.write(withHook(newState(), 'a'));
  s = await local.write(withHook(s, 'b'));
  const toHub = await migrateState(local, hubSide, { timeoutMs: 0 });
  t.same(toHub, s, 'hub has the same lineage, serial and content');
  const toPg = await migrateState(hubSide, pgSide, { timeoutMs: 0 });
  t.same(toPg, s);
  t.same(await pgSide.read(), s);
  const stranger = await open(async () => localStore(join(dir, 'm2', 'state.json')));
  await stranger.write(newState());
  await t.rejects(migrateState(stranger, pgSide, { timeoutMs: 0 }), /belongs to another lineage/);
  t.same(await pgSide.read(), s, 'nothing was overwritten');
});
