import t from 'tap';
import WebSocket from 'ws';
import { buildDaemon } from '../../runtime/daemon/server.js';

// Issue 12.2: a web page the user opens cannot drive the robot or remove apps;
// the dashboard (same origin) and non-browser clients (no Origin) still can.

const EVIL = { origin: 'http://evil.example' };
const BODYLESS = ['/api/apps/start-app/hello', '/api/apps/remove/hello', '/api/apps/update/hello', '/api/apps/stop-current-app', '/api/move/play/wake_up', '/api/daemon/restart'];

t.test('state-changing requests from another site are refused with 403', async (t) => {
  const app = await buildDaemon({ appsDir: t.testdir(), sim: true });
  t.teardown(() => app.close());
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  for (const url of BODYLESS) {
    const res = await app.inject({ method: 'POST', url, headers: EVIL });
    t.equal(res.statusCode, 403, url);
    t.match(res.json().detail, /^Cross-site request refused \(Origin: http:\/\/evil\.example\)/);
  }
  const site = await app.inject({ method: 'POST', url: '/api/move/play/wake_up', headers: { 'sec-fetch-site': 'cross-site' } });
  t.equal(site.statusCode, 403);
  const install = await app.inject({ method: 'POST', url: '/api/apps/install', headers: EVIL, payload: { name: 'x', source_kind: 'hf_space', url: 'https://huggingface.co/spaces/a/x' } });
  t.equal(install.statusCode, 403);
  t.equal((await app.inject({ method: 'GET', url: '/api/daemon/status', headers: EVIL })).statusCode, 200, 'reads stay open, as CORS keeps their answers from the page');

  const ws = new WebSocket(`${base.replace('http', 'ws')}/api/move/ws/updates`, { origin: 'http://evil.example' });
  const status = await new Promise<number>((resolve) => {
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => { resolve(101); ws.close(); });
  });
  t.equal(status, 403, 'a WebSocket from another site is refused too');

  // The state stream only sends: another origin (the fleet page) may read it.
  const state = new WebSocket(`${base.replace('http', 'ws')}/api/state/ws/full?frequency=20&with_head_pose=true`, { origin: 'http://127.0.0.1:7860' });
  const first = await new Promise<string>((resolve, reject) => {
    state.on('message', (data: Buffer) => resolve(data.toString()));
    state.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  state.close();
  t.match(JSON.parse(first) as object, { head_pose: {} }, 'the read-only state stream is open to other origins');
});

t.test('the dashboard (same origin) and clients without an Origin keep working', async (t) => {
  const app = await buildDaemon({ appsDir: t.testdir(), sim: true });
  t.teardown(() => app.close());
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const host = new URL(base).host;
  const same = await app.inject({ method: 'POST', url: '/api/move/play/wake_up', headers: { host, origin: base, 'sec-fetch-site': 'same-origin' } });
  t.equal(same.statusCode, 200);
  const plain = await app.inject({ method: 'POST', url: '/api/move/play/wake_up' });
  t.equal(plain.statusCode, 200);
  const byFetch = await fetch(`${base}/api/move/play/goto_sleep`, { method: 'POST', headers: { origin: base } });
  t.equal(byFetch.status, 200);
  const ws = new WebSocket(`${base.replace('http', 'ws')}/api/move/ws/updates`, { origin: base });
  await new Promise<void>((resolve, reject) => { ws.on('open', () => resolve()); ws.on('error', reject); });
  ws.close();
  t.pass('same-origin WebSocket opened');
});
