import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, repoRoot, runInProcess, unstamped } from '../helpers/cli.js';
import { startHub } from '../../runtime/hub/server.js';
import { startDaemon } from '../../runtime/daemon/server.js';
import type { AgentStatus } from '../../reconciler/agent/status-types.js';
import { USER } from './fixture.js';
import { freePort } from '../helpers/ports.js';
import { until } from '../helpers/wait.js';

// `robotctl agent` as a process: starts, converges, answers /status, and
// stops cleanly on SIGTERM (exit 0, lock released). Flag and file mistakes
// are clear errors.

t.test('agent runs, converges, and stops on SIGTERM', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-agent-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const hub = await startHub({ users: [USER], port: 0 });
  t.teardown(() => hub.close());
  const daemon = await startDaemon({ appsDir: join(dir, 'robot'), sim: true, port: 0, startupApp: null });
  t.teardown(() => daemon.close());
  const port = await freePort();
  const file = join(dir, 'robot.yaml');
  writeFileSync(file, `version: 1
webhooks:
  notify: { url: http://127.0.0.1:${port}/webhooks/log, watched: [user:demo] }
robots:
  desk: { url: ${daemon.url}, apps: [] }
receiver:
  port: ${port}
  endpoints:
    log: { action: log }
`);
  // No secret anywhere (an empty WEBHOOK_SECRET counts as unset): the agent says how to add one.
  const env = { ...process.env, NO_COLOR: '1', HF_ENDPOINT: hub.url, HF_TOKEN: USER.token, WEBHOOK_SECRET: '' };
  const started = Date.now();
  const child = spawn(process.execPath, [bin, 'agent', '-f', file, '--interval', '30s'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stamped = '';
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => { stamped += d.toString(); stdout += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { stamped += d.toString(); });
  // Lines are matched after their time stamps (checked below).
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  await until(() => { out = unstamped(stamped); return /^converged$/m.test(out) || child.exitCode !== null; }, 30_000, 'converged');
  t.match(out, /done +create webhooks\.notify/, out);
  const st = (await (await fetch(`http://127.0.0.1:${port}/status`)).json()) as AgentStatus;
  t.equal(st.drift, false);
  t.equal(st.last_run?.trigger, 'startup');
  t.equal(st.hub?.webhooks[0]?.state, 'converged');
  t.notOk(out.includes(USER.token), 'the token is never printed');
  t.match(out, /^Webhook secret is not defined\. This means your webhook endpoints will be open to everyone\.\nTo add a secret, set `WEBHOOK_SECRET` in the environment, or `receiver\.secret: \$\{WEBHOOK_SECRET\}` in robot\.yaml; the webhooks that call these endpoints must send the same secret\.$/m,
    'the CLI user\'s way to add a secret, not the library\'s createReceiver');
  t.notMatch(out, /createReceiver/);
  child.kill('SIGTERM');
  t.equal(await exited, 0, stamped);
  out = unstamped(stamped);
  t.match(out, /agent stopped\n$/);
  // Issue 29.10: every line the agent prints starts with an ISO 8601 UTC time, in order, of this run.
  const lines = stdout.split('\n').filter((l) => l !== '');
  t.ok(lines.length > 5);
  const times = lines.map((l) => /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z) /.exec(l)?.[1] ?? `no stamp: ${l}`);
  t.same(times.filter((x) => x.startsWith('no stamp')), [], 'each line is stamped');
  t.same([...times].sort(), times, 'in order');
  t.ok(Date.parse(times[0] ?? '') >= started - 1000 && Date.parse(times.at(-1) ?? '') <= Date.now() + 1000, 'with the time it was written');
  t.notOk(existsSync(join(dir, '.robotctl', 'state.json.lock')), 'lock released');
  t.ok(existsSync(join(dir, '.robotctl', 'state.json')), 'state written');
});

t.test('flag and file mistakes', async (t) => {
  const dir = t.testdir({ 'robot.yaml': 'version: 1\nrobots:\n  desk: { url: http://127.0.0.1:1 }\n', 'bad.yaml': 'version: 2\n' });
  const mode = await runInProcess(['agent', '-f', join(dir, 'robot.yaml'), '--mode', 'loud']);
  t.equal(mode.code, 64);
  t.match(mode.stderr, /--mode must be heal or warn/);
  const interval = await runInProcess(['agent', '-f', join(dir, 'robot.yaml'), '--interval', 'soon']);
  t.equal(interval.code, 64);
  t.match(interval.stderr, /--interval: expected a duration/);
  const port = await runInProcess(['agent', '-f', join(dir, 'robot.yaml'), '--receiver-port', '70000']);
  t.equal(port.code, 64);
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const taken = (busy.address() as { port: number }).port;
  const inUse = await runInProcess(['agent', '-f', join(dir, 'robot.yaml'), '--receiver-port', String(taken)], { env: { PATH: process.env.PATH ?? '' } });
  await new Promise<void>((resolve) => busy.close(() => resolve()));
  t.equal(inUse.code, 1);
  t.match(inUse.stderr, new RegExp(`port ${taken} is already in use`));
  const bad = await runInProcess(['agent', '-f', join(dir, 'bad.yaml')]);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /bad\.yaml:1:\d+: .*version/);
  t.notMatch(bad.stderr, /\n\s+at /, 'no stack trace');
});
