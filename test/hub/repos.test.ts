import t from 'tap';
import { startHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { ALICE, BOB, raw } from './helpers.js';

t.test('repos through the driver: create, info, commit, download, delete', async (t) => {
  const hub = await startHub({ users: [ALICE, BOB] });
  t.teardown(() => hub.close());
  const alice = createHubClient({ endpoint: hub.url, token: ALICE.token });
  const anon = createHubClient({ endpoint: hub.url, token: null });
  t.teardown(() => Promise.all([alice.close(), anon.close()]));

  t.equal(await alice.repoInfo('space', 'alice/app'), null, 'missing repo is null');
  const { url } = await alice.createRepo('space', 'alice/app', { spaceSdk: 'docker' });
  t.equal(url, `${hub.url}/spaces/alice/app`);
  await t.rejects(alice.createRepo('space', 'alice/app'), { name: 'HubError', status: 409 });
  t.same(await alice.createRepo('space', 'alice/app', { existOk: true }), { url });

  const readme = '---\nsdk: docker\ntags:\n  - reachy_mini\n  - reachy_mini_python_app\n---\n# app\n';
  const c1 = await alice.commit('space', 'alice/app', [
    { op: 'add', path: 'README.md', content: Buffer.from(readme) },
    { op: 'add', path: 'src/app/main.py', content: Buffer.from('print("hi")\n') },
  ], 'first');
  const info = await anon.repoInfo('space', 'alice/app');
  t.equal(info?.sha, c1.commitOid);
  t.same(info?.siblings.map((s) => s.rfilename), ['.gitattributes', 'README.md', 'src/app/main.py']);
  t.same(info?.tags, ['reachy_mini', 'reachy_mini_python_app', 'docker'], 'tags from README front matter, then the sdk (as the Hub derives them)');
  t.equal(info?.sdk, 'docker');
  t.equal((await anon.downloadFile('space', 'alice/app', 'src/app/main.py')).toString(), 'print("hi")\n');

  // Not a .bin: the Hub's .gitattributes sends those through LFS, which the driver does not upload.
  const c2 = await alice.commit('space', 'alice/app', [{ op: 'delete', path: 'src/app/main.py' }, { op: 'add', path: 'x.dat', content: Buffer.from([0, 1, 2, 255]) }], 'second');
  t.not(c2.commitOid, c1.commitOid);
  t.same([...(await anon.downloadFile('space', 'alice/app', 'x.dat'))], [0, 1, 2, 255], 'binary content round-trips');
  await t.rejects(anon.downloadFile('space', 'alice/app', 'src/app/main.py'), { name: 'HubError', status: 404, code: 'EntryNotFound' });
  t.equal((await anon.downloadFile('space', 'alice/app', 'src/app/main.py', c1.commitOid)).toString(), 'print("hi")\n', 'old revision by sha');

  const head = await fetch(`${hub.url}/spaces/alice/app/resolve/main/x.dat`, { method: 'HEAD' });
  t.equal(head.headers.get('x-repo-commit'), c2.commitOid, 'X-Repo-Commit for hf_hub_download');
  t.match(head.headers.get('etag'), /^"[0-9a-f]{40}"$/);

  const bob = createHubClient({ endpoint: hub.url, token: BOB.token });
  t.teardown(() => bob.close());
  await t.rejects(bob.commit('space', 'alice/app', [{ op: 'add', path: 'a', content: Buffer.from('') }], 'x'), { name: 'HubError', status: 403 });
  await t.rejects(alice.commit('space', 'alice/app', [{ op: 'delete', path: 'nope' }], 'x'), { name: 'HubError', status: 400 });
  await t.rejects(alice.commit('space', 'alice/app', [{ op: 'add', path: '../evil', content: Buffer.from('') }], 'x'), { name: 'HubError', status: 422 });

  await alice.createRepo('model', 'alice/private-m', { private: true });
  t.equal(await bob.repoInfo('model', 'alice/private-m'), null, 'a private repo is invisible to others');
  t.ok(await alice.repoInfo('model', 'alice/private-m'));

  const del = await raw(`${hub.url}/api/repos/delete`, 'DELETE', ALICE.token, { name: 'app', organization: 'alice', type: 'space' });
  t.equal(del.status, 200);
  t.equal(await alice.repoInfo('space', 'alice/app'), null);
});

t.test('the NDJSON commit in the exact form of huggingface_hub, and preupload', async (t) => {
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  await raw(`${hub.url}/api/repos/create`, 'POST', ALICE.token, { name: 'ds', organization: null, private: false, type: 'dataset' });
  const pre = await raw(`${hub.url}/api/datasets/alice/ds/preupload/main`, 'POST', ALICE.token, { files: [{ path: 'a.csv', sample: Buffer.from('a,b').toString('base64'), size: 3 }] });
  t.match(pre.json, { files: [{ path: 'a.csv', uploadMode: 'regular', shouldIgnore: false }] });
  const lines = [
    { key: 'header', value: { summary: 'Upload a.csv', description: '' } },
    { key: 'file', value: { content: Buffer.from('a,b\n1,2\n').toString('base64'), path: 'a.csv', encoding: 'base64' } },
  ].map((l) => JSON.stringify(l)).join('\n');
  const res = await fetch(`${hub.url}/api/datasets/alice/ds/commit/main`, { method: 'POST', headers: { authorization: `Bearer ${ALICE.token}`, 'content-type': 'application/x-ndjson' }, body: lines });
  t.equal(res.status, 200);
  const body = (await res.json()) as { commitOid: string; commitUrl: string };
  t.match(body, { commitOid: /^[0-9a-f]{40}$/, commitUrl: `${hub.url}/datasets/alice/ds/commit/${body.commitOid}` });
  t.equal(await (await fetch(`${hub.url}/datasets/alice/ds/resolve/main/a.csv`)).text(), 'a,b\n1,2\n');
  const lfs = await fetch(`${hub.url}/api/datasets/alice/ds/commit/main`, { method: 'POST', headers: { authorization: `Bearer ${ALICE.token}`, 'content-type': 'application/x-ndjson' }, body: `${JSON.stringify({ key: 'header', value: { summary: 's' } })}\n${JSON.stringify({ key: 'lfsFile', value: { path: 'big.bin', algo: 'sha256', oid: 'x' } })}` });
  t.equal(lfs.status, 400, 'an lfsFile line with an invalid oid');
  // The Hub answers a missing repo 401 without a token and 404 with one, RepoNotFound both times.
  const missing = await raw(`${hub.url}/api/models/alice/none`, 'GET', null);
  t.equal(missing.status, 401);
  t.equal(missing.headers.get('x-error-code'), 'RepoNotFound');
  const missingAuthed = await raw(`${hub.url}/api/models/alice/none`, 'GET', ALICE.token);
  t.equal(missingAuthed.status, 404);
  t.equal(missingAuthed.headers.get('x-error-code'), 'RepoNotFound');
  t.equal((await raw(`${hub.url}/api/whoami-v2`, 'GET', ALICE.token)).json && (await raw(`${hub.url}/api/whoami-v2`, 'GET', ALICE.token)).status, 200);
});
