import t from 'tap';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { startDaemon } from '../../runtime/daemon/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import type { RobotAddress } from '../../reconciler/types.js';
import { observe } from '../../reconciler/observe.js';
import { app, config, pathApp, webhook } from './plan-fixtures.js';
import { freePort as closedPort } from '../helpers/ports.js';

// observe() against the embedded hub and two simulated daemons: one list
// call for every webhook, one repo call per Space (not per robot), and an
// unreachable robot recorded as data.

const USER = { name: 'alice', token: 'hf_alice_observe_token_1' };

t.test('observes the hub once, each Space once, every robot concurrently', async (t) => {
  const dir = t.testdir();
  const hub = await startHub({ users: [USER] });
  const d1 = await startDaemon({ appsDir: join(dir, 'd1'), sim: true, port: 0 });
  const d2 = await startDaemon({ appsDir: join(dir, 'd2'), sim: true, port: 0 });
  const client = createHubClient({ endpoint: hub.url, token: USER.token });
  const daemons = new Map<string, DaemonClient>();
  t.teardown(async () => {
    await client.close();
    for (const d of daemons.values()) await d.close();
    await d1.close();
    await d2.close();
    await hub.close();
  });
  await hub.createRepo('alice', 'space', 'alice/hello_app', { sdk: 'static' });
  for (let i = 0; i < 3; i++) await client.createWebhook({ url: `https://example.org/${i}`, watched: [{ type: 'user', name: 'alice' }] });
  const cfg = config({
    webhooks: [webhook('a')],
    apps: [app('hello_app'), app('missing_app'), pathApp('dev_app')],
    robots: [{ name: 'r1' }, { name: 'r2' }, { name: 'gone' }],
  });
  const urls: Record<string, string> = { r1: d1.url, r2: d2.url, gone: `http://127.0.0.1:${await closedPort()}` };
  for (const r of Object.values(cfg.robots)) r.url = urls[r.name] as string;
  hub.resetStats();
  const daemon = (r: RobotAddress): DaemonClient => {
    const c = daemons.get(r.name) ?? createDaemonClient({ baseUrl: r.url, timeoutMs: 2000 });
    daemons.set(r.name, c);
    return c;
  };
  const obs = await observe(cfg, { hub: client, daemon });
  t.ok(obs.hub.ok);
  t.equal(obs.hub.ok && obs.hub.webhooks.length, 3);
  const stats = hub.stats();
  t.equal(stats.byRoute['GET /api/settings/webhooks'], 1, 'exactly one list call');
  const spaceCalls = Object.entries(stats.byRoute).filter(([k]) => k.includes('spaces')).reduce((n, [, v]) => n + v, 0);
  t.comment(Object.keys(stats.byRoute).filter((k) => k.includes('spaces')).join(', '));
  t.equal(spaceCalls, 3, 'one info call per Space, not per robot, and the pyproject.toml of the Space that exists (issue 30.3)');
  t.equal(stats.writes, 0);
  t.match(obs.spaces['alice/hello_app'], { sha: /^[0-9a-f]{40}$/ });
  t.same(obs.spaces['alice/missing_app'], { sha: null });
  t.match(obs.robots.r1, { reachable: true, installed: [], current: null, daemon: { state: 'running' } });
  t.match(obs.robots.r2, { reachable: true });
  t.match(obs.robots.gone, { reachable: false, error: /unreachable/ });
});

t.test('a hub that cannot be listed is an observation, not a crash', async (t) => {
  const client = createHubClient({ endpoint: `http://127.0.0.1:${await closedPort()}`, token: 'x', maxRetries: 0 });
  t.teardown(() => client.close());
  const obs = await observe(config({ webhooks: [webhook('a')] }), { hub: client, daemon: () => { throw new Error('no robots'); } });
  t.match(obs.hub, { ok: false, error: /ECONNREFUSED|failed/ });
  const skipped = await observe(config(), { hub: client, daemon: () => { throw new Error('no robots'); } }, undefined, { listWebhooks: false });
  t.same(skipped.hub, { ok: true, webhooks: [] });
});
