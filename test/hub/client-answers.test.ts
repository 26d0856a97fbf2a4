import t from 'tap';
import { startHub } from '../../runtime/hub/server.js';
import { hfClient } from './hf-client.js';

// Issue 33 (second pass, part B): the embedded hub answers huggingface_hub's
// requests as the Hub does — the requests built as hf_api.py builds them, the
// keys and headers the client reads checked (utils/_http.py's error mapping,
// RepoFile, list_models' paginate, list_user_repos, get_repo_discussions).

const DUMMY = { name: '__DUMMY_HUB_USER__', token: 'hf_dummy_token_for_the_official_tests', fullname: 'Dummy User' };
const OTHER = { name: 'DVUser', token: 'hf_other_token_0000000000000' };

async function hubWithUsers(t: { teardown(fn: () => unknown): void }) {
  const hub = await startHub({ users: [DUMMY, OTHER] });
  t.teardown(() => hub.close());
  return { hub, api: hfClient(hub.url, DUMMY.token), other: hfClient(hub.url, OTHER.token), anon: hfClient(hub.url, null) };
}

t.test('errors carry X-Request-Id, X-Error-Code and the Hub\'s words', async (t) => {
  const { hub, api } = await hubWithUsers(t);
  await hub.createRepo(DUMMY.name, 'model', `${DUMMY.name}/m`);

  // repo_exists("repo-that-does-not-exist") and list_repo_commits("missing_repo_id"): a one-part id.
  for (const path of ['/api/models/missing_repo_id', '/api/models/missing_repo_id/commits/main', '/repo-that-does-not-exist/resolve/main/file.txt', `/api/models/${DUMMY.name}/nope`]) {
    const r = await api.call<{ error: string }>('GET', path);
    t.equal(r.status, 404, path);
    t.equal(r.headers.get('x-error-code'), 'RepoNotFound', `${path}: RepositoryNotFoundError`);
    t.equal(r.body.error, 'Repository not found', 'the words the client leaves out of its own message');
  }
  const del = await api.call('DELETE', '/api/repos/delete', { name: 'repo-that-does-not-exist', organization: null, type: 'model' });
  t.equal(del.status, 404);
  t.match(del.headers.get('x-request-id'), /^[0-9a-f-]{36}$/, 'every answer names itself: "(Request ID: …)"');
  t.equal(del.headers.get('x-error-message'), 'Repository not found');

  const tagOnMissing = await api.call('POST', `/api/models/${DUMMY.name}/m/tag/foobar`, { tag: 'invalid tag' });
  t.equal(tagOnMissing.status, 404, 'a tag on a missing revision is 404 whatever its name');
  t.equal(tagOnMissing.headers.get('x-error-code'), 'RevisionNotFound');

  t.equal((await api.call('POST', `/api/models/${DUMMY.name}/m/branch/cool-branch`, {})).status, 200);
  for (const branch of ['cool-branch', 'main']) {
    const again = await api.call<{ error: string }>('POST', `/api/models/${DUMMY.name}/m/branch/${branch}`, {});
    t.equal(again.status, 409, 'create_branch(exist_ok=True) tells a 409');
    t.equal(again.body.error, `Reference refs/heads/${branch} already exists`);
  }
  const tag = await api.call('POST', `/api/models/${DUMMY.name}/m/tag/main`, { tag: 'v1' });
  t.equal(tag.status, 200);
  t.equal((await api.call<{ error: string }>('POST', `/api/models/${DUMMY.name}/m/tag/main`, { tag: 'v1' })).body.error, 'Reference refs/tags/v1 already exists');
  t.match((await api.call<{ error: string }>('DELETE', `/api/models/${DUMMY.name}/m/branch/main`)).body.error, /^Cannot delete refs\/heads\/main/);

  await hub.createRepo(DUMMY.name, 'model', `${DUMMY.name}/m2`);
  const moved = await api.call<{ error: string }>('POST', '/api/repos/move', { fromRepo: `${DUMMY.name}/m`, toRepo: `${DUMMY.name}/m2`, type: 'model' });
  t.equal(moved.status, 409);
  t.equal(moved.body.error, `A model repository called ${DUMMY.name}/m2 already exists`);

  const relative = await api.commit('model', `${DUMMY.name}/m`, 'main', 'evil', [{ add: '..\\ddd', content: 'x' }]);
  t.equal(relative.status, 422, 'upload_file(path_in_repo="..\\\\ddd") is a 422');
});

t.test('commits: an implicit folder delete, README metadata checked, Range downloads', async (t) => {
  const { hub, api, anon } = await hubWithUsers(t);
  const id = `${DUMMY.name}/c`;
  await api.call('POST', '/api/repos/create', { name: 'c', organization: DUMMY.name, type: 'model' });
  t.equal((await api.commit('model', id, 'main', 'files', [{ add: '1/file_1.md', content: 'a' }, { add: '1/file_2.md', content: 'b' }, { add: 'top.txt', content: '0123456789' }])).status, 200);
  // CommitOperationDelete(path_in_repo="1") sends deletedFile for a folder.
  t.equal((await api.commit('model', id, 'main', 'delete folder', [{ del: '1' }])).status, 200);
  t.equal((await anon.call('GET', `/${id}/resolve/main/1/file_1.md`)).headers.get('x-error-code'), 'EntryNotFound');

  const empty = await api.call<{ errors: unknown[]; warnings: { message: string }[] }>('POST', '/api/validate-yaml', { content: 'This is a modelcard without metadata', repoType: 'model' });
  t.equal(empty.status, 200);
  t.match(empty.body.warnings[0]?.message, /empty or missing yaml metadata/, 'a warning: "Warnings while validating metadata in README.md"');
  const invalid = await api.call<{ errors: { message: string }[] }>('POST', '/api/validate-yaml', { content: '\n---\nmodel-index: foo\n---\n\nThis is a modelcard with an invalid metadata section.\n', repoType: 'model' });
  t.equal(invalid.status, 400, '"Invalid metadata in README.md" (a BadRequestError the client turns into ValueError)');
  t.equal(invalid.body.errors[0]?.message, '"model-index" must be an array');
  const spaceSdk = await api.call<{ errors: { message: string }[] }>('POST', '/api/validate-yaml', { content: '---\nsdk: flask\n---\n', repoType: 'space' });
  t.match(spaceSdk.body.errors[0]?.message, /"sdk" must be one of/);
  const refused = await api.commit('model', id, 'main', 'card', [{ add: 'README.md', content: '---\nmodel-index: foo\n---\n' }]);
  t.equal(refused.status, 400, 'a commit with invalid README metadata is refused');
  t.match((refused.body as unknown as { error: string }).error, /^Invalid metadata in README\.md: "model-index" must be an array/);
  t.equal((await api.commit('model', id, 'main', 'card', [{ add: 'README.md', content: '---\nlicense: mit\ntags: [robot]\n---\n# c\n' }])).status, 200);

  // HfFileSystem resumes a stream with `Range: bytes=N-`.
  const part = await fetch(`${hub.url}/${id}/resolve/main/top.txt`, { headers: { range: 'bytes=6-' } });
  t.equal(part.status, 206);
  t.equal(part.headers.get('content-range'), 'bytes 6-9/10');
  t.equal(await part.text(), '6789');
  const suffix = await fetch(`${hub.url}/${id}/resolve/main/top.txt`, { headers: { range: 'bytes=-3' } });
  t.equal(await suffix.text(), '789');
  const beyond = await fetch(`${hub.url}/${id}/resolve/main/top.txt`, { headers: { range: 'bytes=10-' } });
  t.equal(beyond.status, 416);
  t.equal(beyond.headers.get('content-range'), 'bytes */10');
  await beyond.arrayBuffer();
  const whole = await fetch(`${hub.url}/${id}/resolve/main/top.txt`);
  t.equal(whole.headers.get('accept-ranges'), 'bytes');
  t.equal(await whole.text(), '0123456789');
});

t.test('tree and paths-info: the security block RepoFile reads (avScan, pickleImportScan)', async (t) => {
  const { api, anon } = await hubWithUsers(t);
  const id = `${DUMMY.name}/s`;
  await api.call('POST', '/api/repos/create', { name: 's', organization: DUMMY.name, type: 'model' });
  await api.commit('model', id, 'main', 'files', [{ add: 'data/a.txt', content: 'a' }]);
  type Entry = { path: string; type: string; securityFileStatus?: { status: string; avScan: { status: string }; pickleImportScan: { status: string; pickleImports: unknown[] } } };
  const tree = await anon.call<Entry[]>('GET', `/api/models/${id}/tree/main/data?expand=True`);
  t.match(tree.body[0], { path: 'data/a.txt', securityFileStatus: { status: String, avScan: { status: String }, pickleImportScan: { status: String, pickleImports: [] } } });
  const info = await anon.call<Entry[]>('POST', `/api/models/${id}/paths-info/main`, 'paths=data%2Fa.txt&paths=data&expand=True', { 'content-type': 'application/x-www-form-urlencoded' });
  const file = info.body.find((e) => e.type === 'file');
  t.ok(file?.securityFileStatus?.avScan, 'get_paths_info(expand=True): avScan');
  t.notOk(info.body.find((e) => e.type === 'directory')?.securityFileStatus, 'folders have none');
  const plain = await anon.call<Entry[]>('GET', `/api/models/${id}/tree/main/data`);
  t.notOk(plain.body[0]?.securityFileStatus, 'without expand: no security block (RepoFile.security is None)');
});

t.test('discussions filtered by status, type and author as get_repo_discussions sends them', async (t) => {
  const { api, other } = await hubWithUsers(t);
  const id = `${DUMMY.name}/d`;
  await api.call('POST', '/api/repos/create', { name: 'd', organization: DUMMY.name, type: 'model' });
  const pr = await api.call<{ num: number }>('POST', `/api/models/${id}/discussions`, { title: 'Test Pull Request', description: '', pullRequest: true });
  const disc = await api.call<{ num: number }>('POST', `/api/models/${id}/discussions`, { title: 'Test Discussion', description: '', pullRequest: false });
  const theirs = await other.call<{ num: number }>('POST', `/api/models/${id}/discussions`, { title: 'From DVUser', description: 'hi', pullRequest: false });
  t.equal(theirs.status, 200, 'any reader may open a discussion');
  await api.call('POST', `/api/models/${id}/discussions/${disc.body.num}/status`, { status: 'closed' });
  const nums = async (query: string) => (await api.call<{ discussions: { num: number }[] }>('GET', `/api/models/${id}/discussions?${query}p=0`)).body.discussions.map((d) => d.num);
  t.same(await nums('status=open&'), [theirs.body.num, pr.body.num], 'open holds the draft pull request');
  t.same(await nums('status=closed&'), [disc.body.num]);
  t.same(await nums('status=all&'), [theirs.body.num, disc.body.num, pr.body.num]);
  t.same(await nums('type=pull_request&'), [pr.body.num]);
  t.same(await nums('type=discussion&'), [theirs.body.num, disc.body.num]);
  t.same(await nums(`author=${OTHER.name}&`), [theirs.body.num]);
  t.same(await nums('author=unknown&'), []);
  t.equal((await api.call('GET', `/api/models/${id}/discussions?status=later`)).status, 400, 'an unknown status is a 400');
});

t.test('pull requests: against another branch, refused against a sha, opened by a reader on someone else\'s repo', async (t) => {
  const { hub, api, other } = await hubWithUsers(t);
  const id = `${DUMMY.name}/p`;
  await api.call('POST', '/api/repos/create', { name: 'p', organization: DUMMY.name, type: 'model' });
  await api.call('POST', `/api/models/${id}/branch/test_branch`, {});
  const head = (await api.call<{ branches: { name: string; targetCommit: string }[] }>('GET', `/api/models/${id}/refs`)).body.branches[0]?.targetCommit ?? '';
  const againstBranch = await api.commit('model', id, 'test_branch', 'PR against existing branch', [{ add: 'file.txt', content: 'content' }], undefined, '?create_pr=1');
  t.equal(againstBranch.status, 200);
  t.match(againstBranch.body.pullRequestUrl, /\/discussions\/1$/);
  const details = await api.call<{ changes: { base: string } }>('GET', `/api/models/${id}/discussions/1`);
  t.equal(details.body.changes.base, 'refs/heads/test_branch', 'the pull request names its base');
  for (const rev of [head, 'missing_branch']) {
    const refused = await api.commit('model', id, rev, 'PR against', [{ add: 'file.txt', content: 'content' }], undefined, '?create_pr=1');
    t.equal(refused.status, 404, `create_pr against ${rev === head ? 'a sha' : 'a missing branch'}`);
    t.equal(refused.headers.get('x-error-code'), 'RevisionNotFound');
  }
  t.equal((await api.call('POST', `/api/models/${id}/discussions/1/merge`, {})).status, 200);
  const branchFile = await fetch(`${hub.url}/${id}/resolve/test_branch/file.txt`);
  t.equal(await branchFile.text(), 'content', 'the merge moved test_branch');
  const mainFile = await fetch(`${hub.url}/${id}/resolve/main/file.txt`);
  t.equal(mainFile.status, 404, 'and not main');
  await mainFile.arrayBuffer();

  // DVUser opens a pull request on __DUMMY_HUB_USER__'s repo: preupload, then the commit with create_pr.
  // _fetch_upload_modes sends create_pr=1 too.
  const pre = await other.call<{ files: { uploadMode: string }[] }>('POST', `/api/models/${id}/preupload/main?create_pr=1`, { files: [{ path: 'regular.txt', sample: '', size: 12 }] });
  t.equal(pre.status, 200, 'a reader may preupload for a pull request');
  const foreign = await other.commit('model', id, 'main', 'PR on foreign repo', [{ add: 'regular.txt', content: 'File content' }], undefined, '?create_pr=1');
  t.equal(foreign.status, 200, 'a reader may open a pull request');
  t.equal((await other.commit('model', id, 'main', 'direct', [{ add: 'x.txt', content: 'x' }])).status, 403, 'but not commit to main');
});

t.test('organisations: whoami lists them; only members create and write there', async (t) => {
  const hub = await startHub({ users: [DUMMY, OTHER], orgs: [{ name: 'valid_org_hub', fullname: 'Dummy Hub Org', members: [DUMMY.name] }] });
  t.teardown(() => hub.close());
  const api = hfClient(hub.url, DUMMY.token);
  const other = hfClient(hub.url, OTHER.token);
  const me = await api.call<{ orgs: { name: string; fullname: string }[] }>('GET', '/api/whoami-v2');
  t.match(me.body.orgs, [{ name: 'valid_org_hub', fullname: 'Dummy Hub Org' }], 'test_whoami_with_passing_token reads orgs[].fullname');
  t.same((await other.call<{ orgs: unknown[] }>('GET', '/api/whoami-v2')).body.orgs, []);
  t.equal((await api.call('POST', '/api/repos/create', { name: 'r', organization: 'valid_org_hub', type: 'model' })).status, 200, 'a member creates');
  t.equal((await other.call('POST', '/api/repos/create', { name: 'x', organization: 'valid_org_hub', type: 'model' })).status, 403, 'another user does not');
  t.equal((await other.commit('model', 'valid_org_hub/r', 'main', 'x', [{ add: 'x', content: 'x' }])).status, 403);
  t.equal((await api.commit('model', 'valid_org_hub/r', 'main', 'x', [{ add: 'x', content: 'x' }])).status, 200);
  // list_user_repos(namespace="valid_org_hub"): the organisation's repos its member may write.
  const orgRepos = await api.call<{ id: string }[]>('GET', '/api/organizations/valid_org_hub/settings/repositories');
  t.same(orgRepos.body.map((r) => r.id), ['valid_org_hub/r']);
  t.same((await other.call<unknown[]>('GET', '/api/organizations/valid_org_hub/settings/repositories')).body, [], 'none for a non-member');
  await t.rejects(startHub({ users: [DUMMY], orgs: [{ name: 'o', members: ['nobody'] }] }), /organisation 'o' names unknown member\(s\): nobody/);
});

t.test('whoami names the user in full', async (t) => {
  const { api, other } = await hubWithUsers(t);
  const me = await api.call<{ name: string; fullname: string; type: string; orgs: unknown[]; auth: { accessToken: { role: string } } }>('GET', '/api/whoami-v2');
  t.match(me.body, { name: DUMMY.name, fullname: 'Dummy User', type: 'user', orgs: [], auth: { accessToken: { role: 'write' } } });
  t.equal((await other.call<{ fullname: string }>('GET', '/api/whoami-v2')).body.fullname, OTHER.name, 'the name when no full name was given');
});

t.test('list_models / list_datasets / list_spaces: author, search, filter, sort, limit, expand, full, pages', async (t) => {
  const { hub, api, anon } = await hubWithUsers(t);
  for (const name of ['alpha-bert', 'beta-bert', 'gamma']) await api.call('POST', '/api/repos/create', { name, organization: DUMMY.name, type: 'model' });
  await api.call('POST', '/api/repos/create', { name: 'secret', organization: DUMMY.name, type: 'model', private: true });
  await hub.createRepo(OTHER.name, 'model', `${OTHER.name}/theirs`);
  await hub.createRepo(DUMMY.name, 'dataset', `${DUMMY.name}/data`);
  await hub.createRepo(DUMMY.name, 'space', `${DUMMY.name}/app`, { sdk: 'gradio' });
  await api.commit('model', `${DUMMY.name}/gamma`, 'main', 'card', [{ add: 'README.md', content: '---\nlibrary_name: transformers\npipeline_tag: robotics\nlicense: mit\ntags: [robot]\n---\n' }]);

  type Item = Record<string, unknown> & { id: string };
  const ids = (items: Item[]) => items.map((m) => m.id);
  // list_models(author=USER, sort="created_at", limit=100) as test_list_private_models sends it.
  const anonList = await anon.call<Item[]>('GET', `/api/models?author=${DUMMY.name}&sort=createdAt&limit=100`);
  t.same(ids(anonList.body), [`${DUMMY.name}/gamma`, `${DUMMY.name}/beta-bert`, `${DUMMY.name}/alpha-bert`], 'newest first; no private repo without a token');
  const mine = await api.call<Item[]>('GET', `/api/models?author=${DUMMY.name}&sort=createdAt&limit=100`);
  t.ok(ids(mine.body).includes(`${DUMMY.name}/secret`), 'its owner sees the private repo');
  t.same(Object.keys(anonList.body[0] ?? {}).sort(), ['_id', 'createdAt', 'downloads', 'id', 'library_name', 'likes', 'modelId', 'pipeline_tag', 'private', 'tags', 'trendingScore'], 'the Hub\'s default keys');
  t.same(anonList.body[0]?.tags, ['robot', 'transformers', 'robotics', 'license:mit'], 'tags derived from the card');
  t.same(ids((await anon.call<Item[]>('GET', '/api/models?pipeline_tag=robotics')).body), [`${DUMMY.name}/gamma`]);

  t.same(ids((await anon.call<Item[]>('GET', '/api/models?search=bert')).body).sort(), [`${DUMMY.name}/alpha-bert`, `${DUMMY.name}/beta-bert`]);
  t.same(ids((await anon.call<Item[]>('GET', '/api/models?filter=robot&filter=license%3Amit')).body), [`${DUMMY.name}/gamma`], 'every filter must match');
  t.same(ids((await anon.call<Item[]>('GET', '/api/models?sort=id&direction=1')).body), [`${OTHER.name}/theirs`, `${DUMMY.name}/alpha-bert`, `${DUMMY.name}/beta-bert`, `${DUMMY.name}/gamma`], 'sort=id, direction=1: ascending');
  const expanded = await anon.call<Item[]>('GET', `/api/models?author=${DUMMY.name}&expand=sha&expand=lastModified`);
  t.same(Object.keys(expanded.body[0] ?? {}).sort(), ['_id', 'id', 'lastModified', 'sha'], 'expand: only those properties');
  t.equal((await anon.call('GET', '/api/models?expand=nonsense')).status, 400);
  const full = await anon.call<Item[]>('GET', `/api/models?author=${DUMMY.name}&full=True`);
  t.ok(Array.isArray(full.body[0]?.siblings), 'full: siblings and the rest');

  const first = await anon.call<Item[]>('GET', `/api/models?author=${DUMMY.name}&sort=createdAt&limit=2`);
  t.equal(first.body.length, 2);
  const link = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '');
  t.ok(link, 'a Link header to the next page');
  const next = await fetch(link?.[1] ?? '');
  t.same(ids(await next.json() as Item[]), [`${DUMMY.name}/alpha-bert`]);
  t.equal(next.headers.get('link'), null, 'no Link on the last page');

  t.same(ids((await anon.call<Item[]>('GET', `/api/datasets?author=${DUMMY.name}`)).body), [`${DUMMY.name}/data`]);
  const spaces = await anon.call<Item[]>('GET', `/api/spaces?author=${DUMMY.name}`);
  t.match(spaces.body, [{ id: `${DUMMY.name}/app`, sdk: 'gradio' }]);

  // list_user_repos: `hf repos list`.
  const repos = await api.call<{ id: string; type: string; updatedAt: string; visibility: string; storage: number; storagePercent: number }[]>('GET', '/api/settings/repositories');
  t.same(repos.body.map((r) => `${r.type}:${r.id}`).sort(), ['dataset:__DUMMY_HUB_USER__/data', 'model:__DUMMY_HUB_USER__/alpha-bert', 'model:__DUMMY_HUB_USER__/beta-bert', 'model:__DUMMY_HUB_USER__/gamma', 'model:__DUMMY_HUB_USER__/secret', 'space:__DUMMY_HUB_USER__/app']);
  t.match(repos.body.find((r) => r.id.endsWith('/secret')), { visibility: 'private', storage: Number, storagePercent: Number, updatedAt: String });
  t.equal((await anon.call('GET', '/api/settings/repositories')).status, 401, 'needs a token');
});
