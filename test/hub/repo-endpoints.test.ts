import t from 'tap';
import { startHub } from '../../runtime/hub/server.js';
import { ALICE, BOB } from './helpers.js';
import { hfClient } from './hf-client.js';

// auth_check, super_squash_history, ids in any case, moves and the webhook
// caps, with the requests huggingface_hub sends (hf_api.py).

t.test('auth_check: 200 with access; RepoNotFound and 403 as the client maps them', async (t) => {
  const hub = await startHub({ users: [ALICE, BOB] });
  t.teardown(() => hub.close());
  await hub.createRepo('alice', 'dataset', 'alice/ds');
  const alice = hfClient(hub.url, ALICE.token);
  const bob = hfClient(hub.url, BOB.token);
  t.equal((await alice.call('GET', '/api/datasets/alice/ds/auth-check')).status, 200);
  t.equal((await bob.call('GET', '/api/datasets/alice/ds/auth-check')).status, 200, 'a public repo: anyone reads');
  t.equal((await alice.call('GET', '/api/datasets/alice/ds/auth-check/write')).status, 200);
  t.equal((await bob.call('GET', '/api/datasets/alice/ds/auth-check/write')).status, 403, 'auth_check(write=True) of another user');
  const missing = await alice.call('GET', '/api/models/username/missing_repo_id/auth-check');
  t.equal(missing.status, 404);
  t.equal(missing.headers.get('x-error-code'), 'RepoNotFound', 'RepositoryNotFoundError');
});

t.test('super_squash_history: one commit per branch, other branches keep their history', async (t) => {
  const hub = await startHub({ users: [ALICE, BOB] });
  t.teardown(() => hub.close());
  await hub.createRepo('alice', 'model', 'alice/m');
  const api = hfClient(hub.url, ALICE.token);
  await hub.commit('alice', 'model', 'alice/m', { 'file.txt': 'content' });
  await hub.commit('alice', 'model', 'alice/m', { 'file.txt': 'another_content' });
  t.equal((await api.call('POST', '/api/models/alice/m/branch/v0.1', {})).status, 200);
  const squash = await api.call<{ commitId: string }>('POST', '/api/models/alice/m/super-squash/main', { message: "Super-squash branch 'main' using huggingface_hub" });
  t.equal(squash.status, 200);
  const main = await api.call<{ id: string; title: string }[]>('GET', '/api/models/alice/m/commits/main');
  t.same(main.body.map((c) => c.title), ["Super-squash branch 'main' using huggingface_hub"]);
  t.equal(main.body[0]?.id, squash.body.commitId);
  t.equal(await (await fetch(`${hub.url}/alice/m/resolve/main/file.txt`)).text(), 'another_content', 'the files stay');
  t.equal((await api.call<unknown[]>('GET', '/api/models/alice/m/commits/v0.1')).body.length, 3, 'the branch keeps its three commits');

  const pr = await api.call<{ num: number }>('POST', '/api/models/alice/m/discussions', { title: 'PR', description: '', pullRequest: true });
  await api.commit('model', 'alice/m', 'refs/pr/1', 'one', [{ add: 'a.txt', content: 'a' }]);
  await api.commit('model', 'alice/m', 'refs/pr/1', 'two', [{ add: 'a.txt', content: 'b' }]);
  t.equal(pr.status, 200);
  // The client quotes the branch (refs%2Fpr%2F1).
  t.equal((await api.call('POST', '/api/models/alice/m/super-squash/refs%2Fpr%2F1', { message: 'squash PR' })).status, 200);
  t.equal((await api.call<unknown[]>('GET', '/api/models/alice/m/commits/refs%2Fpr%2F1')).body.length, 1, 'a special ref squashes too');
  const missing = await api.call('POST', '/api/models/alice/m/super-squash/nope', { message: 'x' });
  t.equal(missing.status, 404);
  t.equal(missing.headers.get('x-error-code'), 'RevisionNotFound');
  t.equal((await hfClient(hub.url, BOB.token).call('POST', '/api/models/alice/m/super-squash/main', { message: 'x' })).status, 403);
});

t.test('ids in another case find the repo; creates and moves respect names and namespaces', async (t) => {
  const hub = await startHub({ users: [ALICE, BOB] });
  t.teardown(() => hub.close());
  const api = hfClient(hub.url, ALICE.token);
  const created = await api.call<{ name: string }>('POST', '/api/repos/create', { name: 'CaSe_Is_ImPoRtAnT', organization: 'alice' });
  t.equal(created.body.name, 'alice/CaSe_Is_ImPoRtAnT');
  const commit = await api.commit('model', 'alice/case_is_important', 'main', 'lowercase id', [{ add: 'file.txt', content: 'content' }]);
  t.equal(commit.status, 200, 'create_commit with the id lowercased');
  t.match((await api.call('GET', '/api/models/ALICE/case_is_important')).body, { id: 'alice/CaSe_Is_ImPoRtAnT' }, 'info shows the stored casing');
  t.equal(await (await fetch(`${hub.url}/alice/case_is_important/resolve/main/file.txt`)).text(), 'content');
  const again = await api.call<{ url: string }>('POST', '/api/repos/create', { name: 'case_is_important', organization: 'alice' });
  t.equal(again.status, 409, 'the same name in another case exists');
  t.equal(again.body.url, `${hub.url}/alice/CaSe_Is_ImPoRtAnT`, 'create_repo(exist_ok=True) gets the existing url');
  const upper = await api.call<{ name: string }>('POST', '/api/repos/create', { name: 'up', organization: 'ALICE' });
  t.equal(upper.body.name, 'alice/up', "a user's namespace in another case is theirs");
  t.equal((await api.call('POST', '/api/repos/create', { name: 'x', organization: 'Bob' })).status, 403, "another user's namespace, in any case");

  t.equal((await api.call('POST', '/api/repos/move', { fromRepo: 'alice/up', toRepo: 'bob/up', type: 'model' })).status, 403, "no move into another user's namespace");
  t.equal((await api.call('POST', '/api/repos/move', { fromRepo: 'alice/up', toRepo: 'alice/CASE_IS_IMPORTANT', type: 'model' })).status, 409, 'no move onto an existing name');
  t.equal((await api.call('POST', '/api/repos/move', { fromRepo: 'alice/up', toRepo: 'alice/down', type: 'model' })).status, 200);
  t.equal((await api.call('GET', '/api/models/alice/down')).status, 200);
});

t.test('webhooks: at most 100 watched items and a 256-character secret, said in a 400 the client shows', async (t) => {
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  const api = hfClient(hub.url, ALICE.token);
  const watched = Array.from({ length: 101 }, (_, i) => ({ type: 'model', name: `alice/m${i}` }));
  const many = await api.call('POST', '/api/settings/webhooks', { watched, url: 'https://example.org/h' });
  t.equal(many.status, 400);
  t.equal(many.headers.get('x-error-message'), '`watched` lists 101 items: a webhook watches at most 100 (the embedded hub\'s limit)');
  t.equal((await api.call('POST', '/api/settings/webhooks', { watched: watched.slice(0, 100), url: 'https://example.org/h' })).status, 200, '100 is allowed');
  const long = await api.call('POST', '/api/settings/webhooks', { watched: [{ type: 'user', name: 'alice' }], url: 'https://example.org/h', secret: 's'.repeat(257) });
  t.equal(long.status, 400);
  t.equal(long.headers.get('x-error-message'), '`secret` is 257 characters long: at most 256 (the embedded hub\'s limit)');
  t.equal((await api.call('POST', '/api/settings/webhooks', { watched: [{ type: 'user', name: 'alice' }], url: 'https://example.org/h', secret: 's'.repeat(256) })).status, 200);
  t.equal(hub.data().webhooks.length, 2, 'nothing of the refused ones was kept');
});
