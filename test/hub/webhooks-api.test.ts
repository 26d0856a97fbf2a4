import t from 'tap';
import { startHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { HubError, isNotFound } from '../../drivers/hub/errors.js';
import { ALICE, BOB, raw } from './helpers.js';

// Every webhook operation through the driver against the embedded hub.

t.test('webhook API through the driver', async (t) => {
  const hub = await startHub({ users: [ALICE, BOB] });
  t.teardown(() => hub.close());
  const alice = createHubClient({ endpoint: hub.url, token: ALICE.token, retryBaseMs: 1 });
  const bob = createHubClient({ endpoint: hub.url, token: BOB.token, retryBaseMs: 1 });
  t.teardown(() => Promise.all([alice.close(), bob.close()]));

  t.same(await alice.listWebhooks(), [], 'starts empty');
  const created = await alice.createWebhook({ watched: [{ type: 'space', name: 'alice/app' }], url: 'https://example.org/h', domains: ['repo'], secret: 's1' });
  t.match(created, { url: 'https://example.org/h', job: null, watched: [{ type: 'space', name: 'alice/app' }], domains: ['repo'], secret: 's1', disabled: false });
  t.match(created.id, /^[0-9a-f]{24}$/);

  const job = await alice.createWebhook({ watched: [{ type: 'user', name: 'alice' }], jobSourceId: 'job123' });
  t.equal(job.url, null, 'job webhooks have url null');
  t.equal(job.jobSourceId, 'job123', 'jobSourceId echoed');
  t.match(job.job, { dockerImage: String, command: Array, flavor: 'cpu-basic' });
  t.same(job.domains, [], 'no domains = all');

  t.equal((await alice.listWebhooks()).length, 2);
  t.same(await alice.getWebhook(created.id), created);

  const updated = await alice.updateWebhook(created.id, { watched: [], url: 'https://example.org/other' });
  t.same(updated.watched, created.watched, 'watched: [] on update leaves the list unchanged');
  t.equal(updated.url, 'https://example.org/other');
  t.same(updated.domains, ['repo'], 'absent domains unchanged');
  t.equal(updated.secret, 's1', 'absent secret unchanged');
  const replaced = await alice.updateWebhook(created.id, { watched: [{ type: 'model', name: 'alice/m' }], domains: ['discussion'] });
  t.same(replaced.watched, [{ type: 'model', name: 'alice/m' }], 'a non-empty watched replaces the list');
  t.same(replaced.domains, ['discussion']);

  t.equal((await alice.disableWebhook(created.id)).disabled, true);
  t.equal((await alice.disableWebhook(created.id)).disabled, true, 'disable is idempotent');
  t.equal((await alice.enableWebhook(created.id)).disabled, false);

  // Owner isolation: bob sees nothing of alice's and gets 404 on her ids.
  t.same(await bob.listWebhooks(), []);
  await t.rejects(bob.getWebhook(created.id), { name: 'HubError', status: 404 });
  await t.rejects(bob.deleteWebhook(created.id), { name: 'HubError', status: 404 });
  await t.rejects(bob.updateWebhook(created.id, { watched: [] }), { name: 'HubError', status: 404 });

  await alice.deleteWebhook(created.id);
  const err = await alice.getWebhook(created.id).catch((e: unknown) => e);
  t.ok(isNotFound(err), 'deleted webhook is 404');
  t.match((err as HubError).hubMessage, /not found/);
  t.equal((await alice.whoami()).name, 'alice');
});

t.test('errors: 401, 404, 400 variants, with X-Error-Message', async (t) => {
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  const base = `${hub.url}/api/settings/webhooks`;

  const noAuth = await raw(base, 'GET', null);
  t.equal(noAuth.status, 401);
  t.match(noAuth.json, { error: /Authorization/ });
  t.equal(noAuth.headers.get('x-error-message'), (noAuth.json as { error: string }).error);
  t.equal((await raw(base, 'GET', 'hf_wrong')).status, 401);
  const unknown = await raw(`${base}/0123456789abcdef01234567`, 'GET', ALICE.token);
  t.equal(unknown.status, 404);
  t.equal((await raw(`${base}/0123456789abcdef01234567/enable`, 'POST', ALICE.token)).status, 404);

  const watched = [{ type: 'user', name: 'alice' }];
  const cases: [string, unknown, RegExp][] = [
    ['both url and jobSourceId', { watched, url: 'https://x.org', jobSourceId: 'j' }, /not both/],
    ['neither url nor jobSourceId', { watched }, /url.*jobSourceId/],
    ['bad watched type', { watched: [{ type: 'repo', name: 'x' }], url: 'https://x.org' }, /watched\[0\]\.type/],
    ['watched not an array', { watched: 'user:alice', url: 'https://x.org' }, /watched/],
    ['empty watched on create', { watched: [], url: 'https://x.org' }, /at least one/],
    ['unknown domain', { watched, url: 'https://x.org', domains: ['issues'] }, /Unknown domain "issues"/],
    ['non-ASCII secret', { watched, url: 'https://x.org', secret: 'sécret' }, /ASCII/],
    ['bad url', { watched, url: 'not a url' }, /valid URL/],
    ['not an object', [1, 2], /JSON object/],
  ];
  for (const [name, body, message] of cases) {
    const r = await raw(base, 'POST', ALICE.token, body);
    t.equal(r.status, 400, name);
    t.match((r.json as { error: string }).error, message, name);
  }
  const badJson = await fetch(base, { method: 'POST', headers: { authorization: `Bearer ${ALICE.token}`, 'content-type': 'application/json' }, body: '{nope' });
  t.equal(badJson.status, 400, 'malformed JSON');
  t.equal(hub.data().webhooks.length, 0, 'nothing was created by invalid input');
});

t.test('null fields are absent; discussions is accepted as discussion', async (t) => {
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  const base = `${hub.url}/api/settings/webhooks`;
  // The body huggingface_hub 0.24–1.5 sends.
  const old = await raw(base, 'POST', ALICE.token, { watched: [{ type: 'user', name: 'alice' }], url: 'https://x.org/h', domains: null, secret: null });
  t.equal(old.status, 200);
  const w = (old.json as { webhook: { id: string; domains: unknown; secret: unknown } }).webhook;
  t.same(w.domains, []);
  t.equal(w.secret, null);
  const upd = await raw(`${base}/${w.id}`, 'POST', ALICE.token, { watched: [], url: null, domains: ['repo', 'discussions'], secret: null });
  t.equal(upd.status, 200);
  t.match(upd.json, { webhook: { url: 'https://x.org/h', domains: ['repo', 'discussion'], watched: [{ type: 'user', name: 'alice' }] } });
  const cleared = await raw(`${base}/${w.id}`, 'POST', ALICE.token, { watched: [], secret: '' });
  t.match(cleared.json, { webhook: { secret: null } }, 'an empty secret clears it');
  const enable = await fetch(`${base}/${w.id}/enable`, { method: 'POST', headers: { authorization: `Bearer ${ALICE.token}` } });
  t.equal(enable.status, 200, 'enable without body or content-type');
  const list = await raw(base, 'GET', ALICE.token);
  t.ok(Array.isArray(list.json), 'list is a bare array');
  const del = await raw(`${base}/${w.id}`, 'DELETE', ALICE.token);
  t.equal(del.status, 200);
});

t.test('stats count requests and writes', async (t) => {
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  const c = createHubClient({ endpoint: hub.url, token: ALICE.token });
  t.teardown(() => c.close());
  await c.listWebhooks();
  await c.listWebhooks();
  t.match(hub.stats(), { requests: 2, writes: 0, byRoute: { 'GET /api/settings/webhooks': 2 } });
  await c.createWebhook({ watched: [{ type: 'user', name: 'alice' }], url: 'https://x.org' });
  t.equal(hub.stats().writes, 1);
  hub.resetStats();
  t.equal(hub.stats().requests, 0);
});
