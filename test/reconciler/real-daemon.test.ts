import t from 'tap';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { startDaemon } from '../../runtime/daemon/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { DaemonError } from '../../drivers/daemon/errors.js';
import type { HubClient } from '../../drivers/hub/types.js';
import { observe } from '../../reconciler/observe.js';
import { plan, PlanError } from '../../reconciler/plan.js';
import { apply } from '../../reconciler/apply.js';
import { newState } from '../../state/file.js';
import type { Config } from '../../schema/types.js';
import type { StateFile } from '../../state/types.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { QUIET_BODY, appFiles, makeApp } from '../helpers/python-apps.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { app, config, pathApp } from './plan-fixtures.js';

// Issue 11.5: apply against a daemon that behaves like the real Reachy Mini
// daemon (the simulator with robotctlExtensions: false): a path: app is refused at
// plan time, a source: on another host is refused, an installed app found
// with the state lost is adopted (updated in place, not reinstalled), and
// the real daemon's plain 500 for an unknown app reads as "not installed".

const USER = { name: 'alice', token: 'hf_alice_real_daemon_token_77' };
const noHub = {} as HubClient; // path-only configs never call the hub

function onRobot(cfg: Config, url: string): Config {
  for (const r of Object.values(cfg.robots)) r.url = url;
  return cfg;
}

t.test('a path: app for a robot that is not robotctl\'s simulator fails at plan time, saying what to do', async (t) => {
  const dir = t.testdir();
  const real = await startDaemon({ appsDir: join(dir, 'real'), sim: true, port: 0, robotctlExtensions: false });
  const sim = await startDaemon({ appsDir: join(dir, 'sim'), sim: true, port: 0 });
  const clients = [createDaemonClient({ baseUrl: real.url }), createDaemonClient({ baseUrl: sim.url })];
  t.teardown(async () => { for (const c of clients) await c.close(); await real.close(); await sim.close(); });
  // The folder is dev_app, its package hello_rt: `app publish` would create <owner>/hello_rt (issue 30.6).
  makeApp(dir, 'dev_app', QUIET_BODY, { pkg: 'hello_rt' });
  writeFileSync(join(dir, 'dev_app', 'pyproject.toml'), readFileSync(join(dir, 'dev_app', 'pyproject.toml'), 'utf8').replace('name = "dev_app"', 'name = "hello_rt"'));
  const cfg = (url: string) => {
    const c = onRobot(config({ apps: [pathApp('dev_app', join(dir, 'dev_app'))], active: 'dev_app', robots: [{ name: 'lab' }] }), url);
    c.hub.endpoint = 'http://hub.lan:7870';
    return c;
  };
  const observeOn = async (url: string, i: number) => observe(cfg(url), { hub: noHub, daemon: () => clients[i]! }, undefined, { listWebhooks: false });
  // The commands it suggests are written by the caller's CommandLine (the CLI's view: cli/views/command-line.ts).
  const command = (args: string): string => `node bin/robotctl.js ${args}`;
  const refused = await observeOn(real.url, 0).then((obs) => { try { plan(cfg(real.url), obs, newState(), { command }); return null; } catch (e) { return e; } });
  t.ok(refused instanceof PlanError, 'a plan error (exit 1), not a failure halfway through apply');
  t.match((refused as Error).message, /robots\.lab\.apps\.dev_app: robot lab .* is not robotctl's simulator/);
  t.match((refused as Error).message, /`node bin\/robotctl\.js app publish \S*dev_app`.*source: http:\/\/hub\.lan:7870\/spaces\/<owner>\/hello_rt`.*`node bin\/robotctl\.js daemon --sim`/);
  const bare = await observeOn(real.url, 0).then((obs) => { try { plan(cfg(real.url), obs, newState()); return null; } catch (e) { return e; } });
  t.match((bare as Error).message, /robotctl's `app publish \S*dev_app`.*robotctl's `daemon --sim`/, 'without a CommandLine the commands are named, not written as a line');
  const ok = plan(cfg(sim.url), await observeOn(sim.url, 1), newState());
  t.same(ok.actions.map((a) => [a.type, 'app' in a ? a.app : null, 'name' in a ? a.name : null]), [['install', 'dev_app', 'hello_rt'], ['start', 'dev_app', 'hello_rt']], 'the simulator installs local folders, under their entry point');
});

t.test('a source: on another host than the hub is refused with a clear message', async (t) => {
  const dir = t.testdir();
  const sim = await startDaemon({ appsDir: join(dir, 'sim'), sim: true, port: 0 });
  const client = createDaemonClient({ baseUrl: sim.url });
  t.teardown(async () => { await client.close(); await sim.close(); });
  const spaces = { repoInfo: async () => null } as unknown as HubClient; // no Space read matters here
  const cfg = onRobot(config({ apps: [app('x_app', { source: 'https://gitlab.example/spaces/alice/x_app' })], robots: [{ name: 'desk' }] }), sim.url);
  const obs = await observe(cfg, { hub: spaces, daemon: () => client }, undefined, { listWebhooks: false });
  t.throws(() => plan(cfg, obs, newState()), { name: 'PlanError', message: /source https:\/\/gitlab\.example\/spaces\/alice\/x_app is not on the hub the robot installs from \(https:\/\/huggingface\.co\)/ });
  const onHub = onRobot(config({ apps: [app('x_app')], robots: [{ name: 'desk' }] }), sim.url);
  t.same(plan(onHub, await observe(onHub, { hub: spaces, daemon: () => client }, undefined, { listWebhooks: false }), newState()).actions.map((a) => a.type), ['install']);
});

t.test('the real daemon\'s plain 500 for an unknown app is "not installed", found by the installed list, never retried', async (t) => {
  const dir = t.testdir();
  const real = await startDaemon({ appsDir: join(dir, 'real'), sim: true, port: 0, robotctlExtensions: false });
  const proxy = await startFaultProxy(real.url, () => null);
  const client = createDaemonClient({ baseUrl: proxy.url });
  t.teardown(async () => { await client.close(); await proxy.close(); await real.close(); });
  const err = await client.startApp('nope_app').then(() => null, (e: unknown) => e);
  t.ok(err instanceof DaemonError);
  t.match(err, { code: 'app_not_found', transient: false, message: /No app 'nope_app' is installed on the robot/ });
  // The status read first: a stop in progress is waited for before a start (issue 29.5).
  t.same(proxy.seen.map((s) => `${s.method} ${s.url}`), ['GET /api/apps/current-app-status', 'POST /api/apps/start-app/nope_app', 'GET /api/apps/list-available/installed'], 'one status read, one start, one list');
});

t.test('with the state lost, an app installed under the same name is adopted and updated in place by an install over it', async (t) => {
  const dir = t.testdir();
  const hub = await startHub({ users: [USER] });
  const real = await startDaemon({ appsDir: join(dir, 'real'), sim: true, port: 0, robotctlExtensions: false, hubEndpoint: hub.url, hubToken: USER.token });
  const proxy = await startFaultProxy(real.url, () => null);
  const hubClient = createHubClient({ endpoint: hub.url, token: USER.token });
  const daemon = createDaemonClient({ baseUrl: proxy.url, jobTimeoutMs: 300_000 });
  t.teardown(async () => { await daemon.close(); await hubClient.close(); await proxy.close(); await real.close(); await hub.close(); });
  await hub.createRepo(USER.name, 'space', 'alice/quiet_app', { sdk: 'static' });
  await hub.commit(USER.name, 'space', 'alice/quiet_app', appFiles('quiet_app', QUIET_BODY, { marker: 'v1' }), 'v1');
  const cfg = onRobot(config({ apps: [app('quiet_app', { source: `${hub.url}/spaces/alice/quiet_app` })], robots: [{ name: 'desk' }] }), proxy.url);
  cfg.hub.endpoint = hub.url;
  const deps = { hub: hubClient, daemon: () => daemon };
  const run = async (state: StateFile) => {
    const p = plan(cfg, await observe(cfg, deps, undefined, { listWebhooks: false }), state);
    const r = await apply(p, cfg, { ...deps, statePath: null, state }, new AbortController().signal);
    return { p, r };
  };
  const first = await run(newState());
  t.same(first.p.actions.map((a) => a.type), ['install']);
  t.equal(first.r.report.robots[0]?.status, 'converged', first.r.report.robots[0]?.reason ?? '');
  const sha1 = (await hubClient.repoInfo('space', 'alice/quiet_app'))?.sha;
  t.equal(first.r.state.robots.desk?.apps.quiet_app?.sha, sha1, 'the installed revision is kept in robotctl\'s state');
  const [listed] = await daemon.listInstalled();
  t.match(listed, { name: 'quiet_app', source_kind: 'installed', description: '', url: null }, 'the list carries no source');
  t.match(listed?.extra, { custom_app_url: null, id: 'alice/quiet_app', sha: sha1, private: false }, 'only the metadata robotctl sent, as Pollen\'s dashboard sends it (issue 30.4)');
  const again = await run(first.r.state);
  t.same(again.p.actions, [], 'with the state, nothing to do: the revision comes from the state');
  await hub.commit(USER.name, 'space', 'alice/quiet_app', appFiles('quiet_app', QUIET_BODY, { marker: 'v2' }), 'v2');
  const before = proxy.seen.length;
  const lost = await run(newState());
  t.same(lost.p.actions.map((a) => [a.type, a.type === 'update_app' ? a.cause : null]), [['update_app', 'revision']], 'adopted: updated in place');
  t.match(lost.p.actions[0]?.reason, /adopted/);
  const sent = proxy.seen.slice(before).map((s) => `${s.method} ${s.url.split('?')[0]}`);
  t.notOk(sent.some((s) => s.startsWith('POST /api/apps/remove') || s.startsWith('POST /api/apps/update')), 'never removed, never the daemon\'s update (it reinstalls every dependency)');
  t.equal(sent.filter((s) => s === 'POST /api/apps/install').length, 1, 'installed over the app: the call that reinstalls the least (issue 30.8)');
  const sha2 = (await hubClient.repoInfo('space', 'alice/quiet_app'))?.sha;
  t.equal(lost.r.state.robots.desk?.apps.quiet_app?.sha, sha2, 'the state records the Space\'s revision again');
});
