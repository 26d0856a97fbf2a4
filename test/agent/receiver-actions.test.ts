import t from 'tap';
import type { ReceiverEndpointSpec } from '../../schema/types.js';
import { formatDeliveryLine, type WebhookPayload } from '../../runtime/receiver/index.js';
import { addActionEndpoints, logAction, type ReceiverActions } from '../../reconciler/agent/receiver-actions.js';
import { fixtures } from '../receiver/fixtures.js';
import { post, startReceiver } from '../receiver/helpers.js';

t.test('endpoints of a receiver section dispatch to the injected action table', async (t) => {
  const calls: string[] = [];
  const logged: string[] = [];
  const actions: ReceiverActions = {
    log: logAction((l) => logged.push(l)),
    reconcile: async (p) => { calls.push(`reconcile ${p.repo.name}`); return { reconciled: true }; },
    redeploy: async (p, e) => { calls.push(`redeploy ${e.app} for ${p.repo.name}`); return { redeployed: e.app }; },
  };
  const endpoints: ReceiverEndpointSpec[] = [
    { name: 'sync', action: 'reconcile', app: null },
    { name: 'hello', action: 'redeploy', app: 'hello_app' },
    { name: 'audit', action: 'log', app: null },
  ];
  let paths: string[] = [];
  const { url } = await startReceiver(t, {}, (r) => { paths = addActionEndpoints(r, endpoints, actions); });
  t.same(paths, ['/webhooks/sync', '/webhooks/hello', '/webhooks/audit']);
  t.same((await post(`${url}/webhooks/hello`, fixtures.contentUpdate)).body, { redeployed: 'hello_app' });
  t.same((await post(`${url}/webhooks/sync`, fixtures.prClosed)).body, { reconciled: true });
  t.same((await post(`${url}/webhooks/audit`, fixtures.prOpened)).body, { logged: true });
  t.same(calls, ['redeploy hello_app for Wauplin/gradio-user-history', 'reconcile Wauplin/leaderboard']);
  t.match(logged[0], / \/webhooks\/audit discussion\/create model:gpt2$/);
});

t.test('formatDeliveryLine', async (t) => {
  const payload = JSON.parse(fixtures.contentUpdate) as WebhookPayload;
  t.equal(
    formatDeliveryLine(payload, '/webhooks/log', new Date('2026-01-02T03:04:05.000Z')),
    '2026-01-02T03:04:05.000Z /webhooks/log repo.content/update space:Wauplin/gradio-user-history',
  );
});
