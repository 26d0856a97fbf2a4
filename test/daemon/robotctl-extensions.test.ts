import t from 'tap';
import { join } from 'node:path';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import type { AppStatus } from '../../lib/wire/daemon.js';
import { APP_STATE_WS_PATH, extensionsOf } from '../../lib/wire/daemon.js';
import { QUIET_BODY, appFiles } from '../helpers/python-apps.js';
import { embeddedHub, simDaemon } from '../helpers/servers.js';
import { eventLog, type EventLog } from '../helpers/wait.js';

// robotctl's extensions to the daemon API (lib/wire/daemon.ts), announced in
// the simulator's status: an install's extra.revision installs that commit
// of the Space (a rollback needs it), and a WebSocket pushes the current app
// at every change (the agent's live fleet page). A daemon playing Pollen's
// has neither: it installs the head, and the driver polls.

const USER = { name: 'demo', token: 'hf_extensions_token_0123456789' };

t.test('an install that names a revision installs that commit; Pollen\'s daemon installs the head whatever the request says', async (t) => {
  const dir = t.testdir();
  const hub = await embeddedHub(t, { users: [USER] });
  await hub.createRepo(USER.name, 'space', 'demo/hello_app', { sdk: 'static' });
  const v1 = (await hub.commit(USER.name, 'space', 'demo/hello_app', appFiles('hello_app', QUIET_BODY, { marker: 'v1' }), 'v1')).commitOid;
  const v2 = (await hub.commit(USER.name, 'space', 'demo/hello_app', appFiles('hello_app', QUIET_BODY, { marker: 'v2' }), 'v2')).commitOid;
  const sim = await simDaemon(t, join(dir, 'sim'), { hubEndpoint: hub.url, hubToken: USER.token });
  const real = await simDaemon(t, join(dir, 'real'), { hubEndpoint: hub.url, hubToken: USER.token, robotctlExtensions: false });
  const clients = [createDaemonClient({ baseUrl: sim.url, jobTimeoutMs: 120_000 }), createDaemonClient({ baseUrl: real.url, jobTimeoutMs: 120_000 })];
  t.teardown(async () => { for (const c of clients) await c.close(); });
  const [simClient, realClient] = clients as [typeof clients[0], typeof clients[0]];
  t.same(extensionsOf(await simClient.daemonStatus()), { install_revision: true, app_state_ws: APP_STATE_WS_PATH });
  t.same(extensionsOf(await realClient.daemonStatus()), {}, 'Pollen\'s daemon announces none');
  const request = { name: 'hello_app', source_kind: 'hf_space' as const, description: '', url: `${hub.url}/spaces/demo/hello_app`, extra: { revision: v1 } };
  const job = await simClient.install(request);
  t.ok(job.logs.some((l) => l.includes(`at revision ${v1}`)), 'the job says which revision it downloads');
  const installed = (await simClient.listInstalled())[0];
  t.equal(installed?.extra.installed_sha, v1, 'the older commit, not the head');
  t.notOk('revision' in (installed?.extra ?? {}), 'the request\'s revision is not kept as metadata');
  await simClient.install({ ...request, extra: { revision: 'f'.repeat(40) } }).then(() => t.fail('a revision the Space lacks installs nothing'), (err: Error) => {
    t.match(err.message, /not found/);
  });
  t.equal((await simClient.listInstalled())[0]?.extra.installed_sha, v1, 'a failed install keeps what was there');
  await realClient.install(request);
  // Its listing carries no revision; check-updates tells the installed one, as the real daemon's does.
  t.equal((await realClient.checkUpdates())[0]?.installed_sha, v2, 'Pollen\'s daemon installed the head');
});

/** The next status told that `pred` accepts (earlier ones are passed over). */
async function nextMatching(log: EventLog<AppStatus | null>, pred: (s: AppStatus | null) => boolean): Promise<void> {
  for (;;) if (pred(await log.next(10_000))) return;
}

t.test('the app-state socket pushes each change; the driver follows it, or polls a daemon without one', async (t) => {
  const dir = t.testdir();
  const hub = await embeddedHub(t, { users: [USER] });
  await hub.createRepo(USER.name, 'space', 'demo/quiet_app', { sdk: 'static' });
  await hub.commit(USER.name, 'space', 'demo/quiet_app', appFiles('quiet_app', QUIET_BODY), 'v1');
  for (const likeReal of [false, true]) {
    const daemon = await simDaemon(t, join(dir, likeReal ? 'real' : 'sim'), { hubEndpoint: hub.url, hubToken: USER.token, robotctlExtensions: !likeReal, stopTimeoutMs: 5000 });
    const client = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 120_000 });
    t.teardown(() => client.close());
    await client.install({ name: 'quiet_app', source_kind: 'hf_space', description: '', url: `${hub.url}/spaces/demo/quiet_app`, extra: {} });
    const seen = eventLog<AppStatus | null>();
    const follower = client.followAppState({ pollMs: 200, onStatus: (s) => seen.push(s) });
    t.teardown(() => follower.close());
    await nextMatching(seen, (s) => s === null);
    await client.startApp('quiet_app');
    await nextMatching(seen, (s) => s?.state === 'running');
    await client.stopCurrentApp();
    await nextMatching(seen, (s) => s === null);
    t.equal(follower.mode, likeReal ? 'poll' : 'socket', likeReal ? 'Pollen\'s daemon: polled' : 'the simulator: pushed');
    t.ok(seen.seen.every((s, i) => i === 0 || JSON.stringify(s) !== JSON.stringify(seen.seen[i - 1])), 'only changes are told');
  }
});
