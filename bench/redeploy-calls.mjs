// A redeploy's cost by the daemon call that does it (issue 30.8), on the
// simulated daemon, which does what the real one does for each: an app whose
// Space moved on (a new commit before every call) and which depends on
// reachy-mini, redeployed by
//   - update: the daemon's POST /api/apps/update/<name>: uninstall, then
//     `pip install --force-reinstall` of the app and every dependency
//     (reachy-mini included: the stand-in offline);
//   - remove + install: two jobs, the app absent between them;
//   - install over: POST /api/apps/install of the same app (what robotctl does):
//     pip builds the new revision and replaces the old one; the dependencies,
//     already there, stay.
// No sleep stands in for any of it: pip runs. Build first: npm run build.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHub } from '../dist/runtime/hub/server.js';
import { startDaemon } from '../dist/runtime/daemon/server.js';
import { createDaemonClient } from '../dist/drivers/daemon/client.js';
import { figure } from './lib/figures.mjs';

const ROUNDS = Number(process.env.REDEPLOY_ROUNDS ?? 3);
const USER = { name: 'bench', token: 'hf_bench_redeploy_token_0030' };
const dir = await mkdtemp(join(tmpdir(), 'robotctl-bench-redeploy-'));
const hub = await startHub({ port: 0, users: [USER] });
const daemon = await startDaemon({ sim: true, port: 0, appsDir: join(dir, 'apps'), hubEndpoint: hub.url, hubToken: USER.token, offline: true });
const client = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 600_000 });
const space = 'bench/redeploy_app';
const url = `${hub.url}/spaces/${space}`;
const info = { name: 'redeploy_app', source_kind: 'hf_space', description: '', url, extra: { id: space } };

function files(marker) {
  return {
    'pyproject.toml': `[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "redeploy_app"\nversion = "0.1.0"\ndependencies = ["reachy-mini"]\n\n[project.entry-points."reachy_mini_apps"]\nredeploy_app = "redeploy_app.main:App"\n\n[tool.setuptools]\npackages = ["redeploy_app"]\n`,
    'redeploy_app/__init__.py': `MARKER = ${JSON.stringify(marker)}\n`,
    'redeploy_app/main.py': 'import time\nclass App:\n    pass\nif __name__ == "__main__":\n    try:\n        time.sleep(3600)\n    except KeyboardInterrupt:\n        pass\n',
  };
}

// Each revision's content is new to this machine: the simulator keeps what pip installed from a source
// for every robot (installed-tree.ts), which a revision of an earlier run would find.
const run = `${process.pid}-${Date.now()}`;
let revision = 0;
const push = async () => hub.commit(USER.name, 'space', space, files(`${run}-r${++revision}`), `revision ${revision}`);
const pipRuns = (jobs) => jobs.flatMap((j) => j.logs).filter((l) => l.startsWith('Running command: ') || l.startsWith('Using the files pip installed earlier')).length;
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

const CALLS = {
  update: async () => [await client.update('redeploy_app')],
  'remove + install': async () => [await client.remove('redeploy_app'), await client.install(info)],
  'install over': async () => [await client.install(info)],
};

try {
  await hub.createRepo(USER.name, 'space', space, { sdk: 'static' });
  await push();
  await client.install(info); // the app and reachy-mini (the stand-in) in place, as on a robot that has the app
  const times = Object.fromEntries(Object.keys(CALLS).map((k) => [k, []]));
  const runs = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, call] of Object.entries(CALLS)) {
      await push();
      const t0 = performance.now();
      const jobs = await call();
      times[name].push(performance.now() - t0);
      runs[name] = pipRuns(jobs);
      const listed = (await client.listInstalled()).find((a) => a.name === 'redeploy_app');
      if (!listed) throw new Error(`${name}: the app is not installed after it`);
    }
  }
  const over = median(times['install over']);
  for (const [name, t] of Object.entries(times)) {
    figure({
      name: `redeploy by ${name}, a Space revision with reachy-mini as dependency, median of ${ROUNDS}`,
      value: Math.round(median(t)), unit: 'ms',
      ...(name === 'install over' ? { target: '< update', ok: over < median(times.update) } : {}),
      note: `${runs[name]} pip step(s) in its job log${name === 'install over' ? '' : `; ${(median(t) / over).toFixed(1)}× install over`}`,
    });
  }
} finally {
  await client.close();
  await daemon.close();
  await hub.close();
  await rm(dir, { recursive: true, force: true });
}
