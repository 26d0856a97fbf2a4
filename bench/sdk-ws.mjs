// /ws/sdk: state frames per second each client receives (the real daemon
// sends joint_positions + head_pose at 50 Hz each, daemon_status at 1 Hz),
// and set_full_target commands per second the daemon handles from one client
// sending as fast as it can. The daemon runs in this process so the robot's
// own counter says how many targets were applied; the client queues all its
// frames first, and the time that took (its share of the run) is printed and
// checked below saturation, so the rate is the daemon's. Build first.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WebSocket } from 'ws';
import { figure } from './lib/figures.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { buildDaemon } = await import(pathToFileURL(join(root, 'dist', 'runtime', 'daemon', 'server.js')).href);
const dir = await mkdtemp(join(tmpdir(), 'robotctl-bench-sdkws-'));
const app = await buildDaemon({ appsDir: join(dir, 'apps'), sim: true, port: 0, startupApp: null });
await app.listen({ host: '127.0.0.1', port: 0 });
const url = `ws://127.0.0.1:${app.server.address().port}/ws/sdk`;

function open() {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

const CLIENTS = 10;
const SECONDS = 3;
const pose = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
try {
  const clients = await Promise.all(Array.from({ length: CLIENTS }, open));
  const counts = clients.map(() => ({ joint_positions: 0, head_pose: 0, daemon_status: 0 }));
  clients.forEach((ws, i) => ws.on('message', (d) => { counts[i][JSON.parse(String(d)).type]++; }));
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const per = (k) => counts.reduce((a, c) => a + c[k], 0) / CLIENTS / SECONDS;
  for (const [type, hz] of [['joint_positions', 50], ['head_pose', 50], ['daemon_status', 1]]) {
    figure({ name: `sdk ws ${type} frames a client receives (${CLIENTS} clients)`, value: per(type), unit: '/s', target: `≥ ${hz * 0.9}`, ok: per(type) >= hz * 0.9, note: `the daemon sends ${hz}/s` });
  }

  const robot = app.daemon.robot;
  const sender = clients[0];
  const N = 20_000;
  const before = robot.setTargetCount;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    pose[3] = (i % 100) / 10_000;
    sender.send(JSON.stringify({ type: 'set_full_target', head: pose, antennas: [0.1, -0.1], body_yaw: null }));
  }
  const queuedMs = performance.now() - t0;
  while (robot.setTargetCount - before < N && performance.now() - t0 < 30_000) await new Promise((r) => setImmediate(r));
  const handled = robot.setTargetCount - before;
  const secs = (performance.now() - t0) / 1000;
  const rate = handled / secs;
  const clientPct = (100 * queuedMs) / (secs * 1000);
  figure({ name: 'sdk ws set_full_target handled', value: Math.round(rate), unit: 'commands/s', target: '≥ 1000', ok: rate >= 1000, note: `${handled}/${N} applied` });
  figure({ name: 'sdk ws: the client\'s share of that run (queueing its frames)', value: clientPct, unit: '%', target: '< 90', ok: clientPct < 90, note: `${N} frames queued in ${queuedMs.toFixed(0)} ms` });
  for (const ws of clients) ws.close();
} finally {
  await app.close();
  await rm(dir, { recursive: true, force: true });
}
