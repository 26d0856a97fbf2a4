import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon, type RunningDaemon } from '../../runtime/daemon/server.js';
import { startHub } from '../../runtime/hub/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import { runInProcess } from '../helpers/cli.js';
import { fileScratch } from '../helpers/file-scratch.js';
import { treeFiles } from '../helpers/python-apps.js';
import { until } from '../helpers/wait.js';

// Issue 30.7: offline, the app `robotctl app create` makes (Pollen's
// assistant template, which imports numpy without declaring it, counting on
// reachy-mini to bring it) installs and runs through the simulated daemon's
// own install path, from a folder and from a Space on the embedded hub. The
// stand-in SDK brings no numpy: Debian's python3-numpy is what the apps venv
// sees (lib/python-apps/system-numpy.ts).

interface State { head_pose: unknown; antennas_position: number[] }

async function state(daemon: RunningDaemon): Promise<State> {
  return (await (await fetch(`${daemon.url}/api/state/full`)).json()) as State;
}

/** Started, the app runs its loop: the head turns and the antennas wave (±25°), until it is stopped. */
async function runsItsLoop(t: Test, daemon: RunningDaemon, client: DaemonClient, name: string): Promise<void> {
  const rest = JSON.stringify((await state(daemon)).head_pose);
  await client.startApp(name);
  await until(async () => JSON.stringify((await state(daemon)).head_pose) !== rest, 60_000, `${name} turns the head`);
  const seen = new Set<string>();
  await until(async () => { seen.add((await state(daemon)).antennas_position.map((a) => a.toFixed(3)).join()); return seen.size >= 3; }, 30_000, `${name} waves the antennas`);
  const { antennas_position: antennas } = await state(daemon);
  t.ok(antennas.every((a) => Math.abs(a) <= 0.437), `antennas within ±25° (np.deg2rad of the template): ${antennas.join(', ')}`);
  t.equal((await client.currentAppStatus())?.state, 'running', 'numpy imported, the app runs');
  await client.stopCurrentApp();
  await until(async () => (await client.currentAppStatus()) === null, 30_000, `${name} stopped`);
}

t.test('the template app (import numpy) installs offline from a folder and from a Space, and runs', async (t) => {
  const scratch = fileScratch('template-app');
  const logs: string[] = [];
  const hub = await startHub({ port: 0 });
  const daemon = await startDaemon({
    appsDir: join(scratch.dir, 'apps'), sim: true, port: 0, offline: true, stopTimeoutMs: 10_000,
    hubEndpoint: hub.url, log: (l) => logs.push(l),
  });
  const client = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 240_000 });
  t.teardown(async () => {
    await client.close();
    await daemon.close();
    await hub.close();
    scratch.remove();
  });

  const made = await runInProcess(['app', 'create', 'numpy_app', scratch.dir]);
  t.equal(made.code, 0, made.stderr);
  const src = join(scratch.dir, 'numpy_app');
  t.match(readFileSync(join(src, 'numpy_app', 'main.py'), 'utf8'), /^import numpy as np$/m, 'the template imports numpy as Pollen\'s does');
  t.match(readFileSync(join(src, 'pyproject.toml'), 'utf8'), /dependencies = \[\s*"reachy-mini"\s*\]/, 'and declares only reachy-mini');

  const local = await client.install({ name: 'numpy_app', source_kind: 'local', description: '', url: null, extra: { path: src } });
  t.equal(local.status, 'done', local.logs.join('\n'));
  t.ok(local.logs.some((l) => l.startsWith("reachy-mini cannot be installed offline: installing robotctl's stand-in")), 'the stand-in meets reachy-mini');
  t.notOk(local.logs.some((l) => l.startsWith('Warning:')), local.logs.join('\n'));
  await runsItsLoop(t, daemon, client, 'numpy_app');
  await client.remove('numpy_app');

  await hub.createRepo('demo', 'space', 'demo/numpy_app', { sdk: 'static' });
  await hub.commit('demo', 'space', 'demo/numpy_app', treeFiles(src));
  const space = await client.install({ name: 'numpy_app', source_kind: 'hf_space', description: '', url: `${hub.url}/spaces/demo/numpy_app`, extra: {} });
  t.equal(space.status, 'done', space.logs.join('\n'));
  await runsItsLoop(t, daemon, client, 'numpy_app');
  t.notOk(logs.some((l) => /ModuleNotFoundError|Traceback/.test(l)), 'no traceback in the app output');
});
