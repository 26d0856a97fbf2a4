import t from 'tap';
import { existsSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { userByToken } from '../../runtime/hub/context.js';
import { crossSiteReason } from '../../lib/cross-site.js';
import { hfClient } from './hf-client.js';
import { ALICE, tempDir } from './helpers.js';

// Issue 12 for the embedded hub: names and paths never leave the data folder,
// cross-site browser requests cannot change anything, tokens compare in constant time.

t.test('repo ids and file paths that would leave the data folder are refused naming the field (400; 422 in a commit, as the Hub)', async (t) => {
  const root = tempDir(t);
  const dataDir = join(root, 'data');
  const victim = join(root, 'victim');
  mkdirSync(victim);
  writeFileSync(join(victim, 'keep.txt'), 'precious');
  const hub = await startHub({ users: [ALICE], dataDir });
  t.teardown(() => hub.close());
  const api = hfClient(hub.url, ALICE.token);

  for (const name of ['..', '.', '../victim', '..%2F..%2Fvictim', '/abs', 'a--b', '-x', 'x.', 'a..b']) {
    const r = await api.call<{ error: string }>('POST', '/api/repos/create', { name, organization: 'alice', type: 'space' });
    t.equal(r.status, 400, `repo name ${name}`);
    t.match(r.body.error, /Invalid repo id/);
  }
  t.equal((await api.call('POST', '/api/repos/create', { name: 'x/../../victim', type: 'space' })).status, 400, 'a full id with ..');
  t.equal((await api.call('POST', '/api/repos/create', { name: 'ok', organization: '..', type: 'space' })).status, 400, 'an organization ..');
  await api.call('POST', '/api/repos/create', { name: 'app', type: 'space' });
  const moved = await api.call<{ error: string }>('POST', '/api/repos/move', { fromRepo: 'alice/app', toRepo: '../../victim', type: 'space' });
  t.equal(moved.status, 400);
  t.match(moved.body.error, /toRepo/, 'the message names the field');

  for (const path of ['../x', '../../victim/keep.txt', '/etc/x', 'a/./b', 'a//b', '.git/config', 'a/.git/hooks/post-receive', 'a\\..\\b']) {
    const r = await api.commit('space', 'alice/app', 'main', 'evil', [{ add: path, content: 'pwned' }]);
    t.equal(r.status, 422, `file path ${path}`);
    t.match((r.body as unknown as { error: string }).error, /Invalid path/);
  }
  const encoded = await fetch(`${hub.url}/spaces/alice/app/resolve/main/%2e%2e%2f%2e%2e%2fvictim%2fkeep.txt`);
  t.equal(encoded.status, 400, 'an encoded .. in a download path');
  t.equal((await fetch(`${hub.url}/api/spaces/alice/..%2F..%2Fvictim`)).status, 400, 'an encoded .. as a repo name');
  t.equal((await api.commit('space', 'alice/app', 'main', 'evil', [{ delFolder: '../..' }])).status, 422, 'a folder delete outside the repo');

  t.same(readdirSync(victim), ['keep.txt'], 'the victim folder is intact');
  t.notOk(existsSync(join(root, 'x')), 'nothing written beside the data folder');
});

t.test('state-changing requests a browser marks as cross-site are refused; same-origin and non-browser clients work', async (t) => {
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  const post = (headers: Record<string, string>, name: string) => fetch(`${hub.url}/api/repos/create`, {
    method: 'POST', headers: { authorization: `Bearer ${ALICE.token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ name, type: 'model' }),
  });
  const evil = await post({ origin: 'http://evil.example' }, 'a');
  t.equal(evil.status, 403);
  t.match(await evil.text(), /Cross-site request refused/);
  t.equal((await post({ 'sec-fetch-site': 'cross-site' }, 'b')).status, 403);
  t.equal((await post({ origin: hub.url, 'sec-fetch-site': 'same-origin' }, 'c')).status, 200, 'same origin');
  t.equal((await post({}, 'd')).status, 200, 'no Origin: curl, git, huggingface_hub');
  t.equal((await fetch(`${hub.url}/api/models/alice/c`, { headers: { origin: 'http://evil.example' } })).status, 200, 'reads stay open');
  t.equal(crossSiteReason('POST', { origin: 'null', host: 'h' }), 'Origin: null', 'an opaque origin is another site');
});

t.test('tokens are matched in constant time, by digest', async (t) => {
  const users = [{ name: 'a', id: '1', token: 'hf_aaaaaaaaaaaaaaaa' }, { name: 'b', id: '2', token: 'hf_b' }];
  t.equal(userByToken(users, 'hf_b')?.name, 'b');
  t.equal(userByToken(users, 'hf_aaaaaaaaaaaaaaaa')?.name, 'a');
  t.equal(userByToken(users, 'hf_aaaaaaaaaaaaaaab'), null, 'same length, one byte off');
  t.equal(userByToken(users, ''), null);
});

t.test('the temp folder of a hub killed before close() is removed by the next hub', async (t) => {
  const { mkdtempSync, mkdirSync: mk } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  // A pid that cannot be alive: above the kernel's pid_max.
  const stale = mkdtempSync(join(tmpdir(), 'robotctl-hub-git-4194999-'));
  mk(join(stale, 'repos'));
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  t.notOk(existsSync(stale), 'the dead hub\'s folder is gone');
});
