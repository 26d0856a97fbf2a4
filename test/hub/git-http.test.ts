import t from 'tap';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { ALICE, BOB, raw, startReceiver, tempDir } from './helpers.js';
import { gitUser } from './git-helpers.js';

t.test('git clone, push and fetch against the embedded hub, with webhook deliveries', async (t) => {
  const dir = tempDir(t);
  const hub = await startHub({ users: [ALICE, BOB] });
  t.teardown(() => hub.close());
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  await hub.createRepo('alice', 'space', 'alice/app', { sdk: 'docker' });
  const hook = await raw(`${hub.url}/api/settings/webhooks`, 'POST', ALICE.token, { watched: [{ type: 'space', name: 'alice/app' }], url: `${rx.url}/hook`, domains: ['repo'] });
  t.equal(hook.status, 200);

  const remote = `${hub.url}/spaces/alice/app`;
  const alice = gitUser(join(dir, 'alice-home'), { url: hub.url, user: 'alice', token: ALICE.token });
  const clone = await alice.run(['clone', '--quiet', remote, 'app'], dir);
  t.equal(clone.code, 0, clone.stderr);
  const work = join(dir, 'app');
  t.ok(existsSync(join(work, 'README.md')), 'the clone has the Space files');

  const before = ((await raw(`${hub.url}/api/spaces/alice/app`, 'GET', null)).json as { sha: string }).sha;
  writeFileSync(join(work, 'app.py'), 'print("from git")\n');
  await alice.run(['add', 'app.py'], work);
  await alice.run(['commit', '--quiet', '-m', 'Add app.py'], work);
  const pushed = (await alice.run(['rev-parse', 'HEAD'], work)).stdout.trim();
  const push = await alice.run(['push', '--quiet', 'origin', 'main'], work);
  t.equal(push.code, 0, push.stderr);

  const info = (await raw(`${hub.url}/api/spaces/alice/app`, 'GET', null)).json as { sha: string; siblings: { rfilename: string }[] };
  t.equal(info.sha, pushed, 'repo info shows the pushed commit');
  t.ok(info.siblings.some((s) => s.rfilename === 'app.py'));
  t.equal(await (await fetch(`${hub.url}/spaces/alice/app/resolve/main/app.py`)).text(), 'print("from git")\n', 'resolve serves the pushed file');

  const [delivery] = await rx.waitFor(1);
  t.match(delivery?.body, {
    event: { scope: 'repo.content', action: 'update' },
    repo: { type: 'space', name: 'alice/app', headSha: pushed },
    updatedRefs: [{ ref: 'refs/heads/main', oldSha: before, newSha: pushed }],
  }, 'a push delivers repo.content with updatedRefs and the new headSha');

  const { commitOid } = await hub.commit('alice', 'space', 'alice/app', { 'api.txt': 'from the API\n' }, 'API commit');
  const fetched = await alice.run(['pull', '--quiet', '--ff-only', 'origin', 'main'], work);
  t.equal(fetched.code, 0, fetched.stderr);
  t.equal((await alice.run(['rev-parse', 'HEAD'], work)).stdout.trim(), commitOid, 'git fetch sees the API commit');
  t.equal(readFileSync(join(work, 'api.txt'), 'utf8'), 'from the API\n');
  await rx.waitFor(2);
  await hub.idle();
});

t.test('a push without write access is refused and changes nothing', async (t) => {
  const dir = tempDir(t);
  const hub = await startHub({ users: [ALICE, BOB] });
  t.teardown(() => hub.close());
  await hub.createRepo('alice', 'space', 'alice/app');
  await hub.createRepo('alice', 'model', 'alice/secret', { private: true });
  const remote = `${hub.url}/spaces/alice/app`;
  const anon = gitUser(join(dir, 'anon'), null);
  t.equal((await anon.run(['clone', '--quiet', remote, 'app'], dir)).code, 0, 'a public Space clones without a token');
  const work = join(dir, 'app');
  writeFileSync(join(work, 'x.txt'), 'x\n');
  await anon.run(['add', 'x.txt'], work);
  await anon.run(['commit', '--quiet', '-m', 'x'], work);
  const head = ((await raw(`${hub.url}/api/spaces/alice/app`, 'GET', null)).json as { sha: string }).sha;

  const noToken = await anon.run(['push', 'origin', 'main'], work);
  t.not(noToken.code, 0);
  t.match(noToken.stderr, /could not read Username|Authentication failed|terminal prompts disabled/, 'git asks for credentials (401)');

  const bob = gitUser(join(dir, 'bob'), { url: hub.url, user: 'bob', token: BOB.token });
  const wrongUser = await bob.run(['push', 'origin', 'main'], work);
  t.not(wrongUser.code, 0);
  t.match(wrongUser.stderr, /403/, 'another user is refused');
  t.equal(((await raw(`${hub.url}/api/spaces/alice/app`, 'GET', null)).json as { sha: string }).sha, head, 'the Space is unchanged');

  const privateClone = await anon.run(['clone', '--quiet', `${hub.url}/alice/secret`, 'secret'], dir);
  t.not(privateClone.code, 0, 'a private repo does not clone without its owner token');
  const owner = gitUser(join(dir, 'alice'), { url: hub.url, user: 'alice', token: ALICE.token });
  t.equal((await owner.run(['clone', '--quiet', `${hub.url}/alice/secret`, 'secret'], dir)).code, 0, 'its owner clones it');
});
