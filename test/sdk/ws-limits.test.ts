import t from 'tap';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startDaemon } from '../../runtime/daemon/server.js';
import { spawnLongRunning } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';
import { SdkWsClient, type } from './ws-helpers.js';

// Issue 29.7: /ws/sdk took frames up to ws's default 100 MiB (four clients
// sending 95 MB each took the daemon from 138 to 819 MB) and logged every
// invalid frame (3,000 frames → 3,005 lines). Frames are capped at 1 MiB
// (close 1009); invalid ones are logged at most once a second per client,
// with a count of the others.

const MiB = 1024 * 1024;

t.test('a 2 MiB frame closes the socket with 1009; the daemon serves on', async (t) => {
  const d = await startDaemon({ appsDir: t.testdir(), sim: true, port: 0, startupApp: null });
  t.teardown(() => d.close());
  const ws = new WebSocket(`${d.url.replace('http', 'ws')}/ws/sdk`);
  await new Promise<void>((resolve, reject) => { ws.once('open', () => resolve()); ws.once('error', reject); });
  const closed = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the daemon took the 2 MiB frame and did not close')), 30_000);
    ws.once('close', (code) => { clearTimeout(timer); resolve(code); });
  });
  ws.on('error', () => {}); // the write of the rest may fail once the daemon closed
  ws.send(Buffer.alloc(2 * MiB, 0x20));
  t.equal(await closed, 1009, 'Message Too Big');
  const c = await SdkWsClient.connect(d.url);
  t.teardown(() => c.close());
  c.send(JSON.stringify({ type: 'set_antennas', antennas: [0.1, 0.1] }).padEnd(MiB - 16, ' '));
  await c.next((f) => f.msg.type === 'joint_positions' && (f.msg.antennas_joint_positions as number[])[0] === 0.1, 5000, 'a frame just under 1 MiB is taken');
});

/** Upgrades a raw socket on /ws/sdk; resolves once the 101 arrived. */
async function rawUpgrade(port: number): Promise<Socket> {
  const sock = connect(port, '127.0.0.1');
  sock.on('error', () => {});
  await new Promise<void>((resolve, reject) => { sock.once('connect', resolve); sock.once('error', reject); });
  sock.write(`GET /ws/sdk HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  let head = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer): void => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      sock.off('data', onData);
      if (head.startsWith('HTTP/1.1 101')) resolve(); else reject(new Error(head));
    };
    sock.on('data', onData);
  });
  return sock;
}

/**
 * One masked binary frame that declares `declared` bytes, then up to `send`
 * bytes of it as fast as the daemon reads them; stops when the daemon closes.
 * Resolves with how many bytes went out.
 */
async function floodFrame(sock: Socket, declared: number, send: number): Promise<number> {
  const header = Buffer.alloc(14);
  header[0] = 0x82;
  header[1] = 0x80 | 127;
  header.writeBigUInt64BE(BigInt(declared), 2);
  randomBytes(4).copy(header, 10);
  let open = true;
  sock.once('close', () => { open = false; });
  sock.write(header);
  const chunk = Buffer.alloc(MiB, 0x41);
  let sent = 0;
  while (open && sent < send) {
    sent += chunk.length;
    if (!sock.write(chunk)) await new Promise<void>((resolve) => { sock.once('drain', resolve); sock.once('close', resolve); });
  }
  sock.destroy();
  return sent;
}

function peakRssKiB(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
}

t.test('four clients each declaring a 95 MB frame do not inflate the daemon', async (t) => {
  const run = spawnLongRunning(t, ['daemon', '--sim', '--port', '0', '--apps-dir', join(t.testdir(), 'apps')], { ...process.env, NO_COLOR: '1' });
  await run.waitFor('listening on', 60_000);
  const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(run.output())?.[1]);
  const pid = run.child.pid ?? 0;
  // The first connection loads ws's code paths: counted before the baseline.
  (await rawUpgrade(port)).destroy();
  const before = peakRssKiB(pid);
  const socks = await Promise.all([0, 1, 2, 3].map(() => rawUpgrade(port)));
  const sent = await Promise.all(socks.map((s) => floodFrame(s, 95_000_000, 40 * MiB)));
  const after = peakRssKiB(pid);
  t.comment(`peak RSS ${Math.round(before / 1024)} → ${Math.round(after / 1024)} MB; sent ${sent.map((n) => Math.round(n / MiB)).join(', ')} MiB`);
  // Without the cap the daemon buffers what the clients send (4 × 40 MiB here) to complete their frames.
  t.ok(after - before < 32 * 1024, `peak RSS grew by ${Math.round((after - before) / 1024)} MB`);
  const status = await fetch(`http://127.0.0.1:${port}/api/daemon/status`);
  t.equal(status.status, 200, 'the daemon serves on');
  run.child.kill('SIGTERM');
  t.equal(await run.exited, 0);
});

t.test('3,000 invalid frames give a handful of log lines that account for all of them', async (t) => {
  const log: string[] = [];
  const d = await startDaemon({ appsDir: t.testdir(), sim: true, port: 0, startupApp: null, log: (l) => log.push(l) });
  t.teardown(() => d.close());
  const c = await SdkWsClient.connect(d.url);
  for (let i = 0; i < 3000; i++) c.send(i % 2 ? 'not json' : { type: 'bogus' });
  // Frames are handled in order: once the recording answers, all 3,000 were seen.
  c.send({ type: 'start_recording' });
  c.send({ type: 'stop_recording' });
  await c.next(type('recorded_data'), 30_000, 'recorded_data');
  const lines = (): string[] => log.filter((l) => l.startsWith('WS invalid message') || l.startsWith('WS client closed'));
  t.ok(lines().length >= 1 && lines().length <= 10, `${lines().length} lines while the client floods`);
  await c.close();
  await until(() => lines().some((l) => l.startsWith('WS client closed')), 5000, 'the closing count');
  const counted = lines().reduce((sum, l) => {
    const more = /(\d+) more invalid messages?/.exec(l);
    return sum + (l.startsWith('WS invalid message') ? 1 : 0) + (more ? Number(more[1]) : 0);
  }, 0);
  t.equal(counted, 3000, `every invalid frame is logged or counted:\n${lines().join('\n')}`);
  t.match(lines().at(-1), /^WS client closed: \d+ more invalid messages? not logged \(at most one line a second per client\)$/);
});
