import t from 'tap';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { bin, runInProcess } from '../helpers/cli.js';
import { BODIES, makeApp, treeFiles } from '../helpers/python-apps.js';
import { alive } from '../helpers/processes.js';
import { until } from '../helpers/wait.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { DaemonError } from '../../drivers/daemon/errors.js';

// `robotctl daemon` as users run it (the built binary: run `npm run build` first).

t.test('without --sim there is no backend: exit 1 with a clear message', async (t) => {
  const r = await runInProcess(['daemon']);
  t.equal(r.code, 1);
  t.match(r.stderr, /no hardware backend.*`node bin\/robotctl\.js daemon --sim`/);
  const bad = await runInProcess(['daemon', '--sim', '--stop-timeout', 'soon']);
  t.equal(bad.code, 64);
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

t.test('a private Space installs with the token `robotctl auth login` saved ($HF_HOME/token), not only HF_TOKEN', async (t) => {
  const dir = t.testdir();
  const hub = await startHub({ users: [{ name: 'carol', token: 'hf_carol_daemon_cli_token' }] });
  t.teardown(() => hub.close());
  await hub.createRepo('carol', 'space', 'carol/priv_app', { private: true, sdk: 'static' });
  await hub.commit('carol', 'space', 'carol/priv_app', treeFiles(makeApp(`${dir}/src`, 'priv_app', BODIES.cooperative)));
  const hfHome = join(dir, 'hf');
  mkdirSync(hfHome);
  writeFileSync(join(hfHome, 'token'), 'hf_carol_daemon_cli_token\n', { mode: 0o600 });
  const start = async (env: NodeJS.ProcessEnv, apps: string) => {
    const { HF_TOKEN: _drop, HF_TOKEN_PATH: _drop2, ...base } = process.env;
    const child = spawn(process.execPath, [bin, 'daemon', '--sim', '--port', '0', '--apps-dir', apps, '--hub', hub.url], {
      env: { ...base, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
    const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    const client = createDaemonClient({ baseUrl: first.replace('listening on ', ''), jobTimeoutMs: 120_000 });
    return { client, stop: async () => { await client.close(); child.kill('SIGTERM'); return exited; } };
  };
  const info = { name: 'priv_app', source_kind: 'hf_space' as const, description: '', url: `${hub.url}/spaces/carol/priv_app`, extra: {} };

  const anonymous = await start({ HF_HOME: join(dir, 'nobody') }, join(dir, 'apps-anon'));
  const denied = await anonymous.client.install(info).then(() => null, (err: unknown) => err);
  t.ok(denied instanceof DaemonError, 'without a token the private Space cannot be read');
  t.equal(await anonymous.stop(), 0);

  const loggedIn = await start({ HF_HOME: hfHome }, join(dir, 'apps'));
  await loggedIn.client.install(info);
  t.same((await loggedIn.client.listInstalled()).map((a) => a.name), ['priv_app']);
  t.equal(await loggedIn.stop(), 0);
});
