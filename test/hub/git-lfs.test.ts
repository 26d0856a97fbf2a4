import t from 'tap';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { ALICE, raw, tempDir } from './helpers.js';
import { gitUser, type GitUser } from './git-helpers.js';

// git with Debian's git-lfs against the embedded hub: the hub's own
// .gitattributes sends `*.bin` through LFS, so a push uploads through the batch
// API before the refs move, and a clone downloads the content back. What the
// Hub refuses on a push, this hub refuses with the Hub's words.

async function lfsUser(home: string, url: string): Promise<GitUser> {
  const user = gitUser(home, { url, user: 'alice', token: ALICE.token });
  const installed = await user.run(['lfs', 'install', '--skip-repo'], home);
  if (installed.code !== 0) throw new Error(`git lfs install: ${installed.stderr}`);
  return user;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

t.test('a 20 MB .bin pushed with git-lfs round-trips through clone, the API and resolve', async (t) => {
  const dir = tempDir(t);
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  await hub.createRepo('alice', 'model', 'alice/m');
  const alice = await lfsUser(join(dir, 'home'), hub.url);
  t.equal((await alice.run(['clone', '--quiet', `${hub.url}/alice/m`, 'm'], dir)).code, 0);
  const work = join(dir, 'm');
  const content = randomBytes(20 * 1024 * 1024);
  writeFileSync(join(work, 'model.bin'), content);
  await alice.run(['add', 'model.bin'], work);
  await alice.run(['commit', '--quiet', '-m', 'Add weights'], work);
  t.match((await alice.run(['lfs', 'ls-files'], work)).stdout, /model\.bin/, 'git-lfs tracks it (the hub\'s .gitattributes)');
  const push = await alice.run(['push', 'origin', 'main'], work);
  t.equal(push.code, 0, push.stderr);
  t.notMatch(push.stderr, /does not support the (Git )?LFS locking API/, 'no locking warning: the hub answers 501 and git-lfs turns lock checks off');

  const info = (await raw(`${hub.url}/api/models/alice/m?blobs=true`, 'GET', null)).json as { siblings: { rfilename: string; lfs?: { sha256: string; size: number } }[] };
  t.match(info.siblings.find((s) => s.rfilename === 'model.bin'), { lfs: { sha256: sha256(content), size: content.length } });
  const served = Buffer.from(await (await fetch(`${hub.url}/alice/m/resolve/main/model.bin`)).arrayBuffer());
  t.equal(sha256(served), sha256(content), 'resolve serves the pushed content');

  const clone = await alice.run(['clone', '--quiet', `${hub.url}/alice/m`, 'again'], dir);
  t.equal(clone.code, 0, clone.stderr);
  t.equal(sha256(readFileSync(join(dir, 'again', 'model.bin'))), sha256(content), 'a clone with git-lfs gets the content back');
});

t.test('pushes the Hub refuses: a file over 10 MiB outside LFS, a pointer to an object never uploaded', async (t) => {
  const dir = tempDir(t);
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  await hub.createRepo('alice', 'model', 'alice/m');
  const alice = gitUser(join(dir, 'home'), { url: hub.url, user: 'alice', token: ALICE.token });
  t.equal((await alice.run(['clone', '--quiet', `${hub.url}/alice/m`, 'm'], dir)).code, 0);
  const work = join(dir, 'm');
  const before = ((await raw(`${hub.url}/api/models/alice/m`, 'GET', null)).json as { sha: string }).sha;

  writeFileSync(join(work, 'big.txt'), Buffer.alloc(12 * 1024 * 1024, 0x61));
  await alice.run(['add', 'big.txt'], work);
  await alice.run(['commit', '--quiet', '-m', 'big'], work);
  const big = await alice.run(['push', 'origin', 'main'], work);
  t.not(big.code, 0, 'refused');
  // git pads the remote's lines with spaces; the lines themselves are the Hub's, in its order.
  const lines = big.stderr.split('\n').map((l) => l.trimEnd());
  const expected = [
    'remote: Your push was rejected because it contains files larger than 10 MiB.',
    'remote: Please use https://git-lfs.github.com/ to store large files.',
    'remote: Offending files:',
    'remote:   - big.txt (ref: refs/heads/main)',
  ];
  const at = expected.map((l) => lines.indexOf(l));
  t.ok(at.every((i, k) => i >= 0 && (k === 0 || i > (at[k - 1] ?? 0))), "the Hub's message, line by line", { stderr: big.stderr });
  t.match(big.stderr, /main -> main \(pre-receive hook declined\)/);

  await alice.run(['reset', '--quiet', '--hard', 'HEAD~1'], work);
  const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${'c'.repeat(64)}\nsize 12345\n`;
  writeFileSync(join(work, 'ghost.txt'), pointer);
  await alice.run(['add', 'ghost.txt'], work);
  await alice.run(['commit', '--quiet', '-m', 'ghost'], work);
  const ghost = await alice.run(['push', 'origin', 'main'], work);
  t.not(ghost.code, 0, 'refused');
  t.match(ghost.stderr, /remote: Your push was rejected because an LFS pointer pointed to a file that does not exist\.[\s\S]*remote: - ghost\.txt/);
  t.equal(((await raw(`${hub.url}/api/models/alice/m`, 'GET', null)).json as { sha: string }).sha, before, 'main did not move');
});

t.test('a repo named x.git lives in x.git and clones; a mixed-case id finds the repo', async (t) => {
  const dir = tempDir(t);
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  const created = await raw(`${hub.url}/api/repos/create`, 'POST', ALICE.token, { name: 'x.git', organization: 'alice' });
  t.equal(created.status, 200);
  t.match(created.json, { name: 'alice/x.git' });
  await hub.commit('alice', 'model', 'alice/x.git', { 'hello.txt': 'hi\n' });
  const conflict = await raw(`${hub.url}/api/repos/create`, 'POST', ALICE.token, { name: 'x', organization: 'alice' });
  t.equal(conflict.status, 400, 'x beside x.git would share its git URL');
  const alice = gitUser(join(dir, 'home'), { url: hub.url, user: 'alice', token: ALICE.token });
  for (const [i, url] of [`${hub.url}/alice/x.git`, `${hub.url}/alice/x.git.git`, `${hub.url}/Alice/X.git`].entries()) {
    const name = `clone-${i}`;
    const clone = await alice.run(['clone', '--quiet', url, name], dir);
    t.equal(clone.code, 0, `${url}: ${clone.stderr}`);
    t.equal(readFileSync(join(dir, name, 'hello.txt'), 'utf8'), 'hi\n');
  }
  const mixed = await raw(`${hub.url}/api/models/ALICE/X.GIT`, 'GET', null);
  t.equal(mixed.status, 200, 'the API ignores case');
  t.match(mixed.json, { id: 'alice/x.git' }, 'and shows the stored casing');
});
