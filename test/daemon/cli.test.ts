import t from 'tap';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { bin, runInProcess } from '../helpers/cli.js';
import { BODIES, alive, makeApp, until } from './helpers.js';

// `robotctl daemon` as users run it (the built binary: run `npm run build` first).

t.test('without --sim there is no backend: exit 1 with a clear message', async (t) => {
  const r = await runInProcess(['daemon']);
  t.equal(r.code, 1);
  t.match(r.stderr, /no hardware backend.*robotctl daemon --sim/);
  const bad = await runInProcess(['daemon', '--sim', '--stop-timeout', 'soon']);
  t.equal(bad.code, 2);
});

t.test('--sim --port 0: first line, serves the API, SIGTERM stops the app and exits 0', async (t) => {
  const dir = t.testdir();
  const child = spawn(process.execPath, [bin, 'daemon', '--sim', '--port', '0', '--apps-dir', `${dir}/apps`, '--robot-name', 'desk', '--stop-timeout', '2'], {
    env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  t.match(first, /^listening on http:\/\/127\.0\.0\.1:\d+$/);
  const url = first.replace('listening on ', '');
  const client = createDaemonClient({ baseUrl: url, jobTimeoutMs: 120_000 });
  t.teardown(() => client.close());
  const st = await client.waitUntilRunning(5000);
  t.equal(st.robot_name, 'desk');
  const path = makeApp(`${dir}/src`, 'cli_app', BODIES.cooperative);
  await client.install({ name: 'cli_app', source_kind: 'local', description: '', url: null, extra: { path } });
  await client.startApp('cli_app');
  await until(async () => (await client.currentAppStatus())?.state === 'running', 10_000, 'running');
  const pid = Number((await until(() => /pid (\d+)/.exec(stderr)?.[1], 10_000, 'app pid')));
  child.kill('SIGTERM');
  t.equal(await exited, 0);
  await until(() => !alive(pid), 2000, 'app gone');
  t.equal(alive(pid), false, 'no app process survives the daemon');
  t.match(stderr, /SIGTERM: stopping/);
});
