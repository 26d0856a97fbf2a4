import t from 'tap';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { ALICE, tempDir } from './helpers.js';
import { gitUser } from './git-helpers.js';

// A data folder of the previous hub (format 1: commits in hub.json, files in
// blobs/) opens with its repos moved into git: same files, same history length.

function blob(dir: string, text: string): string {
  const content = Buffer.from(text);
  const oid = createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
  writeFileSync(join(dir, 'blobs', oid), content);
  return oid;
}

t.test('version-1 data is replayed into git on start', async (t) => {
  const dataDir = tempDir(t);
  mkdirSync(join(dataDir, 'blobs'), { recursive: true });
  const readme = blob(dataDir, '---\nsdk: docker\n---\n');
  const v1 = blob(dataDir, 'print(1)\n');
  const v2 = blob(dataDir, 'print(2)\n');
  const commit = (oid: string, summary: string, tree: Record<string, string>) => ({ oid, parent: null, summary, description: '', author: 'alice', date: '2026-01-01T00:00:00.000Z', tree });
  writeFileSync(join(dataDir, 'hub.json'), JSON.stringify({
    format_version: 1, webhooks: [], activity: {}, triggers: {}, jobRuns: [],
    repos: [{
      objectId: 'a'.repeat(24), type: 'space', repoId: 'alice/app', creator: 'alice', private: false, sdk: 'docker',
      createdAt: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', discussions: [],
      commits: [
        commit('1'.repeat(40), 'initial commit', { 'README.md': readme }),
        commit('2'.repeat(40), 'add app', { 'README.md': readme, 'app.py': v1 }),
        commit('3'.repeat(40), 'change app', { 'README.md': readme, 'app.py': v2 }),
      ],
    }],
  }));
  const hub = await startHub({ users: [ALICE], dataDir });
  t.teardown(() => hub.close());
  const info = (await (await fetch(`${hub.url}/api/spaces/alice/app`)).json()) as { sha: string; siblings: { rfilename: string }[] };
  t.match(info.sha, /^[0-9a-f]{40}$/);
  t.same(info.siblings.map((s) => s.rfilename), ['README.md', 'app.py']);
  t.equal(await (await fetch(`${hub.url}/spaces/alice/app/resolve/main/app.py`)).text(), 'print(2)\n');
  const commits = (await (await fetch(`${hub.url}/api/spaces/alice/app/commits/main`)).json()) as { title: string }[];
  t.same(commits.map((c) => c.title), ['change app', 'add app', 'initial commit'], 'the history is kept');
  t.notOk(JSON.stringify(hub.data()).includes('"commits"'), 'hub.json no longer holds commits');
  const dir = tempDir(t);
  const clone = await gitUser(join(dir, 'home'), null).run(['clone', '--quiet', `${hub.url}/spaces/alice/app`, 'app'], dir);
  t.equal(clone.code, 0, 'and the migrated repo clones');
});
