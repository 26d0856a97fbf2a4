import t from 'tap';
import { buildDaemon } from '../../runtime/daemon/server.js';
import { LIMITS } from '../../runtime/daemon/sim/limits.js';

// Issue 12.7: the simulator holds targets to the real robot's limits, so no
// absurd head position (1e308) is ever reported back.

t.test('head positions, garbage matrices and huge angles are clamped; the state stays within the limits', async (t) => {
  const app = await buildDaemon({ appsDir: t.testdir(), sim: true });
  t.teardown(() => app.close());
  await app.ready();
  const state = async () => (await app.inject({ method: 'GET', url: '/api/state/full?with_target_head_pose=true' })).json() as { head_pose: Record<string, number> };
  const within = (p: Record<string, number>) => Object.values(p).every(Number.isFinite)
    && ['x', 'y', 'z'].every((k) => Math.abs(p[k] ?? 0) <= LIMITS.headTranslation + 1e-9)
    && Math.abs(p.pitch ?? 0) <= LIMITS.headPitch + 1e-9 && Math.abs(p.roll ?? 0) <= LIMITS.headRoll + 1e-9;

  const far = await app.inject({ method: 'POST', url: '/api/move/set_target', payload: { target_head_pose: { x: 1e308, y: -1e308, z: 1e308, pitch: 1e308 } } });
  t.equal(far.statusCode, 200);
  // An angle of 1e308 rad wraps in the matrix to some angle; whichever leaves the limits is clamped.
  for (const k of ['head.x', 'head.y', 'head.z']) t.ok(far.json().clamped.includes(k), k);
  const s1 = await state();
  t.ok(within(s1.head_pose), `reported pose within limits: ${JSON.stringify(s1.head_pose)}`);
  t.equal(s1.head_pose.x, LIMITS.headTranslation);

  const m = Array.from({ length: 16 }, () => 1e308);
  const garbage = await app.inject({ method: 'POST', url: '/api/move/set_target', payload: { target_head_pose: { m } } });
  t.equal(garbage.statusCode, 200);
  t.ok(garbage.json().clamped.includes('head.matrix'), 'a matrix that is no rigid transform is rebuilt');
  t.ok(within((await state()).head_pose));

  const ok = await app.inject({ method: 'POST', url: '/api/move/set_target', payload: { target_head_pose: { x: 0.01, z: 0.02, yaw: 0.2 } } });
  t.same(ok.json(), { status: 'ok' }, 'a target within the limits is not reported as clamped');

  const goto = await app.inject({ method: 'POST', url: '/api/move/goto', payload: { head_pose: { z: -1e308 }, antennas: [1e308, -1e308], body_yaw: 1e308, duration: 0.05 } });
  t.equal(goto.statusCode, 200);
  // body_yaw is held at 160°, so the head (yaw 0) is brought within 65° of it too.
  t.same(goto.json().clamped.sort(), ['antennas[0]', 'antennas[1]', 'body_yaw', 'head.yaw', 'head.z']);
});
