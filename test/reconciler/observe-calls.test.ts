import t from 'tap';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { request } from 'undici';
import { startDaemon } from '../../runtime/daemon/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { RobotPool } from '../../drivers/daemon/pool.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import type { Config } from '../../schema/types.js';
import { observe } from '../../reconciler/observe.js';
import type { HubClient } from '../../drivers/hub/types.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { app, config, pathApp } from './plan-fixtures.js';

// Issue 16 "Fleet": a drift check reads 2 routes per robot (installed apps,
// current app); the daemon status is read only when a `path:` app may have
// to be installed, robot.yaml declares the robot's identity or daemon version,
// or the status table asks (with the startup app). All robot clients share one
// bounded RobotPool, so open connections follow parallelism, not fleet size.

const noHub = {} as HubClient; // robots-only configs: observe never calls the hub

t.test('a drift check costs 2 daemon calls per robot; 3 only when the daemon status decides something', async (t) => {
  const dir = t.testdir();
  const daemon = await startDaemon({ appsDir: join(dir, 'robot'), sim: true, port: 0 });
  const proxy = await startFaultProxy(daemon.url, () => null);
  const client = createDaemonClient({ baseUrl: proxy.url });
  t.teardown(async () => { await client.close(); await proxy.close(); await daemon.close(); });
  const calls = async (cfg: Config, opts: { daemonStatus?: boolean } = {}): Promise<string[]> => {
    for (const r of Object.values(cfg.robots)) r.url = proxy.url;
    const before = proxy.seen.length;
    const obs = await observe(cfg, { hub: noHub, daemon: () => client }, undefined, { listWebhooks: false, ...opts });
    t.ok(obs.robots.desk?.reachable, 'robot observed');
    return proxy.seen.slice(before).map((s) => s.url).sort();
  };
  // spaceId null: no Space is read, only the robot's calls are counted.
  const sourceOnly = config({ apps: [app('hello_app', { spaceId: null })], active: 'hello_app', robots: [{ name: 'desk' }] });
  t.same(await calls(sourceOnly), ['/api/apps/current-app-status', '/api/apps/list-available/installed']);
  const withPath = config({ apps: [pathApp('dev_app', join(dir, 'dev_app'))], robots: [{ name: 'desk' }] });
  t.same(await calls(withPath), ['/api/apps/current-app-status', '/api/apps/list-available/installed', '/api/daemon/status'],
    'a path app not installed yet: the plan must know whether this daemon installs local folders');
  t.same((await calls(sourceOnly, { daemonStatus: true })).length, 4, 'the status table asks for it, and for the startup app it shows (issue 30.5)');
  const withStartup = config({ apps: [app('hello_app', { spaceId: null })], active: 'hello_app', robots: [{ name: 'desk' }] });
  for (const r of Object.values(withStartup.robots)) r.startupApp = 'hello_app';
  t.same(await calls(withStartup), ['/api/apps/current-app-status', '/api/apps/list-available/installed', '/api/apps/startup-app'], 'a third call only where robot.yaml manages the startup app');
  const itself = config({ apps: [app('hello_app', { spaceId: null })], robots: [{ name: 'desk', hardwareId: null, robotName: 'desk' }] });
  t.same(await calls(itself), ['/api/apps/current-app-status', '/api/apps/list-available/installed', '/api/daemon/status'],
    'a declared hardware id or name: the status says both (and the release), in one call');
  const latest = config({ apps: [app('hello_app', { spaceId: null })], robots: [{ name: 'desk', daemonVersion: 'latest' }] });
  t.same(await calls(latest), ['/api/apps/current-app-status', '/api/apps/list-available/installed', '/api/daemon/status', '/api/update/available?pre_release=false'],
    '`latest` asks the daemon which release is the newest');
});

/** Plain servers standing for robots: the pool is about sockets, not routes. */
async function robots(n: number): Promise<{ urls: string[]; open: () => number; accepted: () => number; close: () => Promise<void> }> {
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  let accepted = 0;
  for (let i = 0; i < n; i++) {
    const s = createServer((_req, res) => { res.setHeader('content-type', 'application/json'); res.end('[]'); });
    s.on('connection', (sock) => { accepted += 1; sockets.add(sock); sock.on('close', () => sockets.delete(sock)); });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    servers.push(s);
  }
  return {
    urls: servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`),
    open: () => sockets.size,
    accepted: () => accepted,
    close: async () => { for (const s of servers) { s.closeAllConnections(); await new Promise<void>((r) => s.close(() => r())); } },
  };
}

t.test('one RobotPool for 60 robots keeps connections bounded by its limits, not by the fleet', async (t) => {
  const fleet = await robots(60);
  const pool = new RobotPool({ origins: 8, perOrigin: 2 });
  t.teardown(async () => { await pool.close(); await fleet.close(); });
  let peak = 0;
  const clients: DaemonClient[] = fleet.urls.map((baseUrl) => createDaemonClient({ baseUrl, dispatcher: pool }));
  for (let i = 0; i < clients.length; i += 4) {
    // 4 robots at once, 2 calls each, like observe with parallelism 4.
    await Promise.all(clients.slice(i, i + 4).flatMap((c) => [c.listInstalled(), c.listInstalled()]));
    peak = Math.max(peak, fleet.open());
  }
  t.ok(pool.openOrigins <= 8, `robots with open connections: ${pool.openOrigins}`);
  t.ok(peak <= 8 * 2 + 4 * 2, `open sockets stayed bounded (peak ${peak} for 60 robots)`);
  await pool.close();
  for (const c of clients) await c.close();
  t.equal(pool.openOrigins, 0);
  const after = await request(fleet.urls[0] as string, { dispatcher: pool });
  t.equal(after.statusCode, 200, 'a closed pool opens new connections when used again');
  await after.body.dump();
  await pool.close();
  // The contrast: a client of its own per robot keeps every robot's connections.
  const own = fleet.urls.map((baseUrl) => createDaemonClient({ baseUrl }));
  for (let i = 0; i < own.length; i += 4) await Promise.all(own.slice(i, i + 4).flatMap((c) => [c.listInstalled(), c.listInstalled()]));
  t.ok(fleet.open() >= 60, `without the shared pool: ${fleet.open()} open sockets for 60 robots`);
  for (const c of own) await c.close();
});

// An apply's starts poll each robot in turn while its app starts: a pool that
// keeps fewer robots than are worked on at once opened a connection per poll.
t.test('a pool sized to the robots worked on at once connects to each once, however often each is polled', async (t) => {
  const fleet = await robots(12);
  const clients = (pool: RobotPool): DaemonClient[] => fleet.urls.map((baseUrl) => createDaemonClient({ baseUrl, dispatcher: pool }));
  const pollRounds = async (pool: RobotPool): Promise<number> => {
    const before = fleet.accepted();
    const all = clients(pool);
    // One robot after another, as polls of robots whose apps start at different moments come.
    for (let round = 0; round < 3; round++) for (const c of all) await c.currentAppStatus();
    const opened = fleet.accepted() - before;
    for (const c of all) await c.close();
    await pool.close();
    return opened;
  };
  t.teardown(() => fleet.close());
  t.equal(await pollRounds(new RobotPool({ origins: 12 })), 12, 'one connection per robot for three rounds of polls');
  const small = await pollRounds(new RobotPool({ origins: 4 }));
  t.ok(small > 12, `a pool kept for 4 robots reconnects as the rounds come back (${small} connections)`);
});
