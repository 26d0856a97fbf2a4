// The reachy_mini stand-in: set_target calls/s and per-call cost from Python
// (fire-and-forget frames on /ws/sdk), against the bundled daemon (`robotctl
// daemon --sim`) in its own process, and how many the robot applied. An app's
// loop needs 50/s; the rest is headroom. Build first.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

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
t0 = time.perf_counter()
while time.perf_counter() - t0 < 3.0:
    s = time.perf_counter()
    r.set_target(head=pose, antennas=[0.1, -0.1])
    lat.append(time.perf_counter() - s)
total = time.perf_counter() - t0
lat.sort()
time.sleep(0.5)
r.close()
print(json.dumps({"rate": len(lat) / total, "p50": lat[len(lat) // 2] * 1000, "p99": lat[int(len(lat) * 0.99)] * 1000}))
`;

try {
  const r = spawnSync('python3', ['-c', script], {
    env: { ...process.env, PYTHONPATH: join(root, 'sdk', 'python'), PYTHONDONTWRITEBYTECODE: '1', ROBOT_DAEMON_URL: url },
    encoding: 'utf8', timeout: 30_000,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  const { rate, p50, p99 } = JSON.parse(r.stdout);
  console.log(`sdk set_target (head + antennas, reachy_mini stand-in over /ws/sdk): ${Math.round(rate)} calls/s (target ≥ 1000; an app needs 50)`);
  console.log(`sdk set_target latency p50: ${p50.toFixed(3)} ms (target -)`);
  console.log(`sdk set_target latency p99: ${p99.toFixed(3)} ms (target < 5, a 50 Hz tick is 20)`);
} finally {
  daemon.kill('SIGTERM');
  await new Promise((r) => daemon.once('close', r));
  await rm(dir, { recursive: true, force: true });
}
