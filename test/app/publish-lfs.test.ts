import t from 'tap';
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathWithoutRobotctl, runInProcess } from '../helpers/cli.js';
import { startFaultProxy, type Fault } from '../helpers/fault-proxy.js';
import { startHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';

// `robotctl app publish` of an app that carries a model: a 12 MB .bin and a
// small .onnx go through the hub's LFS (over 10 MiB, and tracked by the
// Hub's default .gitattributes), through a fault injector in front of the
// embedded hub that keeps the Host, so the LFS links lead through it too.

const TOKEN = 'hf_publish_lfs_token_123';
const BIG = 12 * 1024 * 1024;
const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

t.test('an app with a model publishes through LFS, says No changes, re-uploads a changed model, reports a failed upload', async (t) => {
  const hub = await startHub({ users: [{ name: 'alice', token: TOKEN }] });
  t.teardown(() => hub.close());
  let fault: Fault | null = null;
  let cuts = 0;
  const proxy = await startFaultProxy(hub.url, (req) => (req.method === 'PUT' ? fault : null), {
    keepHost: true, cutAfter: (req) => (req.method === 'PUT' && cuts-- > 0 ? 3 * 1024 * 1024 : null),
  });
  t.teardown(() => proxy.close());
  const client = createHubClient({ endpoint: hub.url, token: TOKEN });
  t.teardown(() => client.close());
  const dir = t.testdir();
  const env = { HF_ENDPOINT: proxy.url, HF_TOKEN: TOKEN, HF_TOKEN_PATH: join(dir, 'no-token'), PATH: pathWithoutRobotctl() };
  t.equal((await runInProcess(['app', 'create', 'pub_app', dir], { env })).code, 0);
  const app = join(dir, 'pub_app');
  const model = randomBytes(BIG);
  const onnx = randomBytes(3000);
  writeFileSync(join(app, 'pub_app', 'model.bin'), model);
  writeFileSync(join(app, 'pub_app', 'policy.onnx'), onnx);
  const puts = () => proxy.seen.filter((s) => s.method === 'PUT');

  const first = await runInProcess(['app', 'publish', app, '--no-check'], { env });
  t.equal(first.code, 0, first.stderr);
  t.match(first.stdout, `[OK] App published: ${proxy.url}/spaces/alice/pub_app`);
  t.equal(puts().length, 2, 'both LFS files uploaded');
  t.ok(puts().every((p) => p.auth === undefined), 'no token on the upload links');
  const info = await client.repoInfo('space', 'alice/pub_app', undefined, { filesMetadata: true });
  const sib = (p: string) => info?.siblings.find((s) => s.rfilename === p);
  t.match(sib('pub_app/model.bin'), { size: BIG, lfs: { sha256: sha256(model), size: BIG } }, 'siblings[].lfs is set');
  t.match(sib('pub_app/policy.onnx'), { lfs: { sha256: sha256(onnx), size: onnx.length } });
  t.notOk(sib('pub_app/main.py')?.lfs, 'the code stays regular');
  t.ok((await client.downloadFile('space', 'alice/pub_app', 'pub_app/model.bin')).equals(model), 'the model comes back identical');
  t.ok((await client.downloadFile('space', 'alice/pub_app', 'pub_app/policy.onnx')).equals(onnx));

  const seenBefore = proxy.seen.length;
  const again = await runInProcess(['app', 'publish', app, '--no-check'], { env });
  t.equal(again.code, 0, again.stderr);
  t.match(again.stdout, `[OK] No changes: ${proxy.url}/spaces/alice/pub_app already has these`);
  const sinceAgain = proxy.seen.slice(seenBefore);
  t.notOk(sinceAgain.some((s) => s.method === 'PUT' || s.url.includes('/commit/')), 'no upload, no commit');
  t.notOk(sinceAgain.some((s) => /resolve\/[0-9a-f]+\/pub_app\/(model\.bin|policy\.onnx)$/.test(s.url)), 'LFS files compared by sha256, not downloaded');
  t.ok(sinceAgain.some((s) => /resolve\/[0-9a-f]+\/pub_app\/main\.py$/.test(s.url)), 'regular files compared through resolve');

  // A changed model: only it goes up again, and an upload cut mid-way is sent again.
  model[1000] = (model[1000] ?? 0) ^ 0xff;
  writeFileSync(join(app, 'pub_app', 'model.bin'), model);
  cuts = 1;
  const changed = await runInProcess(['app', 'publish', app, '--no-check'], { env });
  t.equal(changed.code, 0, changed.stderr);
  t.match(changed.stdout, '[OK] App published:');
  t.same(puts().slice(2).map((p) => p.fault), ['cut', null], 'the changed model only; its cut upload retried');
  t.ok((await client.downloadFile('space', 'alice/pub_app', 'pub_app/model.bin')).equals(model));
  const published = (await client.repoInfo('space', 'alice/pub_app'))?.sha;

  // An upload the storage refuses: a clear error, nothing committed.
  model[2000] = (model[2000] ?? 0) ^ 0xff;
  writeFileSync(join(app, 'pub_app', 'model.bin'), model);
  fault = { kind: 'status', status: 403, message: 'Request has expired' };
  const refused = await runInProcess(['app', 'publish', app, '--no-check'], { env });
  t.equal(refused.code, 1);
  t.match(refused.stderr, /^Error: Publishing failed: Uploading pub_app\/model\.bin \(12\.6 MB\) to the hub's LFS storage failed: 403 Forbidden \(PUT http:\/\/127\.0\.0\.1:\d+\/spaces\/alice\/pub_app\.git\/info\/lfs\/objects\/[0-9a-f]{64}\): Request has expired\n$/);
  t.notMatch(refused.stderr + refused.stdout, TOKEN, 'never the token');
  t.equal((await client.repoInfo('space', 'alice/pub_app'))?.sha, published, 'nothing committed');
});
