// App lifecycle on the simulated daemon with a real Python app: time from
// the start-app request to the app's first set_target reaching the daemon,
// and a cooperative app's stop including the 1 s return-to-rest move.
// Build first: npm run build.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon } from '../dist/runtime/daemon/server.js';
import { createDaemonClient } from '../dist/drivers/daemon/client.js';
import { figure } from './lib/figures.mjs';

const dir = await mkdtemp(join(tmpdir(), 'robotctl-bench-app-'));
const src = join(dir, 'src', 'bench_app');
mkdirSync(join(src, 'bench_app'), { recursive: true });
writeFileSync(join(src, 'pyproject.toml'), `[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"
[project]
name = "bench_app"
version = "0.1.0"
[project.entry-points."reachy_mini_apps"]
bench_app = "bench_app.main:App"
[tool.setuptools]
packages = ["bench_app"]
`);
writeFileSync(join(src, 'bench_app', '__init__.py'), '');
// Like the default template's loop, with only the standard library.
writeFileSync(join(src, 'bench_app', 'main.py'), `import json, os, time, urllib.request
URL = os.environ.get("ROBOT_DAEMON_URL", "http://127.0.0.1:8000")
class App: pass
if __name__ == "__main__":
    body = json.dumps({"target_head_pose": {"yaw": 0.3}, "target_antennas": [0.2, -0.2]}).encode()
    try:
        while True:
            req = urllib.request.Request(URL + "/api/move/set_target", data=body, headers={"content-type": "application/json"}, method="POST")
            urllib.request.urlopen(req, timeout=5).read()
            time.sleep(0.02)
    except KeyboardInterrupt:
        pass
`);

const daemon = await startDaemon({ sim: true, port: 0, appsDir: join(dir, 'apps') });
const client = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 120_000 });
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
try {
  await client.install({ name: 'bench_app', source_kind: 'local', description: '', url: null, extra: { path: src } });
  const starts = [];
  const stops = [];
  for (let i = 0; i < 5; i++) {
    const before = daemon.stats().writes;
    const t0 = performance.now();
    await client.startApp('bench_app');
    // writes counts every POST: the start itself, then the app's set_targets.
    while (daemon.stats().writes < before + 2) await new Promise((r) => setImmediate(r));
    starts.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 200));
    const t1 = performance.now();
    await client.stopCurrentApp();
    stops.push(performance.now() - t1);
  }
  const [startMid, startMax, stopMid, stopMax] = [median(starts), Math.max(...starts), median(stops), Math.max(...stops)];
  figure({ name: 'daemon: start-app to the app\'s first set_target, median of 5', value: Math.round(startMid), unit: 'ms', target: '< 500', ok: startMid < 500 });
  figure({ name: 'daemon: start-app to the app\'s first set_target, max of 5', value: Math.round(startMax), unit: 'ms', target: '< 500', ok: startMax < 500 });
  figure({ name: 'daemon: stop a cooperative app incl. the return move, median of 5', value: Math.round(stopMid), unit: 'ms', target: '< 1500', ok: stopMid < 1500 });
  figure({ name: 'daemon: stop a cooperative app incl. the return move, max of 5', value: Math.round(stopMax), unit: 'ms', target: '< 1500', ok: stopMax < 1500 });
} finally {
  await client.close();
  await daemon.close();
  await rm(dir, { recursive: true, force: true });
}
