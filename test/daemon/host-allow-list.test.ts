import t from 'tap';
import { hostname } from 'node:os';
import { startDaemon } from '../../runtime/daemon/server.js';
import { requestAs, upgradeAs } from '../helpers/host-requests.js';

// Issue 29.3 (DNS rebinding): a page on evil.example whose name now resolves
// to the robot sends Host and Origin both naming evil.example, so the Origin
// check alone lets it install and start apps and open /ws/sdk. The daemon
// answers only under loopback, this machine's names and addresses, and
// --allowed-host names: every route and every WebSocket.

const REBOUND = { host: 'evil.example:8000', origin: 'http://evil.example:8000' };
const INSTALL = JSON.stringify({ name: 'evil_app', source_kind: 'hf_space', url: 'https://huggingface.co/spaces/evil/evil_app' });
const SOCKETS = ['/ws/sdk', '/api/state/ws/full?frequency=10', '/api/move/ws/updates', '/api/apps/ws/apps-manager/00000000-0000-4000-8000-000000000000'];

t.test('a rebound name is refused on REST and on every WebSocket, with a message naming the Host and the flag', async (t) => {
  const daemon = await startDaemon({ appsDir: t.testdir(), sim: true, port: 0, hubEndpoint: 'http://127.0.0.1:9', startupApp: null });
  t.teardown(() => daemon.close());
  const install = await requestAs(daemon.url, { method: 'POST', path: '/api/apps/install', headers: REBOUND, body: INSTALL });
  t.equal(install.status, 403, install.body);
  t.same(JSON.parse(install.body), {
    detail: "Host 'evil.example:8000' is not allowed: this server answers only under localhost, this machine's names and addresses, and the names given with --allowed-host (DNS rebinding protection). If this is your server's name, restart it with --allowed-host evil.example.",
  });
  const start = await requestAs(daemon.url, { method: 'POST', path: '/api/apps/start-app/evil_app', headers: REBOUND });
  t.equal(start.status, 403, 'start-app');
  const read = await requestAs(daemon.url, { path: '/api/daemon/status', headers: REBOUND });
  t.equal(read.status, 403, 'reads too: a rebound page could read them');
  const page = await requestAs(daemon.url, { path: '/', headers: { host: 'evil.example:8000' } });
  t.equal(page.status, 403, 'the dashboard');
  for (const path of SOCKETS) {
    const ws = await upgradeAs(daemon.url + path, REBOUND);
    t.equal(ws.status, 403, `${path} upgrade refused`);
    t.match(ws.body, /Host 'evil\.example:8000' is not allowed/, path);
  }
  const jobs = await requestAs(daemon.url, { path: '/api/apps/list-available' });
  t.same(JSON.parse(jobs.body), [], 'nothing was installed');
});

t.test('loopback names and addresses and this machine\'s own name pass, on REST and WebSocket', async (t) => {
  const daemon = await startDaemon({ appsDir: t.testdir(), sim: true, port: 0, startupApp: null });
  t.teardown(() => daemon.close());
  const port = new URL(daemon.url).port;
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${hostname()}:${port}`, `${hostname()}.local:${port}`]) {
    const res = await requestAs(daemon.url, { method: 'POST', path: '/api/move/play/wake_up', headers: { host, origin: `http://${host}` } });
    t.equal(res.status, 200, `${host}: ${res.body}`);
    const ws = await upgradeAs(`${daemon.url}/ws/sdk`, { host, origin: `http://${host}` });
    t.equal(ws.status, 101, `${host}: /ws/sdk opens`);
  }
  const noOrigin = await upgradeAs(`${daemon.url}/ws/sdk`);
  t.equal(noOrigin.status, 101, 'the SDK (no Origin, Host 127.0.0.1) connects');
});

t.test('--allowed-host names pass; the Origin check still applies to them', async (t) => {
  const daemon = await startDaemon({ appsDir: t.testdir(), sim: true, port: 0, startupApp: null, allowedHosts: ['robot.example.org'] });
  t.teardown(() => daemon.close());
  const named = { host: 'robot.example.org:8000', origin: 'http://robot.example.org:8000' };
  const res = await requestAs(daemon.url, { method: 'POST', path: '/api/move/play/wake_up', headers: named });
  t.equal(res.status, 200, res.body);
  t.equal((await upgradeAs(`${daemon.url}/ws/sdk`, named)).status, 101);
  const crossSite = await requestAs(daemon.url, { method: 'POST', path: '/api/move/play/wake_up', headers: { host: 'robot.example.org:8000', origin: 'http://evil.example' } });
  t.equal(crossSite.status, 403);
  t.match(JSON.parse(crossSite.body), { detail: /^Cross-site request refused/ });
  t.equal((await requestAs(daemon.url, { path: '/api/daemon/status', headers: REBOUND })).status, 403, 'other names are still refused');
});
