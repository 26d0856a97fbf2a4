import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from '../helpers/cli.js';
import { startHub } from '../../runtime/hub/server.js';
import { startReceiver } from '../hub/helpers.js';
import { gitUser } from '../hub/git-helpers.js';
import { CHECK_VENV_CACHE } from '../helpers/python-venvs.js';

// The Space author's loop: `app create --publish` leaves a folder whose git
// remote is the Space; edit, commit, `git push`, and the hub delivers the push.
// The check's base venv is the run's shared one (test/helpers/python-venvs.ts):
// building a venv is not this file's subject (publish.test.ts checks without one).

t.test('app create --publish sets origin to the Space; git push redeploys through the webhook', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'robotctl-publish-remote-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const token = 'hf_bob_publish_remote_token_123';
  const hub = await startHub({ users: [{ name: 'bob', token }] });
  t.teardown(() => hub.close());
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  await fetch(`${hub.url}/api/settings/webhooks`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ watched: [{ type: 'user', name: 'bob' }], url: `${rx.url}/webhooks/redeploy`, domains: ['repo'] }),
  });
  const env = { ...process.env, HF_ENDPOINT: hub.url, HF_TOKEN: token, ROBOTCTL_CHECK_VENV_CACHE: CHECK_VENV_CACHE, ROBOTCTL_CACHE_DIR: join(root, 'check-cache') };
  const r = await runInProcess(['app', 'create', 'loop_app', root, '--publish'], { env });
  t.equal(r.code, 0, r.stderr);
  const remote = `${hub.url}/spaces/bob/loop_app`;
  t.match(r.stdout, `[OK] Git remote 'origin' is ${remote}`);
  t.notMatch(r.stdout + r.stderr, token, 'the token is never printed');
  const app = join(root, 'loop_app');
  t.notMatch(readFileSync(join(app, '.git', 'config'), 'utf8'), token, 'nor written into .git/config');

  const author = gitUser(join(root, 'home'), { url: hub.url, user: 'bob', token });
  t.equal((await author.run(['remote', 'get-url', 'origin'], app)).stdout.trim(), remote);
  t.equal((await author.run(['status', '--porcelain'], app)).stdout, '', 'the folder matches the Space: nothing to commit');
  const published = (await author.run(['rev-parse', 'HEAD'], app)).stdout.trim();
  await hub.idle();
  const before = rx.received.length;

  writeFileSync(join(app, 'CHANGELOG.md'), '- first change\n');
  await author.run(['add', '.'], app);
  await author.run(['commit', '--quiet', '-m', 'A change'], app);
  const push = await author.run(['push', '--quiet'], app);
  t.equal(push.code, 0, push.stderr);
  const head = (await author.run(['rev-parse', 'HEAD'], app)).stdout.trim();
  const got = await rx.waitFor(before + 1);
  t.match(got[before]?.body, { event: { scope: 'repo.content', action: 'update' }, repo: { name: 'bob/loop_app', headSha: head }, updatedRefs: [{ ref: 'refs/heads/main', oldSha: published, newSha: head }] });
  t.equal(await (await fetch(`${hub.url}/spaces/bob/loop_app/resolve/main/CHANGELOG.md`)).text(), '- first change\n');
});
