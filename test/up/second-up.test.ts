import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, repoRoot, runInProcess } from '../helpers/cli.js';
import { freePort, until } from '../agent/fixture.js';

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
  const child = spawn(process.execPath, [bin, 'up', '-f', file, '--data', data, '--hub-port', '0'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { stdout += d.toString(); });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  await until(() => stdout.includes('robotctl up: ready') || child.exitCode !== null, 120_000, 'robotctl up: ready');
  t.match(stdout, /robotctl up: ready/, stdout);
  const hubUrl = /hub +(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1] ?? '';
  const tokenFile = join(data, 'hub-token');
  const token = readFileSync(tokenFile, 'utf8');
  const mtime = statSync(tokenFile).mtimeMs;

  const second = await runInProcess(['up', '-f', file, '--data', data, '--hub-port', '0'], { env: { PATH: process.env.PATH ?? '', WEBHOOK_SECRET: 'other' } });
  t.equal(second.code, 1);
  t.match(second.stderr, new RegExp(`another robotctl up \\(pid ${child.pid ?? 0}\\) is running with data in`));
  t.equal(readFileSync(tokenFile, 'utf8'), token, 'the token file is untouched');
  t.equal(statSync(tokenFile).mtimeMs, mtime);
  const whoami = await fetch(`${hubUrl}/api/whoami-v2`, { headers: { authorization: `Bearer ${token.trim()}` } });
  t.equal(whoami.status, 200, 'the first hub still accepts its token');

  child.kill('SIGINT');
  t.equal(await exited, 0);
  const third = spawn(process.execPath, [bin, 'up', '-f', file, '--data', data, '--hub-port', '0'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out3 = '';
  third.stdout.on('data', (d: Buffer) => { out3 += d.toString(); });
  const exited3 = new Promise<number | null>((resolve) => third.on('exit', (code) => resolve(code)));
  t.teardown(() => { if (third.exitCode === null) third.kill('SIGKILL'); });
  await until(() => out3.includes('robotctl up: ready') || third.exitCode !== null, 120_000, 'third up ready');
  t.match(out3, /robotctl up: ready/, 'after the first stopped, up starts again on the folder');
  t.equal(readFileSync(tokenFile, 'utf8'), token, 'and keeps the same token');
  third.kill('SIGINT');
  t.equal(await exited3, 0);
});
