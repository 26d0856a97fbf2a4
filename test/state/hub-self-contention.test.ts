import t from 'tap';
import { startHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { hubStore } from '../../state/hub-store.js';
import { newState } from '../../state/file.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';

// One process's own writers of a hub-dataset state (the state, its lease,
// an agent's leader lease, each renewed every quarter of the lease) never
// make each other's parent_commit stale: every commit the process sends
// lands. When they raced, a loaded machine saw a state write give up after
// 10 tries ("main kept moving") and lease renewals and releases fail, which
// left `state.json.lock` on the hub after the agent's clean exit
// (test/state/agent-failover-hub.test.ts, "no lease left behind").

const USER = { name: 'alice', token: 'hf_alice_self_contention_1' };
const REPO = 'alice/self-contention';
const RENEWALS = 8;

t.test("a process's own commits to the state repo never race each other", async (t) => {
  const hub = await startHub({ users: [USER] });
  let sent = 0;
  let renewals = 0;
  const proxy = await startFaultProxy(hub.url, (req, body) => {
    if (req.method === 'POST' && /\/commit\/main$/.test(req.url ?? '')) {
      sent += 1;
      if (body.includes('robotctl: renew lock')) renewals += 1;
    }
    return null;
  });
  const client = createHubClient({ endpoint: proxy.url, token: USER.token });
  t.teardown(async () => { await client.close(); await proxy.close(); await hub.close(); });
  const commits = async (): Promise<number> => {
    const r = await fetch(`${hub.url}/api/datasets/${REPO}/commits/main`, { headers: { authorization: `Bearer ${USER.token}` } });
    return r.ok ? ((await r.json()) as unknown[]).length : 0;
  };
  // Both leases renew every 500 ms while the state is written, until at
  // least RENEWALS renewals were sent among the writes: the contention is
  // counted, not left to the machine's speed. (A 400 ms lease, renewed every
  // 100 ms, was shorter than a loaded machine's read of the repo: the
  // lease's fence then rightly refuses the writes, whose reads are too old.)
  const store = hubStore({ hub: client, repo: REPO, leaseMs: 2000 });
  await client.createRepo('dataset', REPO, { private: true }); // its first commit is the hub's, before the count
  let state = (await store.read()) ?? newState();
  const before = { sent, landed: await commits() };
  const leader = await store.lock({ timeoutMs: 5000, operation: 'agent', scope: 'leader' });
  const lock = await store.lock({ timeoutMs: 5000, operation: 'agent' });
  t.teardown(async () => { await lock.release().catch(() => {}); await leader.release().catch(() => {}); });
  let writes = 0;
  const renewed = renewals;
  for (; writes < 20 || (renewals - renewed < RENEWALS && writes < 500); writes++) {
    state = await store.write({ ...state, webhooks: { [`w${writes}`]: { id: `id-${writes}`, specHash: 'h' } } });
  }
  const renewedAmong = renewals - renewed;
  await lock.release();
  await leader.release();
  t.ok(renewedAmong >= RENEWALS, `the leases were renewed among the writes (${renewedAmong} renewals, ${writes} writes)`);
  t.equal(state.serial, writes, 'every write stored');
  t.notOk(leader.lost.reason instanceof Error && leader.lost.reason.message !== 'released', 'the leader lease was never lost');
  const landed = (await commits()) - before.landed;
  t.ok(landed >= 4 + writes + renewedAmong, `the two takes, the writes, the renewals and the two releases landed (${landed} commits)`);
  t.equal(sent - before.sent, landed, 'no commit was refused as stale: each one sent landed');
});
