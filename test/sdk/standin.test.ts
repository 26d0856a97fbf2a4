import t from 'tap';
import { spawn } from 'node:child_process';
import { startDaemon } from '../../runtime/daemon/server.js';
import { sdkDir } from '../app/helpers.js';

// The reachy_mini stand-in drives the simulated robot from Python over
// /ws/sdk, with the real SDK's names, and fails the way the real SDK does.

interface Py { code: number | null; stdout: string; stderr: string }

function python(script: string, env: NodeJS.ProcessEnv, onLine?: (l: string) => void): Promise<Py> {
  return new Promise((resolve) => {
    const child = spawn('python3', ['-c', script], {
      env: { ...process.env, PYTHONPATH: sdkDir, PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      for (const l of d.toString().split('\n')) if (l) onLine?.(l);
    });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

const DRIVE = `
import json, time
from reachy_mini import ReachyMini
from reachy_mini.utils import create_head_pose
with ReachyMini(media_backend="no_media") as mini:
    mini.set_target(head=create_head_pose(yaw=20, z=10, mm=True), antennas=[0.3, -0.3])
    time.sleep(0.1)
    pose = [list(map(float, r)) for r in mini.get_current_head_pose()]
    t0 = time.monotonic()
    mini.goto_target(antennas=[0.5, -0.5], duration=0.4, method="linear", body_yaw=0.2)
    took = time.monotonic() - t0
    time.sleep(0.1)
    head, antennas = mini.get_current_joint_positions()
    errors = []
    for bad in (lambda: mini.set_target(), lambda: mini.goto_target(antennas=[0, 0], duration=0), lambda: mini.set_target(antennas=[1])):
        try:
            bad()
        except ValueError as e:
            errors.append(str(e))
    mini.disable_motors()
    print(json.dumps({"pose": pose, "took": took, "head": head, "antennas": antennas, "errors": errors}))
`;

t.test('ReachyMini moves the simulated robot: set_target, goto_target, state, motors', async (t) => {
  const daemon = await startDaemon({ appsDir: t.testdir(), sim: true, port: 0, startupApp: null });
  t.teardown(() => daemon.close());
  const r = await python(DRIVE, { ROBOT_DAEMON_URL: daemon.url });
  t.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { pose: number[][]; took: number; head: number[]; antennas: number[]; errors: string[] };
  t.ok(Math.abs(out.pose[1]![0]! - Math.sin(Math.PI / 9)) < 1e-9, 'the head pose streamed back is the target');
  t.ok(Math.abs(out.pose[2]![3]! - 0.01) < 1e-9, 'mm translation');
  t.ok(out.took >= 0.35 && out.took < 1.4, `goto_target returned when the move ended (${out.took.toFixed(3)} s)`);
  t.same(out.antennas, [0.5, -0.5]);
  t.equal(out.head[0], 0.2, 'joint 0 is the body yaw');
  t.same(out.errors, [
    'At least one of head, antennas or body_yaw must be provided.',
    'Duration must be positive and non-zero. Use set_target() for immediate position setting.',
    'Antennas must be a list or 1D np array with two elements.',
  ]);
  const state = (await (await fetch(`${daemon.url}/api/state/full`)).json()) as Record<string, unknown>;
  t.same(state.antennas_position, [0.5, -0.5], 'GET /api/state/full shows the motion');
  t.equal(state.body_yaw, 0.2);
  t.ok(Math.abs((state.head_pose as { yaw: number }).yaw - Math.PI / 9) < 1e-9);
  t.equal(state.control_mode, 'disabled', 'disable_motors');
});

t.test('no daemon: ConnectionError, like the real SDK', async (t) => {
  const r = await python('from reachy_mini import ReachyMini\nReachyMini(timeout=1)', { ROBOT_DAEMON_URL: 'http://127.0.0.1:9' });
  t.equal(r.code, 1);
  t.match(r.stderr, /ConnectionError: Could not connect to the Reachy Mini daemon at ws:\/\/127\.0\.0\.1:9\/ws\/sdk/);
});

t.test('the daemon goes away: commands raise "Lost connection with the server."', async (t) => {
  const daemon = await startDaemon({ appsDir: t.testdir(), sim: true, port: 0, startupApp: null });
  let closed = false;
  t.teardown(() => (closed ? undefined : daemon.close()));
  const script = `
import time
from reachy_mini import ReachyMini
mini = ReachyMini()
print("connected", flush=True)
deadline = time.monotonic() + 10
while time.monotonic() < deadline:
    try:
        mini.set_target(antennas=[0.1, 0.1])
    except ConnectionError as e:
        print("error:", e, flush=True)
        break
    time.sleep(0.05)
`;
  const r = await python(script, { ROBOT_DAEMON_URL: daemon.url }, (l) => {
    if (l === 'connected' && !closed) {
      closed = true;
      void daemon.close();
    }
  });
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, 'error: Lost connection with the server.');
});
