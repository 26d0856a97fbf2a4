import t from 'tap';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon } from '../../runtime/daemon/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { BODIES, makeApp } from '../helpers/python-apps.js';
import { until } from '../helpers/wait.js';

// Issue 29.10: a daemon shutting down recreated its --apps-dir. Removing the
// folder is how a user throws a robot's apps away; closing must not bring it back.

t.test('an idle daemon closed after its apps dir was removed leaves it removed', async (t) => {
  const appsDir = join(t.testdir(), 'apps');
  const daemon = await startDaemon({ appsDir, sim: true, port: 0, startupApp: null });
  t.ok(existsSync(appsDir), 'made at start');
  rmSync(appsDir, { recursive: true, force: true });
  await daemon.close();
  t.notOk(existsSync(appsDir), 'still removed after the app was stopped and the daemon closed');
});

t.test('a daemon closed with an app running, after its apps dir was removed, leaves it removed', async (t) => {
  const dir = t.testdir();
  const appsDir = join(dir, 'apps');
  const daemon = await startDaemon({ appsDir, sim: true, port: 0, startupApp: null, stopTimeoutMs: 2000 });
  t.teardown(() => daemon.close());
  const client = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 180_000 });
  t.teardown(() => client.close());
  await client.install({ name: 'quiet_app', source_kind: 'local', description: '', url: null, extra: { path: makeApp(join(dir, 'src'), 'quiet_app', BODIES.cooperative) } });
  await client.startApp('quiet_app');
  await until(async () => (await client.currentAppStatus())?.state === 'running', 10_000, 'running');
  // The running app may still be writing into the folder (Python's bytecode
  // cache): a walk that meets a file made after it listed the folder fails
  // with ENOTEMPTY, so the removal is retried, as a user's `rm -rf` would be.
  rmSync(appsDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  await daemon.close();
  t.notOk(existsSync(appsDir), 'still removed after the app was stopped and the daemon closed');
});
