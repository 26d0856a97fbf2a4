// Start-app to the first set_target over /ws/sdk: POST start-app for the
// example hello_app (a real Reachy Mini app, run with the reachy_mini
// stand-in), until the simulated robot applies the app's first target
// (Python start-up, imports, the /ws/sdk handshake, the first frame). Five
// runs, median and worst. The daemon runs in this process. Build first.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { figure } from './lib/figures.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const load = (p) => import(pathToFileURL(join(root, 'dist', ...p)).href);
const { buildDaemon } = await load(['runtime', 'daemon', 'server.js']);
const { createDaemonClient } = await load(['drivers', 'daemon', 'client.js']);
const dir = await mkdtemp(join(tmpdir(), 'robotctl-bench-startapp-'));
const app = await buildDaemon({ appsDir: join(dir, 'apps'), sim: true, port: 0, startupApp: null, stopTimeoutMs: 5000,
  env: { ...process.env, ROBOTCTL_APP_SETTINGS_URL: 'http://127.0.0.1:0' } });
const url = await app.listen({ host: '127.0.0.1', port: 0 });
app.daemon.url = url; // what startDaemon does: the apps' ROBOT_DAEMON_URL
const client = createDaemonClient({ baseUrl: url, jobTimeoutMs: 600_000 });
const robot = app.daemon.robot;
let firstTarget = null;
const setTarget = robot.setTarget.bind(robot);
robot.setTarget = (t) => {
  firstTarget ??= performance.now();
  return setTarget(t);
};
try {
  await client.install({ name: 'hello_app', source_kind: 'local', description: '', url: null, extra: { path: join(root, 'examples', 'apps', 'hello_app') } });
  const runs = [];
  for (let i = 0; i < 5; i++) {
    firstTarget = null;
    const t0 = performance.now();
    await client.startApp('hello_app');
    while (firstTarget === null && performance.now() - t0 < 20_000) await new Promise((r) => setTimeout(r, 1));
    runs.push(firstTarget === null ? Infinity : firstTarget - t0);
    await client.stopCurrentApp();
  }
  runs.sort((a, b) => a - b);
  figure({
    name: 'start-app to the first set_target over /ws/sdk (hello_app, reachy_mini stand-in), median of 5', value: Math.round(runs[2]), unit: 'ms',
    target: '< 500', ok: runs[2] < 500, note: `worst ${runs[4].toFixed(0)} ms`,
  });
} finally {
  await client.close();
  await app.close();
  await rm(dir, { recursive: true, force: true });
}
