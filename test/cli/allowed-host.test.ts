import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bin, repoRoot, runInProcess, spawnLongRunning } from '../helpers/cli.js';
import { requestAs } from '../helpers/host-requests.js';
import { startHub } from '../../runtime/hub/server.js';
import { startDaemon } from '../../runtime/daemon/server.js';
import { freePort } from '../helpers/ports.js';
import { contentUpdate } from '../receiver/fixtures.js';

// Issue 29.3: `--allowed-host` on every command that runs a server (the
// built binary: `npm run build` first). Each command is spawned on port 0;
// a Host it was given answers, another gets 403. The receiver's endpoints
// answer under any Host (the Hub reaches them under a public name).

const NAMED = { host: 'robot.example.org:8000' };
const EVIL = { host: 'evil.example:8000' };
const env = (): NodeJS.ProcessEnv => ({ ...process.env, NO_COLOR: '1' });

/** The URL a long-running command printed (`listening on URL`, `fleet page: URL/`…). */
async function printedUrl(run: ReturnType<typeof spawnLongRunning>, pattern: RegExp, what: string): Promise<string> {
  await run.waitFor(what, 120_000);
  const url = pattern.exec(run.output())?.[1];
  if (!url) throw new Error(`no URL in the output of robotctl:\n${run.output()}`);
  return url;
}

t.test('robotctl daemon --allowed-host', async (t) => {
  const run = spawnLongRunning(t, ['daemon', '--sim', '--port', '0', '--apps-dir', join(t.testdir(), 'apps'), '--allowed-host', 'robot.example.org'], env());
  const url = await printedUrl(run, /listening on (http:\S+)/, 'listening on');
  t.equal((await requestAs(url, { path: '/api/daemon/status', headers: NAMED })).status, 200);
  const refused = await requestAs(url, { path: '/api/daemon/status', headers: EVIL });
  t.equal(refused.status, 403);
  t.match(JSON.parse(refused.body), { detail: /--allowed-host evil\.example\.$/ });
  run.child.kill('SIGTERM');
  t.equal(await run.exited, 0);
});

t.test('robotctl hub --allowed-host', async (t) => {
  const run = spawnLongRunning(t, ['hub', '--port', '0', '--allowed-host', 'robot.example.org'], env());
  const url = await printedUrl(run, /listening on (http:\S+)/, 'listening on');
  const whoami = { path: '/api/whoami-v2', headers: { authorization: 'Bearer hf_demo_local_token' } };
  t.equal((await requestAs(url, { ...whoami, headers: { ...whoami.headers, ...NAMED } })).status, 200);
  const refused = await requestAs(url, { ...whoami, headers: { ...whoami.headers, ...EVIL } });
  t.equal(refused.status, 403);
  t.match(JSON.parse(refused.body), { error: /^Host 'evil\.example:8000' is not allowed/ });
  run.child.kill('SIGTERM');
  await run.exited;
});

t.test('robotctl receiver --allowed-host: pages by Host, endpoints under any Host', async (t) => {
  const run = spawnLongRunning(t, ['receiver', '--port', '0', '--allowed-host', 'robot.example.org'], env());
  const url = await printedUrl(run, /listening on (http:\S+)/, 'listening on');
  t.equal((await requestAs(url, { path: '/', headers: NAMED })).status, 200, 'landing page');
  t.equal((await requestAs(url, { path: '/', headers: EVIL })).status, 403);
  const viaPublicName = await requestAs(url, { method: 'POST', path: '/webhooks/log', headers: { host: 'hooks.public.example' }, body: contentUpdate });
  t.equal(viaPublicName.status, 200, `an endpoint under a public name: ${viaPublicName.body}`);
  run.child.kill('SIGTERM');
  await run.exited;
});

t.test('robotctl agent --allowed-host: the status API and the fleet page', async (t) => {
  const dir = t.testdir();
  const hub = await startHub({ port: 0 });
  t.teardown(() => hub.close());
  const daemon = await startDaemon({ appsDir: join(dir, 'robot'), sim: true, port: 0, startupApp: null });
  t.teardown(() => daemon.close());
  const file = join(dir, 'robot.yaml');
  writeFileSync(file, `version: 1\nrobots:\n  desk: { url: ${daemon.url}, apps: [] }\nreceiver:\n  endpoints:\n    log: { action: log }\n`);
  const run = spawnLongRunning(t, ['agent', '-f', file, '--receiver-port', '0', '--allowed-host', 'robot.example.org'],
    { ...env(), HF_ENDPOINT: hub.url, HF_TOKEN: 'hf_demo_local_token' });
  const url = await printedUrl(run, /fleet page: (http:\S+?)\/ /, 'fleet page:');
  t.equal((await requestAs(url, { path: '/status', headers: NAMED })).status, 200);
  t.equal((await requestAs(url, { path: '/', headers: NAMED })).status, 200, 'fleet page');
  t.equal((await requestAs(url, { path: '/status', headers: EVIL })).status, 403);
  t.equal((await requestAs(url, { path: '/', headers: EVIL })).status, 403);
  run.child.kill('SIGTERM');
  t.equal(await run.exited, 0, run.output());
});

t.test('robotctl up --allowed-host: hub, robots and fleet page', async (t) => {
  const dir = t.testdir();
  const [robot, receiver] = [await freePort(), await freePort()];
  const file = join(dir, 'fleet.yaml');
  writeFileSync(file, `version: 1\nrobots:\n  desk: { url: http://127.0.0.1:${robot}, apps: [] }\nreceiver:\n  port: ${receiver}\n  endpoints:\n    log: { action: log }\n`);
  const upEnv: NodeJS.ProcessEnv = { ...env(), WEBHOOK_SECRET: 'allowed-host-up-secret' };
  delete upEnv.HF_ENDPOINT;
  delete upEnv.HF_TOKEN;
  const run = spawnLongRunning(t, ['up', '-f', file, '--data', join(dir, 'data'), '--hub-port', '0', '--allowed-host', 'robot.example.org'], upEnv);
  const hubUrl = await printedUrl(run, /hub: (http:\S+)/, 'robotctl up: ready');
  const robotUrl = `http://127.0.0.1:${robot}`;
  const fleet = `http://127.0.0.1:${receiver}`;
  t.equal((await requestAs(hubUrl, { path: '/api/whoami-v2', headers: NAMED })).status, 401, 'the hub answers (no token)');
  t.equal((await requestAs(hubUrl, { path: '/api/whoami-v2', headers: EVIL })).status, 403);
  t.equal((await requestAs(robotUrl, { path: '/api/daemon/status', headers: NAMED })).status, 200);
  t.equal((await requestAs(robotUrl, { path: '/api/daemon/status', headers: EVIL })).status, 403);
  t.equal((await requestAs(fleet, { path: '/status', headers: NAMED })).status, 200);
  t.equal((await requestAs(fleet, { path: '/status', headers: EVIL })).status, 403);
  run.child.kill('SIGINT');
  t.equal(await run.exited, 0, run.output());
});

t.test('a bad --allowed-host is a usage error naming the value', async (t) => {
  for (const command of [['daemon', '--sim'], ['hub'], ['receiver'], ['agent'], ['up']]) {
    const r = await runInProcess([...command, '--allowed-host', 'http://robot.example.org:8000']);
    t.equal(r.code, 64, command.join(' '));
    t.match(r.stderr, /--allowed-host takes a host name or an address, without scheme or port \(like robot\.example\.org or 192\.168\.1\.20\), got 'http:\/\/robot\.example\.org:8000'/);
  }
});
