import t, { type Test } from 'tap';
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHubClient } from '../../../drivers/hub/client.js';
import { HubError } from '../../../drivers/hub/errors.js';
import { onEndpoint } from '../../../drivers/hub/lfs-upload.js';
import type { CommitOperation } from '../../../drivers/hub/types.js';
import { startHub, type RunningHub } from '../../../runtime/hub/server.js';
import { ALICE } from '../../hub/helpers.js';
import { startFaultProxy, type Decide, type ProxyOptions } from '../../helpers/fault-proxy.js';
import { fileScratch } from '../../helpers/file-scratch.js';

// The hub driver's commit of LFS files, as huggingface_hub makes it:
// preupload, the batch API, a PUT of the file as a stream to the link
// (without the token), verify, and the `lfsFile` commit line; against the
// real embedded hub, through a fault injector that keeps the Host so the
// hub's links lead back through it.

const scratch = fileScratch('lfs-upload');
t.teardown(() => scratch.remove());
const BIG = 12 * 1024 * 1024;
const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const isPut = (req: { method?: string | undefined }): boolean => req.method === 'PUT';

function file(name: string, content: Buffer): string {
  const path = join(scratch.dir, name);
  writeFileSync(path, content);
  return path;
}

async function setUp(t: Test, decide: Decide = () => null, opts: ProxyOptions = {}) {
  const hub: RunningHub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  const proxy = await startFaultProxy(hub.url, decide, { keepHost: true, ...opts });
  t.teardown(() => proxy.close());
  const client = createHubClient({ endpoint: proxy.url, token: ALICE.token, retryBaseMs: 1 });
  t.teardown(() => client.close());
  await client.createRepo('model', 'alice/lfs');
  return { hub, proxy, client };
}

t.test('a 12 MB file and an .onnx go through LFS: batch, PUT without the token, verify, lfsFile lines; resolve gives the content', async (t) => {
  const { proxy, client } = await setUp(t);
  const big = randomBytes(BIG);
  const onnx = randomBytes(2000);
  const ops: CommitOperation[] = [
    { op: 'add', path: 'model/weights.dat', file: file('weights.dat', big) },
    { op: 'add', path: 'model.onnx', content: onnx },
    { op: 'add', path: 'main.py', content: Buffer.from('print("hi")\n') },
  ];
  const { commitOid } = await client.commit('model', 'alice/lfs', ops, 'Add a model');

  const batches = proxy.seen.filter((s) => s.url === '/alice/lfs.git/info/lfs/objects/batch');
  t.equal(batches.length, 1, 'one batch request for both objects');
  t.same(JSON.parse(batches[0]?.body ?? '{}'), {
    operation: 'upload', transfers: ['basic'],
    objects: [{ oid: sha256(big), size: BIG }, { oid: sha256(onnx), size: onnx.length }], hash_algo: 'sha256', ref: { name: 'main' },
  }, 'the batch body huggingface_hub sends (basic only: the hub offers no multipart)');
  t.equal(batches[0]?.auth, `Bearer ${ALICE.token}`, 'the batch request carries the token');
  const puts = proxy.seen.filter(isPut);
  t.equal(puts.length, 2, 'one PUT per object');
  t.ok(puts.every((p) => p.auth === undefined), 'the upload link gets no token');
  t.same(puts.map((p) => p.bytes).sort((a, b) => a - b), [onnx.length, BIG], 'the whole content went up');
  const verifies = proxy.seen.filter((s) => s.url.includes('/verify?'));
  t.equal(verifies.length, 2);
  t.ok(verifies.every((v) => v.auth === `Bearer ${ALICE.token}`), 'verify on the hub\'s origin carries the token');
  t.same(JSON.parse(verifies.find((v) => v.body.includes(sha256(big)))?.body ?? '{}'), { oid: sha256(big), size: BIG });
  const commit = proxy.seen.find((s) => s.url === '/api/models/alice/lfs/commit/main');
  const lines = (commit?.body ?? '').trim().split('\n').map((l) => JSON.parse(l) as { key: string; value: Record<string, unknown> });
  t.same(lines.slice(1), [
    { key: 'lfsFile', value: { path: 'model/weights.dat', algo: 'sha256', oid: sha256(big), size: BIG } },
    { key: 'lfsFile', value: { path: 'model.onnx', algo: 'sha256', oid: sha256(onnx), size: onnx.length } },
    { key: 'file', value: { content: Buffer.from('print("hi")\n').toString('base64'), path: 'main.py', encoding: 'base64' } },
  ], 'lfsFile lines for the LFS files, a file line for the regular one');
  t.ok((commit?.body.length ?? BIG) < 10_000, 'no LFS content inside the commit body');

  const info = await client.repoInfo('model', 'alice/lfs', undefined, { filesMetadata: true });
  t.equal(info?.sha, commitOid);
  const sib = (p: string) => info?.siblings.find((s) => s.rfilename === p);
  t.match(sib('model/weights.dat'), { size: BIG, lfs: { sha256: sha256(big), size: BIG } });
  t.match(sib('model.onnx'), { lfs: { sha256: sha256(onnx), size: onnx.length } }, '.onnx is LFS by the Hub\'s default .gitattributes');
  t.notOk(sib('main.py')?.lfs, 'a small .py stays regular');
  t.ok((await client.downloadFile('model', 'alice/lfs', 'model/weights.dat')).equals(big), 'resolve gives the content, not the pointer');
  t.ok((await client.downloadFile('model', 'alice/lfs', 'model.onnx')).equals(onnx));
});

t.test('objects the hub already has are not sent again; a changed file is', async (t) => {
  const { proxy, client } = await setUp(t);
  const big = randomBytes(BIG);
  const path = file('again.bin', big);
  await client.commit('model', 'alice/lfs', [{ op: 'add', path: 'a.bin', file: path }], 'first');
  t.equal(proxy.seen.filter(isPut).length, 1);
  // Same content under a second name, and again under the first: nothing to upload.
  await client.commit('model', 'alice/lfs', [{ op: 'add', path: 'a.bin', file: path }, { op: 'add', path: 'copy.bin', file: path }], 'second');
  t.equal(proxy.seen.filter(isPut).length, 1, 'the batch API answered without actions: no PUT');
  const info = await client.repoInfo('model', 'alice/lfs', undefined, { filesMetadata: true });
  t.equal(info?.siblings.find((s) => s.rfilename === 'copy.bin')?.lfs?.sha256, sha256(big));

  big[0] = (big[0] ?? 0) ^ 0xff;
  writeFileSync(path, big);
  await client.commit('model', 'alice/lfs', [{ op: 'add', path: 'a.bin', file: path }], 'changed');
  t.equal(proxy.seen.filter(isPut).length, 2, 'the changed content is uploaded');
  t.ok((await client.downloadFile('model', 'alice/lfs', 'a.bin')).equals(big));
});

t.test('an upload cut mid-way is sent again from the start of the file', async (t) => {
  let cuts = 1;
  const { proxy, client } = await setUp(t, () => null, { cutAfter: (req) => (isPut(req) && cuts-- > 0 ? 4 * 1024 * 1024 : null) });
  const big = randomBytes(BIG);
  await client.commit('model', 'alice/lfs', [{ op: 'add', path: 'cut.bin', file: file('cut.bin', big) }], 'cut once');
  const puts = proxy.seen.filter(isPut);
  t.equal(puts.length, 2, 'one cut attempt, one whole');
  t.equal(puts[0]?.fault, 'cut');
  t.ok((puts[0]?.bytes ?? BIG) < BIG, 'the first attempt was cut before the end');
  t.equal(puts[1]?.bytes, BIG, 'the retry sent the whole file');
  t.ok((await client.downloadFile('model', 'alice/lfs', 'cut.bin')).equals(big));
});

t.test('an upload that keeps failing is reported with the file it was, and nothing is committed', async (t) => {
  const { proxy, client } = await setUp(t, (req) => (isPut(req) ? { kind: 'status', status: 503, message: 'storage unavailable' } : null));
  const before = await client.repoInfo('model', 'alice/lfs');
  const err = await client.commit('model', 'alice/lfs', [
    { op: 'add', path: 'main.py', content: Buffer.from('x = 1\n') },
    { op: 'add', path: 'broken.bin', file: file('broken.bin', randomBytes(300_000)) },
  ], 'never').then(() => null, (e: unknown) => e);
  t.ok(err instanceof HubError, String(err));
  t.match((err as Error).message, /^Uploading broken\.bin \(300\.0 kB\) to the hub's LFS storage failed: 503 Service Unavailable \(PUT http:\/\/127\.0\.0\.1:\d+\/alice\/lfs\.git\/info\/lfs\/objects\/[0-9a-f]{64}\): storage unavailable$/);
  t.notMatch((err as Error).message, /sig=|exp=/, 'the link\'s signature is not shown');
  t.equal(proxy.seen.filter(isPut).length, 5, 'retried as the policy allows (5 attempts)');
  t.notOk(proxy.seen.some((s) => s.url.includes('/commit/')), 'no commit was attempted');
  t.equal((await client.repoInfo('model', 'alice/lfs'))?.sha, before?.sha, 'the repo is as it was');
});

t.test('a link refused for good is not retried; an empty LFS-tracked file is committed as a regular one', async (t) => {
  const { proxy, client } = await setUp(t, (req) => (isPut(req) ? { kind: 'status', status: 403, message: 'link expired' } : null));
  const err = await client.commit('model', 'alice/lfs', [{ op: 'add', path: 'x.bin', content: randomBytes(100) }], 'never').then(() => null, (e: unknown) => e);
  t.match((err as Error).message, /^Uploading x\.bin \(100 bytes\) to the hub's LFS storage failed: 403 Forbidden .*link expired$/);
  t.equal(proxy.seen.filter(isPut).length, 1, 'a 403 is permanent');
  await client.commit('model', 'alice/lfs', [{ op: 'add', path: 'empty.bin', content: Buffer.alloc(0) }], 'empty');
  t.equal(proxy.seen.filter(isPut).length, 1, 'no upload for an empty file');
  const commit = proxy.seen.filter((s) => s.url.endsWith('/commit/main')).pop();
  t.match(commit?.body, '{"key":"file","value":{"content":"","path":"empty.bin","encoding":"base64"}}');
  t.equal((await client.downloadFile('model', 'alice/lfs', 'empty.bin')).length, 0);
});

t.test('links on huggingface.co go through a custom endpoint, as fix_hf_endpoint_in_url does', async (t) => {
  t.equal(onEndpoint('https://huggingface.co/alice/m.git/info/lfs/objects/abc/verify', 'http://127.0.0.1:9000'), 'http://127.0.0.1:9000/alice/m.git/info/lfs/objects/abc/verify');
  t.equal(onEndpoint('https://s3.example.com/bucket/abc?X-Amz-Signature=1', 'http://127.0.0.1:9000'), 'https://s3.example.com/bucket/abc?X-Amz-Signature=1', 'a storage link is left as it is');
  t.equal(onEndpoint('https://huggingface.co/x', 'https://huggingface.co/'), 'https://huggingface.co/x');
  t.equal(onEndpoint('https://huggingface.com/x', 'http://h'), 'https://huggingface.com/x', 'only the default endpoint itself');
});
