import t from 'tap';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Io } from '../../lib/io.js';
import { decide, publishExamples, type PublishTarget } from '../../cli/up/publish.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { repoRoot } from '../helpers/cli.js';
import { embeddedHub } from '../helpers/servers.js';

// `up` publishes an example's folder to its Space only when the folder changed
// since the Space's last commit made from it: a Space pushed with git meanwhile
// is never published over (the decision table first, then against a real
// embedded hub with a copy of hello_app as the example folder).

const info = (sha: string) => ({ id: 'demo/hello_app', sha, private: false, siblings: [] });
const never = async (): Promise<boolean> => { throw new Error('the files were compared although the record decides'); };

t.test('the decision: publish, up to date, or ahead', async (t) => {
  const seen = { tree: 'T1', sha: 'S1' };
  t.equal(await decide(undefined, 'T1', null, never), 'publish', 'no Space yet');
  t.equal(await decide(seen, 'T1', info('S1'), never), 'up-to-date', 'nothing moved: no file is compared');
  t.equal(await decide(seen, 'T2', info('S1'), async () => false), 'publish', 'the folder changed, the Space did not');
  t.equal(await decide(seen, 'T1', info('S2'), async () => false), 'ahead', 'a commit was pushed: kept');
  t.equal(await decide(seen, 'T2', info('S2'), async () => false), 'ahead', 'both changed: the Space is kept too');
  t.equal(await decide(seen, 'T2', info('S2'), async () => true), 'up-to-date', 'the changed folder was published by hand');
  t.equal(await decide(undefined, 'T1', info('S9'), async () => false), 'ahead', 'no record of an earlier up: never overwritten');
  t.equal(await decide(undefined, 'T1', info('S9'), async () => true), 'up-to-date');
});

function captureIo(env: NodeJS.ProcessEnv, cwd: string): Io & { text(): string } {
  let out = '';
  return { out: (s) => { out += s; }, err: (s) => { out += s; }, isTTY: false, stdinIsTTY: false, env: { NO_COLOR: '1', ...env }, cwd, text: () => out };
}

t.test('against the embedded hub: a pushed Space stays; a changed folder is published; a manual publish counts', async (t) => {
  const user = { name: 'demo', token: 'hf_up_publish_test_token_0123456789' };
  const hub = await embeddedHub(t, { users: [user] });
  const client = createHubClient({ endpoint: hub.url, token: user.token });
  t.teardown(() => client.close());
  const dir = t.testdir();
  const folder = join(dir, 'hello_app');
  cpSync(join(repoRoot, 'examples', 'apps', 'hello_app'), folder, { recursive: true, filter: (src) => !src.includes('__pycache__') });
  const targets: PublishTarget[] = [{ app: 'hello_app', folder }];
  const record = join(dir, 'published.json');
  const io = captureIo({ HF_ENDPOINT: hub.url, HF_TOKEN: user.token }, dir);
  const run = () => publishExamples(targets, client, 'demo', record, io);
  const sha = async (): Promise<string> => (await client.repoInfo('space', 'demo/hello_app'))?.sha ?? '';

  const [first] = await run();
  t.match(first, { outcome: 'published', space: 'demo/hello_app' });
  const published = await sha();
  t.equal(first?.sha, published);
  const [again] = await run();
  t.match(again, { outcome: 'up-to-date', sha: published });

  // A push (a commit made elsewhere): kept, whatever the folder says.
  await hub.commit('demo', 'space', 'demo/hello_app', { 'README.md': '# pushed with git\n' }, 'Tweak');
  const pushed = await sha();
  const [ahead] = await run();
  t.match(ahead, { outcome: 'ahead', sha: pushed, folderChanged: false });
  t.equal(await sha(), pushed, 'the Space was not published over');
  writeFileSync(join(folder, 'README.md'), `${readFileSync(join(folder, 'README.md'), 'utf8')}\nA change in the folder.\n`);
  const [both] = await run();
  t.match(both, { outcome: 'ahead', sha: pushed, folderChanged: true });
  t.equal(await (await client.downloadFile('space', 'demo/hello_app', 'README.md')).toString(), '# pushed with git\n', 'the pushed file is still there');

  // The user publishes the folder by hand (the message says how): from then on the folder is the source again.
  const { publishApp } = await import('../../cli/app/publish.js');
  await publishApp({ path: folder, token: undefined, private: false, check: false }, io);
  const manual = await sha();
  const [matched] = await run();
  t.match(matched, { outcome: 'up-to-date', sha: manual });
  writeFileSync(join(folder, 'extra.txt'), 'new file\n');
  const [changed] = await run();
  t.match(changed, { outcome: 'published' });
  t.not(await sha(), manual, 'a folder change with no push in between is published');
  t.match(io.text(), /Space demo\/hello_app is up to date/);
});
