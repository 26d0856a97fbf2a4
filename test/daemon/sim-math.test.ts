import t from 'tap';
import fc from 'fast-check';
import { cartoon, easeInOut, linear, minjerk, progress } from '../../runtime/daemon/sim/interpolation.js';
import { fromXyzRpy, interpolatePose, poseDistance, toXyzRpy, IDENTITY } from '../../runtime/daemon/sim/pose.js';
import { clampTarget, LIMITS } from '../../runtime/daemon/sim/limits.js';
import { SLEEP_HEAD } from '../../runtime/daemon/sim/constants.js';

const DEG = Math.PI / 180;
const close = (a: number, b: number, eps = 1e-9): boolean => Math.abs(a - b) < eps;

t.test('the four interpolations start at 0, end at 1, and have their known shapes', async (t) => {
  for (const f of [linear, minjerk, easeInOut, cartoon]) {
    t.ok(close(f(0), 0), `${f.name}(0) = 0`);
    t.ok(close(f(1), 1), `${f.name}(1) = 1`);
  }
  t.ok(close(linear(0.25), 0.25));
  t.ok(close(minjerk(0.5), 0.5));
  t.ok(close(minjerk(0.25), 10 * 0.25 ** 3 - 15 * 0.25 ** 4 + 6 * 0.25 ** 5));
  t.ok(close(easeInOut(0.25), 0.125));
  t.ok(close(easeInOut(0.75), 0.875));
  t.ok(close(cartoon(0.5), 0.5));
  t.ok(cartoon(0.1) < 0, 'cartoon backs up before going');
  t.ok(cartoon(0.9) > 1, 'cartoon overshoots before settling');
  // minjerk has zero velocity at both ends
  t.ok(Math.abs((minjerk(1e-4) - minjerk(0)) / 1e-4) < 1e-6);
  t.ok(Math.abs((minjerk(1) - minjerk(1 - 1e-4)) / 1e-4) < 1e-6);
  t.equal(progress('linear', -1), 0, 'time is clamped before the curve');
  t.equal(progress('linear', 2), 1);
});

t.test('monotonic curves are monotonic', async (t) => {
  fc.assert(fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b) => {
    const [lo, hi] = a < b ? [a, b] : [b, a];
    return [linear, minjerk, easeInOut].every((f) => f(lo) <= f(hi) + 1e-12);
  }));
  t.pass();
});

t.test('x/y/z + roll/pitch/yaw round-trips through the matrix (Euler xyz)', async (t) => {
  const angle = (lim: number) => fc.double({ min: -lim, max: lim, noNaN: true });
  fc.assert(fc.property(angle(0.05), angle(0.05), angle(0.05), angle(3), angle(1.5), angle(3), (x, y, z, roll, pitch, yaw) => {
    const p = toXyzRpy(fromXyzRpy({ x, y, z, roll, pitch, yaw }));
    return close(p.x, x) && close(p.y, y) && close(p.z, z) && close(p.roll, roll, 1e-6) && close(p.pitch, pitch, 1e-6) && close(p.yaw, yaw, 1e-6);
  }));
  // scipy's "xyz": yaw alone rotates x towards y
  const m = fromXyzRpy({ x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: Math.PI / 2 });
  t.ok(close(m[4] ?? 0, 1) && close(m[0] ?? 0, 0));
  t.ok(close(toXyzRpy(SLEEP_HEAD).pitch, Math.asin(0.413), 1e-6), 'the sleep pose is pitched down ~24°');
});

t.test('pose interpolation: ends exact, midpoint halfway', async (t) => {
  const b = fromXyzRpy({ x: 0.01, y: 0, z: 0.02, roll: 0, pitch: 0.4, yaw: 0.6 });
  t.ok(poseDistance(interpolatePose(IDENTITY, b, 0), IDENTITY) < 1e-9);
  t.ok(poseDistance(interpolatePose(IDENTITY, b, 1), b) < 1e-9);
  const mid = toXyzRpy(interpolatePose(IDENTITY, fromXyzRpy({ x: 0.02, y: 0, z: 0, roll: 0, pitch: 0, yaw: 0.6 }), 0.5));
  t.ok(close(mid.yaw, 0.3, 1e-9) && close(mid.x, 0.01, 1e-12));
});

t.test('limits: inside passes untouched, outside is clamped and named', async (t) => {
  const inside = { head: fromXyzRpy({ x: 0, y: 0, z: 0, roll: 0.1, pitch: -0.2, yaw: 0.5 }), antennas: [1, -1] as [number, number], bodyYaw: 0.3 };
  t.same(clampTarget(inside).clamped, []);
  const out = clampTarget({ head: fromXyzRpy({ x: 0, y: 0, z: 0, roll: 50 * DEG, pitch: -60 * DEG, yaw: 0 }), antennas: [4, -4], bodyYaw: 170 * DEG });
  t.same(out.clamped.sort(), ['antennas[0]', 'antennas[1]', 'body_yaw', 'head.pitch', 'head.roll', 'head.yaw'].sort());
  const p = toXyzRpy(out.target.head);
  t.ok(close(p.roll, LIMITS.headRoll, 1e-6) && close(p.pitch, -LIMITS.headPitch, 1e-6));
  t.ok(close(out.target.bodyYaw, LIMITS.bodyYaw));
  t.same(out.target.antennas, [Math.PI, -Math.PI]);
  t.ok(close(p.yaw, LIMITS.bodyYaw - LIMITS.headBodyYaw, 1e-6), 'head yaw follows the body within 65°');
  const rel = clampTarget({ head: fromXyzRpy({ x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: 90 * DEG }), antennas: [0, 0], bodyYaw: 0 });
  t.same(rel.clamped, ['head.yaw']);
  t.ok(close(toXyzRpy(rel.target.head).yaw, 65 * DEG, 1e-6));
  const wide = clampTarget({ head: fromXyzRpy({ x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: 200 * DEG }), antennas: [0, 0], bodyYaw: 150 * DEG }, 200 * DEG);
  t.ok(wide.clamped.includes('head.yaw'));
  t.ok(close(toXyzRpy(wide.target.head).yaw, 180 * DEG, 1e-6) || close(toXyzRpy(wide.target.head).yaw, -180 * DEG, 1e-6), 'yaw beyond 180° is clamped to 180°');
});
