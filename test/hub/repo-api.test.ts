import t from 'tap';
import { startHub } from '../../runtime/hub/server.js';
import { hfClient } from './hf-client.js';

// The official client's repository calls, field by field: what it sends, and
// the keys it reads from each answer (hf_api.py). Run against the embedded hub.

const DUMMY = { name: '__DUMMY_HUB_USER__', token: 'hf_dummy_token_for_the_official_tests' };
const OTHER = { name: 'other', token: 'hf_other_token_0000000000000' };

t.test('create, info, validate-yaml, commits, delete files and folders, tree, file exists', async (t) => {
  const hub = await startHub({ users: [DUMMY, OTHER] });
  t.teardown(() => hub.close());
  const api = hfClient(hub.url, DUMMY.token);
  const anon = hfClient(hub.url, null);
  const id = `${DUMMY.name}/repo-1`;

  const created = await api.call<{ url: string }>('POST', '/api/repos/create', { name: 'repo-1', organization: DUMMY.name, private: false, type: 'model' });
  t.equal(created.status, 200);
  t.equal(created.body.url, `${hub.url}/${id}`);
  const again = await api.call<{ url: string }>('POST', '/api/repos/create', { name: 'repo-1', organization: DUMMY.name, private: false, type: 'model' });
  t.equal(again.status, 409, 'create of an existing repo is 409');
  t.equal(again.body.url, `${hub.url}/${id}`, 'with the url create_repo(exist_ok=True) reads');

  t.same((await api.call('POST', '/api/validate-yaml', { content: '---\nlicense: mit\n---\n# hi', repoType: 'model' })).body, { errors: [], warnings: [] });
  const badYaml = await api.call<{ errors: { message: string }[] }>('POST', '/api/validate-yaml', { content: '---\nlicense: [mit\n---\n', repoType: 'model' });
  t.equal(badYaml.status, 400);
  t.match(badYaml.body.errors[0]?.message, /line/, 'errors[].message as _validate_yaml joins them');

  const pre = await api.call<{ files: { path: string; uploadMode: string; shouldIgnore: boolean }[] }>('POST', `/api/models/${id}/preupload/main`, { files: [{ path: 'a/b.txt', sample: '', size: 1 }] });
  t.same(pre.body.files, [{ path: 'a/b.txt', uploadMode: 'regular', shouldIgnore: false }]);
  const c1 = await api.commit('model', id, 'main', 'Upload files', [{ add: 'a/b.txt', content: 'b' }, { add: 'a/c/d.txt', content: 'dd' }, { add: 'empty.txt', content: '' }, { add: 'top.txt', content: 'top' }]);
  t.equal(c1.status, 200);
  t.match(c1.body, { commitOid: /^[0-9a-f]{40}$/, commitUrl: `${hub.url}/${id}/commit/${c1.body.commitOid}` });

  const info = await anon.call<{ sha: string; siblings: { rfilename: string; size?: number; blobId?: string }[]; lastModified: string; private: boolean; id: string }>('GET', `/api/models/${id}`);
  t.equal(info.body.sha, c1.body.commitOid);
  t.equal(info.body.id, id);
  t.same(info.body.siblings.map((s) => s.rfilename), ['.gitattributes', 'a/b.txt', 'a/c/d.txt', 'empty.txt', 'top.txt']);
  t.ok(Number.isFinite(Date.parse(info.body.lastModified)), 'lastModified is a date');
  const withBlobs = await anon.call<{ siblings: { rfilename: string; size: number; blobId: string }[] }>('GET', `/api/models/${id}?blobs=true`);
  t.match(withBlobs.body.siblings.find((s) => s.rfilename === 'a/c/d.txt'), { size: 2, blobId: /^[0-9a-f]{40}$/ }, 'files_metadata=True');

  const head = await fetch(`${hub.url}/${id}/resolve/main/empty.txt`, { method: 'HEAD' });
  t.equal(head.status, 200, 'file_exists: an empty file exists');
  t.equal(head.headers.get('x-repo-commit'), c1.body.commitOid);
  t.match(head.headers.get('etag'), /^"[0-9a-f]{40}"$/);
  t.equal(head.headers.get('content-length'), '0');
  const headTop = await fetch(`${hub.url}/${id}/resolve/main/top.txt`, { method: 'HEAD' });
  t.equal(headTop.headers.get('content-length'), '3');
  const missing = await fetch(`${hub.url}/${id}/resolve/main/nope.txt`, { method: 'HEAD' });
  t.equal(missing.status, 404);
  t.equal(missing.headers.get('x-error-code'), 'EntryNotFound', 'file_exists reads EntryNotFound as False');

  const root = await anon.call<{ type: string; path: string; oid: string; size: number }[]>('GET', `/api/models/${id}/tree/main`);
  t.same(root.body.map((e) => `${e.type}:${e.path}`), ['file:.gitattributes', 'directory:a', 'file:empty.txt', 'file:top.txt'], 'one level by default');
  const rec = await anon.call<{ type: string; path: string }[]>('GET', `/api/models/${id}/tree/main/a?recursive=true`);
  t.same(rec.body.map((e) => e.path).sort(), ['a/b.txt', 'a/c', 'a/c/d.txt']);
  const expanded = await anon.call<{ path: string; lastCommit: { id: string; title: string; date: string } }[]>('GET', `/api/models/${id}/tree/main?expand=true`);
  t.match(expanded.body.find((e) => e.path === 'a'), { lastCommit: { id: c1.body.commitOid, title: 'Upload files', date: String } });
  t.equal((await anon.call('GET', `/api/models/${id}/tree/main/nope`)).status, 404);

  const c2 = await api.commit('model', id, 'main', 'Delete a folder and a file', [{ delFolder: 'a/' }, { del: 'top.txt' }]);
  t.equal(c2.status, 200);
  const after = await anon.call<{ siblings: { rfilename: string }[] }>('GET', `/api/models/${id}`);
  t.same(after.body.siblings.map((s) => s.rfilename), ['.gitattributes', 'empty.txt'], 'delete_folder and delete_file');

  const priv = await api.call('POST', '/api/repos/create', { name: 'hidden', organization: null, private: true, type: 'dataset' });
  t.equal(priv.status, 200);
  t.equal((await hfClient(hub.url, OTHER.token).call('GET', `/api/datasets/${DUMMY.name}/hidden`)).status, 404, 'a private repo is invisible to others');
  const anonHidden = await anon.call('GET', `/api/datasets/${DUMMY.name}/hidden`);
  t.equal(anonHidden.status, 401, 'asked without a token, the Hub answers 401');
  t.equal(anonHidden.headers.get('x-error-code'), 'RepoNotFound');
  t.equal((await api.call('GET', `/api/datasets/${DUMMY.name}/hidden`)).status, 200, 'and visible to its owner');
});

t.test('branches, tags, refs and the commit list', async (t) => {
  const hub = await startHub({ users: [DUMMY] });
  t.teardown(() => hub.close());
  const api = hfClient(hub.url, DUMMY.token);
  const id = `${DUMMY.name}/refs`;
  await api.call('POST', '/api/repos/create', { name: 'refs', type: 'model' });
  const c1 = await api.commit('model', id, 'main', 'Upload `file.txt` with huggingface_hub', [{ add: 'file.txt', content: '1' }]);

  t.equal((await api.call('POST', `/api/models/${id}/branch/dev`, {})).status, 200);
  t.equal((await api.call('POST', `/api/models/${id}/branch/dev`, {})).status, 409, 'create_branch(exist_ok=False) of an existing branch');
  const onDev = await api.commit('model', id, 'dev', 'On dev', [{ add: 'dev.txt', content: 'd' }]);
  t.equal(onDev.status, 200, 'a commit to a branch');
  t.equal((await api.call('POST', `/api/models/${id}/tag/${c1.body.commitOid}`, { tag: 'v1.0', message: 'first' })).status, 200);
  t.equal((await api.call('POST', `/api/models/${id}/tag/main`, { tag: 'v1.0' })).status, 409);

  const refs = await api.call<{ branches: { name: string; ref: string; targetCommit: string }[]; tags: { name: string; ref: string; targetCommit: string }[]; converts: unknown[]; pullRequests?: unknown[] }>('GET', `/api/models/${id}/refs?include_prs=1`);
  t.same(refs.body.branches.map((b) => [b.name, b.ref, b.targetCommit]), [['dev', 'refs/heads/dev', onDev.body.commitOid], ['main', 'refs/heads/main', c1.body.commitOid]]);
  t.same(refs.body.tags, [{ name: 'v1.0', ref: 'refs/tags/v1.0', targetCommit: c1.body.commitOid }]);
  t.same(refs.body.converts, []);
  t.same(refs.body.pullRequests, []);
  t.equal((await hfClient(hub.url, DUMMY.token).call('GET', `/${id}/resolve/v1.0/file.txt`)).body, 1, 'a tag resolves');

  const commits = await api.call<{ id: string; title: string; message: string; date: string; authors: { user: string }[]; formatted: { title: string; message: string } }[]>('GET', `/api/models/${id}/commits/main?expand%5B%5D=formatted`);
  t.same(commits.body.map((c) => c.title), ['Upload `file.txt` with huggingface_hub', 'initial commit']);
  t.match(commits.body[0], { id: c1.body.commitOid, authors: [{ user: DUMMY.name }], date: String });
  t.equal(commits.body[0]?.formatted.title, 'Upload <code>file.txt</code> with huggingface_hub', 'formatted titles');

  t.equal((await api.call('DELETE', `/api/models/${id}/branch/dev`)).status, 200);
  t.equal((await api.call('DELETE', `/api/models/${id}/tag/v1.0`)).status, 200);
  t.equal((await api.call('DELETE', `/api/models/${id}/branch/main`)).status, 400, 'the default branch stays');
  const left = await api.call<{ branches: { name: string }[]; tags: unknown[] }>('GET', `/api/models/${id}/refs`);
  t.same(left.body.branches.map((b) => b.name), ['main']);
  t.same(left.body.tags, []);
  t.equal((await api.call('POST', `/api/models/${id}/branch/..%2Fx`, {})).status, 400, 'a branch name git refuses');
});

t.test('duplicate a Space', async (t) => {
  const hub = await startHub({ users: [DUMMY, OTHER] });
  t.teardown(() => hub.close());
  const api = hfClient(hub.url, DUMMY.token);
  await api.call('POST', '/api/repos/create', { name: 'src', type: 'space', sdk: 'gradio' });
  await api.commit('space', `${DUMMY.name}/src`, 'main', 'app', [{ add: 'app.py', content: 'print(1)' }]);
  const other = hfClient(hub.url, OTHER.token);
  const dup = await other.call<{ url: string }>('POST', `/api/spaces/${DUMMY.name}/src/duplicate`, { repository: 'other/copy' });
  t.equal(dup.status, 200);
  t.equal(dup.body.url, `${hub.url}/spaces/other/copy`);
  const info = await other.call<{ siblings: { rfilename: string }[] }>('GET', '/api/spaces/other/copy');
  t.same(info.body.siblings.map((s) => s.rfilename), ['.gitattributes', 'README.md', 'app.py']);
  const again = await other.call<{ url: string }>('POST', `/api/spaces/${DUMMY.name}/src/duplicate`, { repository: 'other/copy' });
  t.equal(again.status, 409);
  t.equal(again.body.url, `${hub.url}/spaces/other/copy`, 'duplicate_space(exist_ok=True) reads url');
});

t.test('concurrent creates of one repo: one wins, the others get 409, reads meanwhile never fail', async (t) => {
  const hub = await startHub({ users: [DUMMY] });
  t.teardown(() => hub.close());
  const api = hfClient(hub.url, DUMMY.token);
  const creates = Array.from({ length: 5 }, () => api.call('POST', '/api/repos/create', { name: 'race', type: 'space' }));
  const reads = Array.from({ length: 5 }, () => api.call('GET', `/api/spaces/${DUMMY.name}/race`));
  const gits = Array.from({ length: 3 }, () => fetch(`${hub.url}/spaces/${DUMMY.name}/race/info/refs?service=git-upload-pack`));
  const statuses = (await Promise.all(creates)).map((r) => r.status).sort();
  t.same(statuses, [200, 409, 409, 409, 409]);
  for (const r of await Promise.all(reads)) t.ok(r.status === 200 || r.status === 404, `a read during the create answers ${r.status}`);
  for (const r of await Promise.all(gits)) t.ok(r.status === 200 || r.status === 401, `git during the create answers ${r.status}`);
});
