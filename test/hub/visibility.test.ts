import t, { type Test } from 'tap';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { ALICE, BOB, startReceiver, tempDir } from './helpers.js';
import { hfClient, type Answer } from './hf-client.js';
import { lfsClient, sha256 } from './lfs-client.js';
import { gitUser } from './git-helpers.js';

// A private repo, tried every way in, anonymously and as another user, with
// the requests huggingface_hub sends: the Hub's answer each time is the one
// it gives for a missing repo (401 without a token, 404 with one,
// X-Error-Code RepoNotFound), so nothing tells a private repo from none.

function hidden(t: Test, res: Answer<unknown>, who: 'anonymous' | 'bob', what: string): void {
  t.equal(res.status, who === 'anonymous' ? 401 : 404, `${what} (${who}): ${who === 'anonymous' ? 401 : 404}`);
  t.equal(res.headers.get('x-error-code'), 'RepoNotFound', `${what} (${who}): RepoNotFound`);
}

t.test('create_repo(visibility="private") and private=True: unreadable by every route but to the owner', async (t) => {
  const hub = await startHub({ users: [ALICE, BOB] });
  t.teardown(() => hub.close());
  const alice = hfClient(hub.url, ALICE.token);
  // huggingface_hub ≥ 0.25 sends `visibility`; older clients `private`.
  t.equal((await alice.call('POST', '/api/repos/create', { name: 'secret', organization: 'alice', visibility: 'private' })).status, 200);
  t.equal((await alice.call('POST', '/api/repos/create', { name: 'ds', organization: 'alice', private: true, type: 'dataset' })).status, 200);
  const c = await alice.commit('model', 'alice/secret', 'main', 'add', [{ add: 'weights.txt', content: 'w' }]);
  const lfsContent = Buffer.from('private LFS content\n');
  const withLfs = await lfsClient(hub.url, ALICE.token).uploadLfs('model', 'alice/secret', 'model.bin', lfsContent);
  t.equal(withLfs.status, 200);
  t.match((await alice.call('GET', '/api/models/alice/secret?expand=private')).body, { private: true }, 'model_info(expand="private") says private');
  t.match((await alice.call('GET', '/api/datasets/alice/ds')).body, { private: true });

  for (const [who, token] of [['anonymous', null], ['bob', BOB.token]] as const) {
    const api = hfClient(hub.url, token);
    hidden(t, await api.call('GET', '/api/models/alice/secret'), who, 'model_info');
    hidden(t, await api.call('GET', '/api/datasets/alice/ds'), who, 'dataset_info');
    hidden(t, await api.call('GET', `/api/models/alice/secret/revision/${c.body.commitOid}`), who, 'repo_info at a revision');
    hidden(t, await api.call('GET', '/api/models/alice/secret/tree/main?recursive=true'), who, 'list_repo_tree');
    hidden(t, await api.call('POST', '/api/models/alice/secret/paths-info/main', 'paths=weights.txt', { 'content-type': 'application/x-www-form-urlencoded' }), who, 'get_paths_info');
    hidden(t, await api.call('GET', '/api/models/alice/secret/commits/main'), who, 'list_repo_commits');
    hidden(t, await api.call('GET', '/api/models/alice/secret/refs'), who, 'list_repo_refs');
    hidden(t, await api.call('GET', '/api/models/alice/secret/discussions'), who, 'get_repo_discussions');
    hidden(t, await api.call('GET', '/api/models/alice/secret/auth-check'), who, 'auth_check');
    hidden(t, await api.call('GET', '/alice/secret/resolve/main/weights.txt'), who, 'hf_hub_download (GET)');
    hidden(t, await api.call('HEAD', '/alice/secret/resolve/main/weights.txt'), who, 'hf_hub_download (HEAD)');
    hidden(t, await api.call('GET', '/alice/secret/resolve/main/model.bin'), who, 'an LFS file');
    hidden(t, await api.call('GET', '/datasets/alice/ds/resolve/main/.gitattributes'), who, 'a dataset file');
    const batch = await lfsClient(hub.url, token).batch('model', 'alice/secret', 'download', [{ oid: sha256(lfsContent), size: lfsContent.length }]);
    hidden(t, batch, who, 'the LFS batch API');
    if (token) {
      hidden(t, await api.call('POST', '/api/models/alice/secret/preupload/main', { files: [{ path: 'x', sample: '', size: 1 }] }), who, 'preupload');
      hidden(t, await api.commit('model', 'alice/secret', 'main', 'x', [{ add: 'x', content: 'x' }]), who, 'create_commit');
      hidden(t, await api.call('POST', '/api/models/alice/secret/discussions', { title: 't', description: 'd', pullRequest: false }), who, 'create_discussion');
    }
  }
  // snapshot_download is repo_info + list_repo_tree + the files: each answered above; the owner gets all three.
  const info = await alice.call<{ sha: string; siblings: unknown[] }>('GET', '/api/models/alice/secret/revision/main');
  t.equal(info.body.sha, withLfs.body.commitOid);
  t.equal((await alice.call('GET', '/api/models/alice/secret/tree/main?recursive=true')).status, 200);
  t.equal((await fetch(`${hub.url}/alice/secret/resolve/main/model.bin`, { headers: { authorization: `Bearer ${ALICE.token}` } }).then((r) => r.text())), lfsContent.toString(), 'the owner downloads the LFS file');
  t.equal((await alice.call('GET', '/api/models/alice/secret/auth-check')).status, 200);
});

t.test('git clone and fetch of a private repo: git asks anonymous callers for credentials, others get 404', async (t) => {
  const dir = tempDir(t);
  const hub = await startHub({ users: [ALICE, BOB] });
  t.teardown(() => hub.close());
  await hub.createRepo('alice', 'model', 'alice/secret', { private: true });
  await hub.commit('alice', 'model', 'alice/secret', { 'a.txt': 'a\n' });
  for (const service of ['git-upload-pack', 'git-receive-pack']) {
    const anon = await fetch(`${hub.url}/alice/secret.git/info/refs?service=${service}`);
    t.equal(anon.status, 401, `${service} anonymously: 401`);
    t.match(anon.headers.get('www-authenticate'), /^Basic /, 'which makes git ask for credentials');
    const bob = await fetch(`${hub.url}/alice/secret.git/info/refs?service=${service}`, { headers: { authorization: `Basic ${Buffer.from(`bob:${BOB.token}`).toString('base64')}` } });
    t.equal(bob.status, 404, `${service} as bob: 404`);
  }
  const bob = gitUser(join(dir, 'bob'), { url: hub.url, user: 'bob', token: BOB.token });
  const clone = await bob.run(['clone', '--quiet', `${hub.url}/alice/secret`, 'secret'], dir);
  t.not(clone.code, 0, 'bob cannot clone');
  t.match(clone.stderr, /not found|404/i);
  const alice = gitUser(join(dir, 'alice'), { url: hub.url, user: 'alice', token: ALICE.token });
  t.equal((await alice.run(['clone', '--quiet', `${hub.url}/alice/secret`, 'mine'], dir)).code, 0, 'its owner clones it');
});

t.test('update_repo_settings: visibility, private and gated, persisted; a webhook of another user never sees a private repo', async (t) => {
  const dir = tempDir(t);
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  let hub = await startHub({ users: [ALICE, BOB], dataDir: dir });
  const alice = () => hfClient(hub.url, ALICE.token);
  await hub.createRepo('alice', 'model', 'alice/m');
  // Bob watches Alice's namespace; Alice watches her repo.
  const bobHook = await hfClient(hub.url, BOB.token).call<{ webhook: { id: string } }>('POST', '/api/settings/webhooks', { watched: [{ type: 'user', name: 'alice' }], url: `${rx.url}/bob` });
  const aliceHook = await alice().call<{ webhook: { id: string } }>('POST', '/api/settings/webhooks', { watched: [{ type: 'model', name: 'alice/m' }], url: `${rx.url}/alice` });
  t.equal(bobHook.status, 200);
  t.equal(aliceHook.status, 200);

  t.equal((await alice().call('PUT', '/api/models/alice/m/settings', { visibility: 'private' })).status, 200, 'update_repo_settings(visibility="private")');
  t.equal((await hfClient(hub.url, null).call('GET', '/api/models/alice/m')).status, 401);
  await hub.commit('alice', 'model', 'alice/m', { 'secret.txt': 'private change' });
  await hub.idle();
  t.same(rx.received.filter((r) => r.path === '/bob').map((r) => (r.body.event as { scope: string }).scope), [], "bob's webhook got nothing of the private repo");
  t.same(rx.received.filter((r) => r.path === '/alice').map((r) => (r.body.event as { scope: string }).scope), ['repo.config', 'repo.content'], "alice's webhook got the settings change and the commit");
  t.match(rx.received.find((r) => r.path === '/alice')?.body, { updatedConfig: { private: true }, repo: { private: true } });

  // gated: persisted through settings and a restart; repo info says so.
  t.equal((await alice().call('PUT', '/api/models/alice/m/settings', { gated: 'auto' })).status, 200);
  t.equal((await alice().call('PUT', '/api/models/alice/m/settings', { gated: 'sometimes' })).status, 400, 'an unknown gated value is refused');
  t.equal((await alice().call('PUT', '/api/models/alice/m/settings', { visibility: 'protected' })).status, 400, 'protected is for Spaces');
  t.equal((await alice().call('PUT', '/api/models/alice/m/settings', { private: false })).status, 200, 'the older private flag');
  await hub.close();
  hub = await startHub({ users: [ALICE, BOB], dataDir: dir });
  t.teardown(() => hub.close());
  t.match((await alice().call('GET', '/api/models/alice/m')).body, { private: false, gated: 'auto' }, 'after a restart: public, gated');
  rx.received.length = 0;
  await hub.commit('alice', 'model', 'alice/m', { 'public.txt': 'public change' });
  await rx.waitFor(2);
  t.same(rx.received.map((r) => r.path).sort(), ['/alice', '/bob'], 'public again: both webhooks receive the commit');

  // A gated repo: its page (info, tree, README) is public; its files are the owner's.
  const bob = hfClient(hub.url, BOB.token);
  t.equal((await bob.call('GET', '/api/models/alice/m')).status, 200);
  const gatedFile = await bob.call('GET', '/alice/m/resolve/main/public.txt');
  t.equal(gatedFile.status, 403, 'another user: 403');
  t.equal(gatedFile.headers.get('x-error-code'), 'GatedRepo');
  const gatedAnon = await hfClient(hub.url, null).call('GET', '/alice/m/resolve/main/public.txt');
  t.equal(gatedAnon.status, 401, 'anonymous: 401');
  t.equal(gatedAnon.headers.get('x-error-code'), 'GatedRepo');
  t.equal((await bob.call('GET', '/api/models/alice/m/auth-check')).headers.get('x-error-code'), 'GatedRepo', 'auth_check raises GatedRepoError');
  t.equal((await alice().call('GET', '/alice/m/resolve/main/public.txt')).status, 200, 'the owner reads');
  await hub.idle();
});

t.test('a Space can be protected: its files are private to its owner', async (t) => {
  const hub = await startHub({ users: [ALICE, BOB] });
  t.teardown(() => hub.close());
  const alice = hfClient(hub.url, ALICE.token);
  t.equal((await alice.call('POST', '/api/repos/create', { name: 'app', organization: 'alice', type: 'space', sdk: 'gradio', visibility: 'protected' })).status, 200);
  t.equal((await alice.call('POST', '/api/repos/create', { name: 'm', organization: 'alice', visibility: 'protected' })).status, 400, 'a protected model is refused');
  t.match((await alice.call('GET', '/api/spaces/alice/app')).body, { private: true });
  t.equal((await hfClient(hub.url, BOB.token).call('GET', '/spaces/alice/app/resolve/main/README.md')).status, 404);
  t.equal((await alice.call('POST', '/api/repos/create', { name: 'x', organization: 'alice', visibility: 'secret' })).status, 400, 'an unknown visibility is refused');
});
