import t from 'tap';
import { createHash, randomBytes } from 'node:crypto';
import { startHub } from '../../runtime/hub/server.js';
import { ALICE, BOB } from './helpers.js';
import { hfClient } from './hf-client.js';
import { lfsClient, sha256 } from './lfs-client.js';

// LFS through the API, with the requests huggingface_hub sends for
// upload_file / create_commit of a large or LFS-tracked file (preupload, the
// batch API, the PUT and verify, the `lfsFile` commit line) and for
// hf_hub_download / snapshot_download (repo info, tree, resolve with ranges).

/** git's blob id, what preupload's `oid` holds for a regular file (the client's sha.git_hash). */
function gitBlobId(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

t.test('a 20 MB file through the LFS batch API round-trips', async (t) => {
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  await hub.createRepo('alice', 'model', 'alice/big');
  const api = hfClient(hub.url, ALICE.token);
  const lfs = lfsClient(hub.url, ALICE.token);
  const content = randomBytes(20 * 1024 * 1024);
  const oid = sha256(content);

  const pre = await lfs.preupload('model', 'alice/big', [{ path: 'weights.dat', content }]);
  t.same(pre.body.files, [{ path: 'weights.dat', uploadMode: 'lfs', shouldIgnore: false }], 'over 10 MB: lfs, whatever the name');
  const batch = await lfs.batch('model', 'alice/big', 'upload', [{ oid, size: content.length }]);
  t.equal(batch.status, 200);
  t.match(batch.headers.get('content-type'), /^application\/vnd\.git-lfs\+json/);
  t.equal(batch.body.transfer, 'basic', 'the basic transfer (no multipart, no xet)');
  const obj = batch.body.objects[0];
  t.match(obj, { oid, size: content.length, actions: { upload: { href: /^http:\/\/127\.0\.0\.1:\d+\/alice\/big\.git\/info\/lfs\/objects\// }, verify: { href: /\/verify\?/ } } });
  t.notOk(obj?.actions?.upload?.header?.chunk_size, 'no chunk_size: a single PUT');
  t.same(await lfs.transfer(obj ?? { oid, size: 0 }, content), { put: 200, verify: 200 }, 'PUT without a token, verify with it');
  const again = await lfs.batch('model', 'alice/big', 'upload', [{ oid, size: content.length }]);
  t.notOk(again.body.objects[0]?.actions, 'an object the repo has needs no upload');
  const commit = await lfs.commitLfs('model', 'alice/big', 'Upload weights', [{ path: 'weights.dat', oid, size: content.length }]);
  t.equal(commit.status, 200);

  const info = await api.call<{ siblings: { rfilename: string; size: number; blobId: string; lfs?: unknown }[] }>('GET', '/api/models/alice/big?blobs=true');
  const sibling = info.body.siblings.find((s) => s.rfilename === 'weights.dat');
  t.match(sibling, { size: content.length, blobId: /^[0-9a-f]{40}$/, lfs: { sha256: oid, size: content.length, pointerSize: Number } }, 'siblings[].lfs as files_metadata=True reads it');
  t.notOk(info.body.siblings.find((s) => s.rfilename === '.gitattributes')?.lfs, 'a regular file has no lfs');
  const tree = await api.call<{ path: string; size: number; lfs?: { oid: string; size: number; pointerSize: number } }[]>('GET', '/api/models/alice/big/tree/main');
  t.match(tree.body.find((e) => e.path === 'weights.dat'), { size: content.length, lfs: { oid, size: content.length, pointerSize: Number } }, 'list_repo_tree: lfs {oid, size, pointerSize}');

  const head = await fetch(`${hub.url}/alice/big/resolve/main/weights.dat`, { method: 'HEAD' });
  t.equal(head.headers.get('x-linked-etag'), `"${oid}"`, 'HEAD: X-Linked-Etag is the sha256 (the cache key of hf_hub_download)');
  t.equal(head.headers.get('x-linked-size'), String(content.length));
  t.equal(head.headers.get('content-length'), String(content.length));
  t.equal(head.headers.get('x-repo-commit'), commit.body.commitOid);
  const got = Buffer.from(await (await fetch(`${hub.url}/alice/big/resolve/main/weights.dat`)).arrayBuffer());
  t.equal(sha256(got), oid, 'resolve serves the content, not the pointer');
  const part = await fetch(`${hub.url}/alice/big/resolve/main/weights.dat`, { headers: { range: `bytes=${content.length - 10}-` } });
  t.equal(part.status, 206, 'a resumed download gets the rest');
  t.equal(part.headers.get('content-range'), `bytes ${content.length - 10}-${content.length - 1}/${content.length}`);
  t.same(Buffer.from(await part.arrayBuffer()), content.subarray(content.length - 10));
  t.equal((await fetch(`${hub.url}/alice/big/resolve/main/weights.dat`, { headers: { range: `bytes=${content.length}-` } })).status, 416);

  // git-lfs's download: the batch API hands out a link.
  const down = await lfsClient(hub.url, null).batch('model', 'alice/big', 'download', [{ oid, size: content.length }, { oid: 'a'.repeat(64), size: 1 }]);
  t.equal(down.status, 200, 'a public repo downloads anonymously');
  const href = down.body.objects[0]?.actions?.download?.href ?? '';
  t.equal(sha256(Buffer.from(await (await fetch(href)).arrayBuffer())), oid);
  t.match(down.body.objects[1], { error: { code: 404, message: 'Object does not exist' } });
  t.equal((await fetch(href.replace(/sig=[0-9a-f]+/, `sig=${'0'.repeat(64)}`))).status, 403, 'a tampered link is refused');
});

t.test('preupload: lfs by .gitattributes, shouldIgnore by .gitignore, oid of the unchanged file', async (t) => {
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  await hub.createRepo('alice', 'model', 'alice/m');
  const lfs = lfsClient(hub.url, ALICE.token);
  const regular = Buffer.from('Regular file content');
  const large = Buffer.from('LFS content');
  await hub.commit('alice', 'model', 'alice/m', { 'file.txt': regular, '.gitignore': 'nested/*\n*.log\n' });
  t.equal((await lfs.uploadLfs('model', 'alice/m', 'lfs.bin', large)).status, 200);

  const pre = await lfs.preupload('model', 'alice/m', [
    { path: 'file.txt', content: regular }, { path: 'lfs.bin', content: large }, { path: 'image.pkl', content: Buffer.from('x') },
    { path: 'saved_model/v1/vars.data', content: Buffer.from('x') }, { path: 'nested/file.txt', content: Buffer.from('x') },
    { path: 'run.log', content: Buffer.from('x') }, { path: 'README.md', content: Buffer.from('# hi') },
  ]);
  t.same(pre.body.files, [
    { path: 'file.txt', uploadMode: 'regular', shouldIgnore: false, oid: gitBlobId(regular) },
    { path: 'lfs.bin', uploadMode: 'lfs', shouldIgnore: false, oid: sha256(large) },
    { path: 'image.pkl', uploadMode: 'lfs', shouldIgnore: false },
    { path: 'saved_model/v1/vars.data', uploadMode: 'lfs', shouldIgnore: false },
    { path: 'nested/file.txt', uploadMode: 'regular', shouldIgnore: true },
    { path: 'run.log', uploadMode: 'regular', shouldIgnore: true },
    { path: 'README.md', uploadMode: 'regular', shouldIgnore: false },
  ], 'the oids are what the client computes for unchanged files (git blob id; sha256 for LFS)');
  const withIgnore = await lfs.preupload('model', 'alice/m', [{ path: 'nested/file.txt', content: Buffer.from('x') }, { path: 'run.log', content: Buffer.from('x') }], { gitIgnore: 'run.log\n' });
  t.same(withIgnore.body.files.map((f) => f.shouldIgnore), [false, true], 'a .gitignore in the commit (gitIgnore) wins over the repo one');

  // .gitattributes changed by a commit: png now goes through LFS (test_create_commit_lfs_file_implicit_token).
  await hub.commit('alice', 'model', 'alice/m', { '.gitattributes': '*.png filter=lfs diff=lfs merge=lfs -text\n*.bin -filter\n' });
  const after = await lfs.preupload('model', 'alice/m', [{ path: 'img/a.png', content: Buffer.from('png') }, { path: 'x.bin', content: Buffer.from('b') }]);
  t.same(after.body.files.map((f) => f.uploadMode), ['lfs', 'regular'], 'the revision\'s .gitattributes decides, a later line unsets');
  const bad = await lfs.preupload('model', 'alice/m', [{ path: 'a', content: Buffer.from('') }], { gitIgnore: 3 });
  t.equal(bad.status, 400);
});

t.test('refusals: objects never uploaded, content that does not match, regular files over 10 MiB', async (t) => {
  const hub = await startHub({ users: [ALICE, BOB] });
  t.teardown(() => hub.close());
  await hub.createRepo('alice', 'model', 'alice/m');
  const api = hfClient(hub.url, ALICE.token);
  const lfs = lfsClient(hub.url, ALICE.token);

  const ghost = await lfs.commitLfs('model', 'alice/m', 'ghost', [{ path: 'ghost.bin', oid: 'b'.repeat(64), size: 3 }]);
  t.equal(ghost.status, 400);
  t.match(ghost.headers.get('x-error-message'), /^Your push was rejected because an LFS pointer pointed to a file that does not exist\. .* Offending file: - ghost\.bin$/, "the Hub's words");

  const content = Buffer.from('the real content');
  const b = await lfs.batch('model', 'alice/m', 'upload', [{ oid: sha256(content), size: content.length }, { oid: 'nothex', size: 1 }]);
  t.match(b.body.objects[1], { error: { code: 422 } }, 'an invalid oid is an error on that object only');
  const wrong = Buffer.from('not the real content');
  const t1 = await lfs.transfer(b.body.objects[0] ?? { oid: '', size: 0 }, wrong.subarray(0, content.length));
  t.equal(t1.put, 400, 'bytes that do not hash to the oid are refused');
  const still = await lfs.batch('model', 'alice/m', 'upload', [{ oid: sha256(content), size: content.length }]);
  t.ok(still.body.objects[0]?.actions?.upload, 'and not kept');
  t.equal((await lfs.transfer(still.body.objects[0] ?? { oid: '', size: 0 }, Buffer.concat([content, content]))).put, 400, 'more bytes than announced are refused');

  const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x61);
  const tooLarge = await api.commit('model', 'alice/m', 'main', 'big', [{ add: 'big.txt', content: big.toString() }]);
  t.equal(tooLarge.status, 400);
  t.match(tooLarge.headers.get('x-error-message'), /^Your push was rejected because it contains files larger than 10 MiB\. .*Offending files: - big\.txt \(ref: refs\/heads\/main\)$/);

  t.equal((await lfsClient(hub.url, null).batch('model', 'alice/m', 'upload', [{ oid: sha256(content), size: content.length }])).status, 401, 'an upload needs a token');
  const xet = await api.call('GET', '/api/models/alice/m/xet-write-token/main');
  t.equal(xet.status, 404);
  t.match(xet.headers.get('x-error-message'), /HF_HUB_DISABLE_XET=1/, 'a client with hf_xet is told how to upload through LFS');
});

t.test('LFS files in a pull request on another user\'s repo, and in a duplicated Space', async (t) => {
  const hub = await startHub({ users: [ALICE, BOB] });
  t.teardown(() => hub.close());
  await hub.createRepo('alice', 'model', 'alice/m');
  const content = Buffer.from('weights from bob');
  const bob = lfsClient(hub.url, BOB.token);
  const b = await bob.batch('model', 'alice/m', 'upload', [{ oid: sha256(content), size: content.length }]);
  t.same(await bob.transfer(b.body.objects[0] ?? { oid: '', size: 0 }, content), { put: 200, verify: 200 }, 'a reader uploads the object of a pull request');
  const pr = await fetch(`${hub.url}/api/models/alice/m/commit/main?create_pr=1`, {
    method: 'POST', headers: { authorization: `Bearer ${BOB.token}`, 'content-type': 'application/x-ndjson' },
    body: [{ key: 'header', value: { summary: 'PR', description: '' } }, { key: 'lfsFile', value: { path: 'lfs.pkl', algo: 'sha256', oid: sha256(content), size: content.length } }].map((l) => JSON.stringify(l)).join('\n'),
  });
  t.equal(pr.status, 200);
  t.equal(await (await fetch(`${hub.url}/alice/m/resolve/refs%2Fpr%2F1/lfs.pkl`)).text(), content.toString());
  t.equal((await bob.commitLfs('model', 'alice/m', 'direct', [{ path: 'x.bin', oid: sha256(content) }])).status, 403, 'but no commit to main');

  await hub.createRepo('alice', 'space', 'alice/app');
  t.equal((await lfsClient(hub.url, ALICE.token).uploadLfs('space', 'alice/app', 'model.bin', content)).status, 200);
  const dup = await hfClient(hub.url, BOB.token).call('POST', '/api/spaces/alice/app/duplicate', { repository: 'bob/app' });
  t.equal(dup.status, 200);
  t.equal(await (await fetch(`${hub.url}/spaces/bob/app/resolve/main/model.bin`)).text(), content.toString(), 'the copy has the object too');
});
