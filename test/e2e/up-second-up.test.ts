import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess, spawnLongRunning } from '../helpers/cli.js';
import { freePort } from '../agent/fixture.js';

// A second `up` on the same data folder refuses before it touches anything:
// the first session's token file, hub and receiver keep working.

t.test('a second up on the same data folder is refused and the first is left intact', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-up2-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const receiver = await freePort();
  const file = join(dir, 'fleet.yaml');
  writeFileSync(file, `version: 1
webhooks:
  notify:
    url: http://127.0.0.1:${receiver}/webhooks/redeploy
    watched: [user:demo]
    secret: \${WEBHOOK_SECRET}
receiver:
  port: ${receiver}
  secret: \${WEBHOOK_SECRET}
  endpoints:
    redeploy: { action: reconcile }
`);
  const data = join(dir, 'data');
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', WEBHOOK_SECRET: 'second-up-secret' };
  delete env.HF_TOKEN;
  delete env.HF_ENDPOINT;
  const first = spawnLongRunning(t, ['up', '-f', file, '--data', data, '--hub-port', '0'], env);
  // The ready block (hub URL included) ends with the Ctrl-C line; it may arrive in chunks.
  await first.waitFor('Ctrl-C stops everything', 120_000);
  const stdout = first.output();
  t.match(stdout, /robotctl up: ready/, stdout);
  const hubUrl = /hub +(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1] ?? '';
  const tokenFile = join(data, 'hub-token');
  const token = readFileSync(tokenFile, 'utf8');
  const mtime = statSync(tokenFile).mtimeMs;

  const second = await runInProcess(['up', '-f', file, '--data', data, '--hub-port', '0'], { env: { PATH: process.env.PATH ?? '', WEBHOOK_SECRET: 'other' } });
  t.equal(second.code, 1);
  t.match(second.stderr, new RegExp(`another robotctl up \\(pid ${first.child.pid ?? 0}\\) is running with data in`));
  t.equal(readFileSync(tokenFile, 'utf8'), token, 'the token file is untouched');
  t.equal(statSync(tokenFile).mtimeMs, mtime);
  const whoami = await fetch(`${hubUrl}/api/whoami-v2`, { headers: { authorization: `Bearer ${token.trim()}` } });
  t.equal(whoami.status, 200, 'the first hub still accepts its token');

  first.child.kill('SIGINT');
  t.equal(await first.exited, 0);
  const third = spawnLongRunning(t, ['up', '-f', file, '--data', data, '--hub-port', '0'], env);
  await third.waitFor('robotctl up: ready', 120_000);
  t.match(third.stdout(), /robotctl up: ready/, 'after the first stopped, up starts again on the folder');
  t.equal(readFileSync(tokenFile, 'utf8'), token, 'and keeps the same token');
  third.child.kill('SIGINT');
  t.equal(await third.exited, 0);
});
