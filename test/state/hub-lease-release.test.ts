import t from 'tap';
import { once } from 'node:events';
import { startHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { HubRepo } from '../../state/hub-repo.js';
import { readLease, takeLease, type LeaseOptions } from '../../state/hub-lease.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';

// A hub lease lost to its expiry (its renewals failed: the hub refused or
// did not answer in time, as on a loaded machine) is still its holder's
// while its file holds the holder's token: release deletes it then, and
// never a lease someone else took over. Before, release skipped the delete
// once the lease counted as lost, and `state.json.lock` stayed on the hub
// after the agent's clean exit (test/state/agent-failover-hub.test.ts, "no
// lease left behind", under load).

const USER = { name: 'alice', token: 'hf_alice_lease_release_1' };

t.test('release deletes its own lease even after losing it to expiry, never a lease taken over', async (t) => {
  const hub = await startHub({ users: [USER] });
  let failing = false;
  const proxy = await startFaultProxy(hub.url, () => (failing ? { kind: 'status', status: 403, message: 'refused for the test' } : null));
  const viaProxy = createHubClient({ endpoint: proxy.url, token: USER.token });
  const direct = createHubClient({ endpoint: hub.url, token: USER.token });
  t.teardown(async () => { await viaProxy.close(); await direct.close(); await proxy.close(); await hub.close(); });
  const holder: LeaseOptions = { repo: new HubRepo(viaProxy, 'alice/lease-release'), path: 'state.json.lock', ttlMs: 400 };
  const other: LeaseOptions = { ...holder, repo: new HubRepo(direct, 'alice/lease-release') };

  // 1. Lost to expiry, nobody took it over: release removes it.
  const held = await takeLease(holder, { timeoutMs: 5000, operation: 'agent' });
  failing = true;
  await once(held.lost, 'abort');
  t.match(String(held.lost.reason), /expired before it could be renewed/);
  failing = false;
  await held.release();
  t.equal(await readLease(other), null, 'no lease left behind');

  // 2. Lost, then taken over by another holder: release leaves the new lease alone.
  const first = await takeLease(holder, { timeoutMs: 5000, operation: 'agent' });
  failing = true;
  await once(first.lost, 'abort');
  const second = await takeLease(other, { timeoutMs: 5000, operation: 'apply' });
  failing = false;
  await first.release();
  t.equal((await readLease(other))?.token, second.info.token, "the taker's lease is untouched");
  await second.release();
  t.equal(await readLease(other), null);
});
