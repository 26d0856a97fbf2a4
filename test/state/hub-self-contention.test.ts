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

t.test("a process's own commits to the state repo never race each other", async (t) => {
  const hub = await startHub({ users: [USER] });
  let sent = 0;
  const proxy = await startFaultProxy(hub.url, (req) => {
    if (req.method === 'POST' && /\/commit\/main$/.test(req.url ?? '')) sent += 1;
    return null;
  });
  const client = createHubClient({ endpoint: proxy.url, token: USER.token });
  t.teardown(async () => { await client.close(); await proxy.close(); await hub.close(); });
  const commits = async (): Promise<number> => {
    const r = await fetch(`${hub.url}/api/datasets/${REPO}/commits/main`, { headers: { authorization: `Bearer ${USER.token}` } });
    return r.ok ? ((await r.json()) as unknown[]).length : 0;
  };
  // A short lease: both leases renew every 100 ms while the state is written.
  const store = hubStore({ hub: client, repo: REPO, leaseMs: 400 });
  await client.createRepo('dataset', REPO, { private: true }); // its first commit is the hub's, before the count
  let state = (await store.read()) ?? newState();
  const before = { sent, landed: await commits() };
  const leader = await store.lock({ timeoutMs: 5000, operation: 'agent', scope: 'leader' });
  const lock = await store.lock({ timeoutMs: 5000, operation: 'agent' });
  t.teardown(async () => { await lock.release().catch(() => {}); await leader.release().catch(() => {}); });
  for (let i = 0; i < 20; i++) state = await store.write({ ...state, webhooks: { [`w${i}`]: { id: `id-${i}`, specHash: 'h' } } });
  await lock.release();
  await leader.release();
  t.equal(state.serial, 20, 'every write stored');
  t.notOk(leader.lost.reason instanceof Error && leader.lost.reason.message !== 'released', 'the leader lease was never lost');
  const landed = (await commits()) - before.landed;
  t.ok(landed >= 24, `the two takes, the writes, the renewals and the two releases landed (${landed} commits)`);
  t.equal(sent - before.sent, landed, 'no commit was refused as stale: each one sent landed');
});
