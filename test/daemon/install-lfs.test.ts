import t from 'tap';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import type { CommitOperation } from '../../drivers/hub/types.js';
import { appFiles } from '../helpers/python-apps.js';
import { closePair, daemonPair } from '../helpers/servers.js';
import { until } from '../helpers/wait.js';
import { fileScratch } from '../helpers/file-scratch.js';

// The simulated daemon installs a Space whose model is an LFS file: it
// downloads through the hub driver, so resolve must give the content (not
// the LFS pointer), pip packages it, and the app reads it at run time.

const TOKEN = 'hf_daemon_lfs_token_123';
const scratch = fileScratch('install-lfs');
t.teardown(() => scratch.remove());

const BODY = `
def main():
    import hashlib
    with open(os.path.join(os.path.dirname(__file__), "model.bin"), "rb") as f:
        print("marker", hashlib.sha256(f.read()).hexdigest(), flush=True)
`;

t.test('a Space with an LFS model installs and its app reads the model, not a pointer', async (t) => {
  const hub = await startHub({ users: [{ name: 'demo', token: TOKEN }] });
  t.teardown(() => hub.close());
  const publisher = createHubClient({ endpoint: hub.url, token: TOKEN });
  t.teardown(() => publisher.close());
  await publisher.createRepo('space', 'demo/model_app', { spaceSdk: 'static' });
  const model = randomBytes(300_000);
  const files = appFiles('model_app', BODY);
  // The model ships as package data (as real apps declare it).
  files['pyproject.toml'] += '\n[tool.setuptools.package-data]\nmodel_app = ["*.bin"]\n';
  const ops: CommitOperation[] = Object.entries(files).map(([path, text]) => ({ op: 'add', path, content: Buffer.from(text) }));
  ops.push({ op: 'add', path: 'model_app/model.bin', content: model });
  await publisher.commit('space', 'demo/model_app', ops, 'An app with a model');
  const info = await publisher.repoInfo('space', 'demo/model_app', undefined, { filesMetadata: true });
  const sha = createHash('sha256').update(model).digest('hex');
  t.match(info?.siblings.find((s) => s.rfilename === 'model_app/model.bin'), { lfs: { sha256: sha } }, 'the model is an LFS file on the hub');

  const logs: string[] = [];
  const pair = await daemonPair(join(scratch.dir, 'apps'), { hubEndpoint: hub.url, log: (l) => logs.push(l) });
  t.teardown(() => closePair(pair));
  const job = await pair.client.install({ name: 'model_app', source_kind: 'hf_space', description: '', url: `${hub.url}/spaces/demo/model_app`, extra: {} });
  t.equal(job.status, 'done', job.logs.join('\n'));
  await pair.client.startApp('model_app');
  await until(async () => (await pair.client.currentAppStatus())?.state === 'done', 15_000, 'model_app done');
  t.equal(logs.find((l) => l.startsWith('marker '))?.slice(7), sha, 'the installed app read the model\'s content');
});
