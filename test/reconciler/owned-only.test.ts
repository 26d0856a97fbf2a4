import t from 'tap';
import { startHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { apply } from '../../reconciler/apply.js';
import { foreignReference } from '../../reconciler/execute/owned-only.js';
import type { Action, Plan } from '../../reconciler/types.js';
import { UserError } from '../../lib/errors.js';
import { config, state, webhook } from './plan-fixtures.js';

// apply()'s last check before anything is sent (issue 29.1): an action names
// only what the state records for its address, whoever made the plan.

const a = webhook('a');
const st = state({ webhooks: { a: { id: '1', spec: a } }, apps: { desk: { hello: { name: 'hello', source: 'https://huggingface.co/spaces/alice/hello', spaceId: 'alice/hello', path: null } } } });
const planOf = (actions: Action[]): Plan => ({
  format_version: '2.1', actions, unmanaged: { webhooks: [], apps: [] }, heldDeletes: [], heldBack: [], unreachable: [], hubError: null, secretSalt: 's', targets: [], located: {}, refused: [],
  summary: { create: 0, adopt: 0, update: 0, delete: 0, robot: 0, total: actions.length },
});
const del = (name: string, id: string): Action => ({ type: 'delete', address: `webhooks.${name}`, name, id, reason: 'r' });

t.test('what the state records is allowed', (t) => {
  t.equal(foreignReference(planOf([del('a', '1')]), st), null);
  t.equal(foreignReference(planOf([
    { type: 'adopt', address: 'webhooks.b', name: 'b', id: '7', reason: 'r' },
    { type: 'enable', address: 'webhooks.b', name: 'b', id: '7', reason: 'r' },
  ]), st), null, 'a toggle of the webhook adopted just before');
  t.equal(foreignReference(planOf([{ type: 'remove', address: 'robots.desk.apps.hello', robot: 'desk', app: 'hello', reason: 'r' }]), st), null);
  t.end();
});

t.test('anything else is named', (t) => {
  t.equal(foreignReference(planOf([del('a', 'FOREIGN')]), st), 'delete webhooks.a names webhook FOREIGN, but the state records webhook 1 for it');
  t.equal(foreignReference(planOf([del('x', 'FOREIGN2')]), st), 'delete webhooks.x names webhook FOREIGN2, but the state records no webhook for it');
  t.equal(foreignReference(planOf([{ type: 'adopt', address: 'webhooks.b', name: 'b', id: '1', reason: 'r' }]), st),
    'adopt webhooks.b names webhook 1, which the state records for webhooks.a');
  t.equal(foreignReference(planOf([{ type: 'remove', address: 'robots.desk.apps.other', robot: 'desk', app: 'other', reason: 'r' }]), st),
    'remove robots.desk.apps.other: the state records no app other on robot desk');
  t.equal(foreignReference(planOf([{ type: 'adopt_app', address: 'robots.desk.apps.hello', robot: 'desk', app: 'hello', reason: 'r', record: { source: null, path: null, sha: null } }]), st),
    'adopt_app robots.desk.apps.hello: the state records no install of hello to adopt');
  t.end();
});

t.test('apply() refuses the whole plan before anything is sent', async (t) => {
  const USER = { name: 'alice', token: 'hf_alice_owned_only_1' };
  const hub = await startHub({ users: [USER] });
  const client = createHubClient({ endpoint: hub.url, token: USER.token });
  t.teardown(async () => { await client.close(); await hub.close(); });
  const foreign = await client.createWebhook({ url: 'https://example.org/foreign', watched: [{ type: 'user', name: 'alice' }] });
  hub.resetStats();
  const p = planOf([del('a', foreign.id)]);
  await t.rejects(apply(p, config({ webhooks: [a] }), { hub: client, daemon: () => { throw new Error('no robot'); }, state: st }, new AbortController().signal),
    new UserError(`refusing the plan: delete webhooks.a names webhook ${foreign.id}, but the state records webhook 1 for it; robotctl acts only on what the state records as this file's (nothing was sent)`));
  t.equal(hub.stats().writes, 0, 'nothing sent');
  t.equal((await client.listWebhooks()).length, 1, 'the foreign webhook is there');
});
