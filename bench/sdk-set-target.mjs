// The reachy_mini stand-in: set_target calls/s and per-call cost from Python
// (fire-and-forget frames on /ws/sdk), against the bundled daemon (`robotctl
// daemon --sim`) in its own process. An app's loop needs 50/s; the rest is
// headroom. The client is the subject here (the SDK's own cost per call), so
// its CPU is printed but not held below saturation as a load generator's is.
// Build first.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { figure } from './lib/figures.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = await mkdtemp(join(tmpdir(), 'robotctl-bench-sdk-'));
const daemon = spawn(process.execPath, [join(root, 'bin', 'robotctl.js'), 'daemon', '--sim', '--port', '0', '--apps-dir', join(dir, 'apps')], { stdio: ['ignore', 'pipe', 'inherit'] });
const first = await new Promise((r) => createInterface({ input: daemon.stdout }).once('line', r));
const url = first.replace('listening on ', '');

const script = `
import json, time, urllib.request
from reachy_mini import ReachyMini
from reachy_mini.utils import create_head_pose
r = ReachyMini()
pose = create_head_pose(yaw=10)
for _ in range(200):
    r.set_target(head=pose, antennas=[0.1, -0.1])
lat = []
c0 = time.process_time()
t0 = time.perf_counter()
while time.perf_counter() - t0 < 3.0:
    s = time.perf_counter()
    r.set_target(head=pose, antennas=[0.1, -0.1])
    lat.append(time.perf_counter() - s)
total = time.perf_counter() - t0
cpu = time.process_time() - c0
lat.sort()
time.sleep(0.5)
r.close()
print(json.dumps({"rate": len(lat) / total, "p50": lat[len(lat) // 2] * 1000, "p99": lat[int(len(lat) * 0.99)] * 1000, "cpu_pct": 100 * cpu / total}))
`;

try {
  const r = spawnSync('python3', ['-c', script], {
    env: { ...process.env, PYTHONPATH: join(root, 'sdk', 'python'), PYTHONDONTWRITEBYTECODE: '1', ROBOT_DAEMON_URL: url },
    encoding: 'utf8', timeout: 30_000,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  const { rate, p50, p99, cpu_pct: cpuPct } = JSON.parse(r.stdout);
  figure({ name: 'sdk set_target from Python (head + antennas, reachy_mini stand-in over /ws/sdk)', value: Math.round(rate), unit: 'calls/s',
    target: '≥ 1000', ok: rate >= 1000, note: `an app needs 50; the Python client used ${cpuPct.toFixed(0)}% of a core` });
  figure({ name: 'sdk set_target call, p50', value: p50, unit: 'ms' });
  figure({ name: 'sdk set_target call, p99', value: p99, unit: 'ms', target: '< 5', ok: p99 < 5, note: 'a 50 Hz tick is 20 ms' });
} finally {
  daemon.kill('SIGTERM');
  await new Promise((r) => daemon.once('close', r));
  await rm(dir, { recursive: true, force: true });
}
