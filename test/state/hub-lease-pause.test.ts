import t from 'tap';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import type { HubClient } from '../../drivers/hub/types.js';
import { newState } from '../../state/file.js';
import { hubStore } from '../../state/hub-store.js';
import type { Lease } from '../../state/hub-lease.js';
import type { HeldLock, StateStore } from '../../state/store.js';
import type { StateFile } from '../../state/types.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { until } from '../helpers/wait.js';

// Issue 29.2 at the lease's own depth, in one process: a holder "paused"
// (SIGSTOP) right after the hub answered one of its reads. Its answers are
// held and its calls wait while it is frozen, as a stopped process neither
// reads nor sends; time runs on, its lease expires and another store takes
// it. Thawed, the holder decides from what it read before the pause: its
// renewal, its state write, its release must send no write (its requests go
// through a recording proxy), only read again. Before the fence each of them
// sent a commit (refused by the hub as stale, but sent).

const USER = { name: 'alice', token: 'hf_alice_pause_token_0123456789' };
let hub: RunningHub;
let proxy: FaultProxy;
const clients: HubClient[] = [];

t.before(async () => {
  hub = await startHub({ users: [USER] });
  proxy = await startFaultProxy(hub.url, () => null);
});
t.teardown(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await proxy.close();
  await hub.close();
});

const client = (endpoint: string): HubClient => {
  const c = createHubClient({ endpoint, token: USER.token, retryBaseMs: 5 });
  clients.push(c);
  return c;
};

/** A client that freezes after the answer of the call `arm` picks next: held answers and waiting calls until thaw. */
function freezable(real: HubClient) {
  let frozen: Promise<void> | null = null;
  let thaw: () => void = () => {};
  let armed: ((name: string, args: unknown[]) => boolean) | null = null;
  let froze: () => void = () => {};
  let didFreeze = new Promise<void>((r) => { froze = r; });
  const wrap = <A extends unknown[], R>(name: string, fn: (...a: A) => Promise<R>) => async (...a: A): Promise<R> => {
    while (frozen) await frozen;
    const out = await fn.apply(real, a);
    if (armed?.(name, a)) {
      armed = null;
      frozen = new Promise<void>((r) => { thaw = () => { frozen = null; r(); }; });
      froze();
    }
    while (frozen) await frozen;
    return out;
  };
  const hub: HubClient = {
    ...real,
    repoInfo: wrap('repoInfo', real.repoInfo),
    downloadFile: wrap('downloadFile', real.downloadFile),
    commit: wrap('commit', real.commit),
    createRepo: wrap('createRepo', real.createRepo),
  };
  return {
    hub,
    /** Freeze once the next call that `pick` accepts has been answered. */
    arm(pick: (name: string, args: unknown[]) => boolean): Promise<void> {
      didFreeze = new Promise<void>((r) => { froze = r; });
      armed = pick;
      return didFreeze;
    },
    thaw: () => thaw(),
  };
}

const writesSince = (mark: number): string[] =>
  proxy.seen.slice(mark).filter((s) => s.method !== 'GET' && s.method !== 'HEAD').map((s) => `${s.method} ${s.url}`);
const lostReason = async (lock: HeldLock): Promise<string> => {
  await until(() => lock.lost.aborted, 20_000, 'the old holder learns it lost the lease');
  return (lock.lost.reason as Error).message;
};
/** Another store takes the lease once it has expired (it polls). */
const takeOver = (other: StateStore): Promise<HeldLock> => other.lock({ timeoutMs: 20_000, pollMs: 50 });
const withHook = (s: StateFile, name: string): StateFile => ({ ...s, webhooks: { ...s.webhooks, [name]: { id: `id-${name}`, specHash: 'sha256:0' } } });
/** Holder `a` (through the recording proxy, freezable) holding the lease on `repo`, and `b`, another store on the same repo. */
async function holderAndTaker(repo: string, leaseMs: number) {
  const f = freezable(client(proxy.url));
  const a = hubStore({ hub: f.hub, repo, leaseMs });
  const b = hubStore({ hub: client(hub.url), repo, leaseMs });
  return { f, a, b, held: await a.lock({ timeoutMs: 0 }) };
}

t.test('a renewal whose read was answered before the pause sends nothing on waking', async (t) => {
  const { f, b, held } = await holderAndTaker('alice/pause-renew', 600);
  // Nothing else of a's reads the repo now: the next repo info is its first renewal's.
  await f.arm((name) => name === 'repoInfo');
  const taken = await takeOver(b);
  const mark = proxy.seen.length;
  f.thaw();
  t.equal(await lostReason(held), 'the lease was taken over', 'it reads again and learns it lost the lease');
  t.same(writesSince(mark), [], 'no renewal commit after the pause');
  t.match(await b.holder(), { token: taken.info.token }, 'the new holder keeps the lease');
  await held.release();
  t.same(writesSince(mark), [], 'nor a release of the lease it lost');
  await taken.release();
});

t.test('a state write whose read was answered before the pause sends nothing on waking', async (t) => {
  const { f, a, b, held } = await holderAndTaker('alice/pause-write', 600);
  await a.read();
  const s1 = await a.write(newState());
  // Only a state write reads state.json under the lock.
  const frozen = f.arm((name, args) => name === 'downloadFile' && args[2] === 'state.json');
  const late = a.write(withHook(s1, 'late'));
  late.catch(() => {});
  await frozen;
  const taken = await takeOver(b);
  const mark = proxy.seen.length;
  f.thaw();
  // What it read before the pause is read again: the lease is another's now.
  await t.rejects(late, /^the state lock on hub dataset alice\/pause-write \(state\.json\) was taken over by another process \(this one's lease expired\); nothing was written: run again$/);
  t.same(writesSince(mark), [], 'no state commit after the pause');
  t.equal(await lostReason(held), 'the lease was taken over');
  t.same(writesSince(mark), [], 'nor any lease commit');
  t.equal((await b.read())?.serial, 1, 'the state is as the holder left it before the pause');
  await held.release();
  await taken.release();
});

t.test('a release whose read was answered before the pause sends nothing on waking', async (t) => {
  // A 4 s lease: its first renewal is due in 1 s, after the release has read.
  const { f, b, held } = await holderAndTaker('alice/pause-release', 4000);
  const frozen = f.arm((name) => name === 'repoInfo');
  const release = held.release();
  await frozen;
  const taken = await takeOver(b);
  const mark = proxy.seen.length;
  f.thaw();
  await release;
  t.same(writesSince(mark), [], 'no unlock commit after the pause');
  t.match(await b.holder(), { token: taken.info.token }, 'the new holder keeps the lease');
  await taken.release();
  t.equal(await b.holder(), null);
});

t.test('a holder that has not lost its lease still renews and releases it', async (t) => {
  const repo = 'alice/pause-short';
  const f = freezable(client(proxy.url));
  const a = hubStore({ hub: f.hub, repo, leaseMs: 2000 });
  const held = await a.lock({ timeoutMs: 0 });
  const expires = async (): Promise<number> => Date.parse(((await a.holder()) as Lease | null)?.expires ?? '');
  const first = await expires();
  // Paused for less than the margin: what it read is still good to act on.
  await f.arm((name) => name === 'repoInfo');
  f.thaw();
  await until(async () => (await expires()) > first, 20_000, 'a renewal lands');
  t.notOk(held.lost.aborted, 'the lease is held');
  await held.release();
  t.equal(await a.holder(), null, 'and released');
});

t.test('taking a lock asks mayWrite before each request of its commit', async (t) => {
  const repo = 'alice/pause-take';
  const a = hubStore({ hub: client(proxy.url), repo, leaseMs: 600 });
  await a.read();
  let asked = 0;
  const mark = proxy.seen.length;
  // Fenced between the preupload and the commit (a pause there): the commit is not sent.
  await t.rejects(a.lock({ timeoutMs: 0, mayWrite: () => { asked += 1; if (asked > 2) throw new Error('fenced out on purpose'); } }), /^fenced out on purpose$/);
  t.same(writesSince(mark).map((w) => w.replace(/\/api\/datasets\/alice\/pause-take/, '…')), ['POST /api/repos/create', 'POST …/preupload/main'], 'the preupload went, the commit did not');
  t.equal(await a.holder(), null, 'no lease was written');
});

t.test('a lease that expired before a renewal could land, and that nobody took, is still removed on release', async (t) => {
  const repo = 'alice/pause-expired';
  let failing = true;
  // The hub refuses every commit for a while (500): the renewals fail until the lease has expired.
  const faulty = await startFaultProxy(hub.url, (req) => (failing && req.method === 'POST' && /\/commit\/main$/.test(req.url ?? '') ? { kind: 'status', status: 500 } : null));
  t.teardown(() => faulty.close());
  const a = hubStore({ hub: client(faulty.url), repo, leaseMs: 600 });
  failing = false;
  const held = await a.lock({ timeoutMs: 0 });
  failing = true;
  t.equal(await lostReason(held), 'the lease expired before it could be renewed');
  failing = false;
  t.match(await a.holder(), { token: held.info.token }, 'nobody took it: the file is still the holder\'s');
  await held.release();
  t.equal(await a.holder(), null, 'released: no lease left behind');
});
