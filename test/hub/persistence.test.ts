import t from 'tap';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { CoalescingWriter } from '../../runtime/hub/persist.js';
import { atomicWrite } from '../../lib/atomic-write.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { repoRoot } from '../helpers/cli.js';
import { ALICE, tempDir } from './helpers.js';
import { until } from '../helpers/wait.js';

t.test('everything survives a restart on the same data folder', async (t) => {
  const dataDir = tempDir(t);
  const first = await startHub({ users: [ALICE], dataDir });
  const c1 = createHubClient({ endpoint: first.url, token: ALICE.token });
  const hook = await c1.createWebhook({ watched: [{ type: 'space', name: 'alice/app' }], url: 'https://x.org/h', secret: 'keep-me' });
  await c1.disableWebhook(hook.id);
  await c1.createRepo('space', 'alice/app', { spaceSdk: 'gradio' });
  const { commitOid } = await c1.commit('space', 'alice/app', [{ op: 'add', path: 'app.py', content: Buffer.from('print(1)\n') }], 'add app');
  await c1.close();
  await first.close();
  t.equal(statSync(join(dataDir, 'hub.json')).mode & 0o777, 0o600, 'store file is private (it holds secrets)');

  const second = await startHub({ users: [ALICE], dataDir });
  t.teardown(() => second.close());
  const c2 = createHubClient({ endpoint: second.url, token: ALICE.token });
  t.teardown(() => c2.close());
  t.same(await c2.getWebhook(hook.id), { ...hook, disabled: true });
  const info = await c2.repoInfo('space', 'alice/app');
  t.equal(info?.sha, commitOid);
  t.equal((await c2.downloadFile('space', 'alice/app', 'app.py')).toString(), 'print(1)\n');
  t.notOk(readdirSync(dataDir).some((n) => n.includes('.tmp-')), 'no temp files left');
});

t.test('atomicWrite replaces by rename and never leaves a partial file', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'x.json');
  await atomicWrite(file, '{"a":1}');
  await atomicWrite(file, '{"a":2}');
  t.equal(readFileSync(file, 'utf8'), '{"a":2}');
  t.same(readdirSync(dir), ['x.json']);
});

t.test('CoalescingWriter serialises and coalesces', async (t) => {
  let writes = 0;
  let running = 0;
  let maxRunning = 0;
  const w = new CoalescingWriter(async () => {
    running++; maxRunning = Math.max(maxRunning, running); writes++;
    await new Promise((r) => setTimeout(r, 5));
    running--;
  });
  await Promise.all(Array.from({ length: 20 }, () => w.flush()));
  t.equal(maxRunning, 1, 'never two writes at once');
  t.ok(writes <= 3, `20 flushes took ${writes} writes`);
});

t.test('kill -9 during a burst of writes leaves a loadable store', async (t) => {
  const dataDir = tempDir(t);
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'robotctl.js'), 'hub', '--port', '0', '--data', dataDir, '--user', ALICE.name, '--token', ALICE.token], { stdio: ['ignore', 'pipe', 'ignore'] });
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^listening on (\S+)\n/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', () => reject(new Error('hub exited early')));
  });
  const c = createHubClient({ endpoint: url, token: ALICE.token, maxRetries: 0 });
  const created: string[] = [];
  const writers = Array.from({ length: 4 }, async () => {
    for (;;) {
      try {
        created.push((await c.createWebhook({ watched: [{ type: 'user', name: 'alice' }], url: `https://x.org/${created.length}` })).id);
      } catch { return; }
    }
  });
  await until(() => created.length > 5, 60_000, 'a few creates before the kill');
  child.kill('SIGKILL');
  await Promise.all(writers);
  await c.close();
  await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
  t.ok(created.length > 5, `${created.length} webhooks created before the kill`);

  const hub = await startHub({ users: [ALICE], dataDir });
  t.teardown(() => hub.close());
  const ids = new Set(hub.data().webhooks.map((w) => w.id));
  // Every create that was answered had been written before its answer.
  t.ok(created.every((id) => ids.has(id)), `all ${created.length} acknowledged creates are in the store (${ids.size} stored)`);
  t.notOk(readdirSync(dataDir).some((n) => n.includes('.tmp-')), 'stale temp files removed on start');
});
