import t from 'tap';
import { join } from 'node:path';
import { buildDaemon, startDaemon } from '../../runtime/daemon/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { DaemonError } from '../../drivers/daemon/errors.js';

// The robot's identity (spec §9; routers/daemon.py): a hardware id like the
// real one's (16 hex digits, the same across restarts, its own per robot)
// and a display name that a rename changes live and keeps, through the real
// driver against the simulated daemon.

t.test('the hardware id is stable across restarts, different per robot, null when asked', async (t) => {
  const dir = t.testdir();
  const first = await startDaemon({ appsDir: join(dir, 'robot-0'), sim: true, port: 0 });
  const c1 = createDaemonClient({ baseUrl: first.url });
  const id = await c1.hardwareId();
  t.match(id, /^[0-9a-f]{16}$/);
  t.equal((await c1.daemonStatus()).hardware_id, id, 'the status carries it, as the real one does');
  await c1.close();
  await first.close();
  const again = await startDaemon({ appsDir: join(dir, 'robot-0'), sim: true, port: 0 });
  const other = await startDaemon({ appsDir: join(dir, 'robot-1'), sim: true, port: 0 });
  const c2 = createDaemonClient({ baseUrl: again.url });
  const c3 = createDaemonClient({ baseUrl: other.url });
  t.teardown(async () => { await c2.close(); await c3.close(); await again.close(); await other.close(); });
  t.equal(await c2.hardwareId(), id, 'the same robot (apps folder) after a restart');
  t.not(await c3.hardwareId(), id, 'another robot');
  const none = await buildDaemon({ appsDir: join(dir, 'dev'), sim: true, hardwareId: null });
  t.teardown(() => none.close());
  t.same((await none.inject({ method: 'GET', url: '/api/daemon/hardware-id' })).json(), { hardware_id: null }, 'a daemon with no robot attached');
});

t.test('a rename is trimmed, live in the status, kept across restarts; bad names in the daemon\'s words', async (t) => {
  const dir = t.testdir();
  const d = await startDaemon({ appsDir: dir, sim: true, port: 0, robotName: 'desk' });
  const c = createDaemonClient({ baseUrl: d.url });
  t.equal(await c.robotName(), 'desk');
  t.equal(await c.setRobotName('  lab bench  '), 'lab bench', 'stored trimmed (utils/robot_name.py)');
  t.equal((await c.daemonStatus()).robot_name, 'lab bench');
  t.equal(await c.robotName(), 'lab bench');
  const spaces = await c.setRobotName('   ').then(() => null, (e: unknown) => e);
  t.ok(spaces instanceof DaemonError);
  t.match(spaces, { code: 'invalid_robot_name', status: 422, detail: 'Invalid robot name' });
  const empty = await c.setRobotName('').then(() => null, (e: unknown) => e);
  t.match(empty, { name: 'DaemonError', status: 422, code: 'bad_request' }, 'pydantic refuses an empty name before the route runs');
  const long = await c.setRobotName('x'.repeat(65)).then(() => null, (e: unknown) => e);
  t.match(long, { name: 'DaemonError', status: 422 });
  t.equal(await c.robotName(), 'lab bench', 'a refused name changes nothing');
  await c.close();
  await d.close();
  const back = await startDaemon({ appsDir: dir, sim: true, port: 0, robotName: 'desk' });
  const c2 = createDaemonClient({ baseUrl: back.url });
  t.teardown(async () => { await c2.close(); await back.close(); });
  t.equal(await c2.robotName(), 'lab bench', 'the stored name wins over --robot-name, as on the real robot');
});
