import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { reconcileOnce } from '../../reconciler/agent/reconcile.js';
import { localStore } from '../../state/local-store.js';
import { writeState } from '../../state/file.js';
import { webhookSpecHash } from '../../reconciler/hash.js';
import { config, webhook } from '../reconciler/plan-fixtures.js';
import { fleetStatus } from '../../reconciler/agent/status-fleet.js';

// The agent and a delete held back (issue 29.1): a state record that names a
// webhook which no longer looks as recorded (here, edited by hand to name a
// foreign one) is reported on every run and never deleted: the agent never
// forces. The run says drift, since robot.yaml and the hub disagree.

t.test('the agent reports a held delete and leaves the webhook alone', async (t) => {
  const USER = { name: 'alice', token: 'hf_alice_held_agent_1' };
  const hub = await startHub({ users: [USER] });
  const client = createHubClient({ endpoint: hub.url, token: USER.token });
  t.teardown(async () => { await client.close(); await hub.close(); });
  const a = webhook('a', { url: 'https://example.org/agent/a', secret: null });
  const gone = webhook('b', { url: 'https://example.org/agent/b', secret: null });
  const owned = await client.createWebhook({ url: a.url as string, watched: a.watched, domains: a.domains });
  const foreign = await client.createWebhook({ url: 'https://example.org/foreign', watched: [{ type: 'user', name: 'alice' }] });
  const path = join(t.testdir(), 'state.json');
  await writeState(path, {
    version: 1, lineage: 'agent-held', serial: 1, robots: {},
    webhooks: { a: { id: owned.id, specHash: webhookSpecHash(a) }, b: { id: foreign.id, specHash: webhookSpecHash(gone) } },
  });
  const lines: string[] = [];
  hub.resetStats();
  const cfg = config({ webhooks: [a] });
  const out = await reconcileOnce({ key: 'full', trigger: 'interval', note: 'test', expect: [] }, {
    config: cfg, store: localStore(path), mode: 'heal', lockTimeoutMs: 5000, stop: new AbortController().signal,
    drivers: { hub: client, daemon: () => { throw new Error('no robot'); }, listWebhooks: true }, log: (l) => lines.push(l),
  });
  t.equal(out.summary.result, 'drift', lines.join('\n'));
  t.ok(lines.includes(`  held    delete webhooks.b (id ${foreign.id}): changed outside robotctl since the state recorded it; not deleted (robotctl's \`apply --force\` deletes it)`), lines.join('\n'));
  t.equal(hub.stats().writes, 0, 'nothing sent');
  t.ok((await client.listWebhooks()).some((h) => h.id === foreign.id), 'the foreign webhook is there');
  const status = fleetStatus({
    config: cfg, file: 'robot.yaml', hubEndpoint: hub.url, watchesHub: true, observation: out.observation, remaining: out.remaining,
    state: out.state, lastRun: out.summary, now: new Date(),
  });
  t.equal(status.drift, true, '/status says drift too');
  t.match(status.hub?.webhooks.find((w) => w.name === 'b'), { state: 'drifted', drift: ['delete held back: changed outside robotctl since the state recorded it'] });
  t.equal((JSON.parse(readFileSync(path, 'utf8')) as { webhooks: Record<string, { id: string }> }).webhooks.b?.id, foreign.id, 'the record stays');
});
