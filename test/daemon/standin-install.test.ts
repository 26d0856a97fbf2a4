import t from 'tap';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startDaemon } from '../../runtime/daemon/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { repoRoot } from '../helpers/cli.js';
import { fileScratch } from '../helpers/file-scratch.js';
import { until } from '../helpers/wait.js';

// Issue 11.3 end to end: an app that declares `reachy-mini` (the example
// hello_app, a real Reachy Mini app) installed offline. pip cannot get
// reachy-mini, so the daemon installs the stand-in from sdk/python and the
// job log says so; the app then starts, imports reachy_mini and drives the
// simulated robot over /ws/sdk.

t.test('offline, a reachy-mini dependency is met by the stand-in, said in the job log, and the app drives the robot', async (t) => {
  const scratch = fileScratch('standin-install');
  const daemon = await startDaemon({ appsDir: join(scratch.dir, 'apps'), sim: true, port: 0, offline: true, stopTimeoutMs: 5000 });
  const client = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 240_000 });
  t.teardown(async () => {
    await client.close();
    await daemon.close();
    scratch.remove();
  });
  const path = join(repoRoot, 'examples', 'apps', 'hello_app');
  const job = await client.install({ name: 'hello_app', source_kind: 'local', description: '', url: null, extra: { path } });
  t.equal(job.status, 'done');
  t.ok(job.logs.includes('Installing offline (--offline): pip runs with --no-index'), job.logs.join('\n'));
  t.ok(job.logs.some((l) => /^reachy-mini cannot be installed offline: installing robotctl's stand-in from \S+sdk\/python \(import name reachy_mini, same \/ws\/sdk protocol\)$/.test(l)),
    'the job log says the stand-in replaces reachy-mini');
  // Copied from the machine's shared tree, it is installed as pip installs it: pip sees it.
  const venvPython = join(scratch.dir, 'apps', 'venv', 'bin', 'python');
  const show = spawnSync(venvPython, ['-m', 'pip', 'show', 'reachy-mini'], { encoding: 'utf8', env: { ...process.env, PIP_NO_INDEX: '1' } });
  t.match(show.stdout, /^Version: 1\.10\.0\+robotctl\.standin$/m, show.stderr);

  const pose = async (): Promise<string> => JSON.stringify((await (await fetch(`${daemon.url}/api/state/full`)).json() as { head_pose: unknown }).head_pose);
  const rest = await pose();
  await client.startApp('hello_app');
  await until(async () => (await pose()) !== rest, 60_000, 'hello_app moves the head');
  const status = await client.currentAppStatus();
  t.equal(status?.state, 'running', 'the app imported reachy_mini and runs');
  await client.stopCurrentApp();
});
