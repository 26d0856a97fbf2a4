import t from 'tap';
import { performance } from 'node:perf_hooks';
import { FixedRateLoop } from '../../runtime/daemon/sim/loop.js';
import { SimRobot } from '../../runtime/daemon/sim/robot.js';
import { REST_ANTENNAS } from '../../runtime/daemon/sim/constants.js';
import { buildDaemon } from '../../runtime/daemon/server.js';

// Blocks this thread (so no timer can fire) until the loop's next tick is due:
// what a burst of requests does to the event loop.
function holdUntilDue(loop: { nextDeadline: number }): void {
  while (performance.now() < loop.nextDeadline) {
    // busy: the event loop is held, as by a batch of requests
  }
}

t.test('catchUp runs a due tick at once, on the ideal timeline, and the timer goes on', async (t) => {
  let ticks = 0;
  let onTick: () => void = () => {};
  const loop = new FixedRateLoop(50, () => {
    ticks++;
    onTick();
  });
  t.teardown(() => loop.stop());
  loop.catchUp();
  t.equal(ticks, 0, 'a stopped loop does not tick');
  loop.start();
  const first = loop.nextDeadline;
  loop.catchUp();
  t.equal(ticks, 1, 'the first tick is due at start');
  t.equal(loop.nextDeadline, first + 20, 'the next deadline is one period on');
  holdUntilDue(loop);
  loop.catchUp();
  t.equal(ticks, 2, 'a held loop ticks as soon as it is asked');
  t.equal(loop.nextDeadline, first + 40, 'still on the ideal timeline');
  loop.catchUp();
  if (performance.now() < loop.nextDeadline) t.equal(ticks, 2, 'not due yet: no tick');
  const before = ticks;
  await new Promise<void>((resolve) => { onTick = resolve; });
  t.equal(ticks, before + 1, 'the re-armed timer ticks again');
  t.equal(loop.stats().samples, ticks - 1, 'every period was measured');
});

t.test('a target sent while a tick is overdue finds the tick done', async (t) => {
  const robot = new SimRobot();
  robot.start();
  t.teardown(() => robot.stop());
  // A zero-length move finishes at the next tick; until then targets are ignored.
  const loop = (robot as unknown as { loop: FixedRateLoop }).loop;
  const move = robot.goto({ antennas: REST_ANTENNAS }, 0, 'linear');
  const early = robot.setTarget({ antennas: [0.1, 0.1] });
  if (performance.now() < loop.nextDeadline) t.equal(early.status, 'ignored', 'the move still runs before its tick');
  holdUntilDue(loop);
  t.same(robot.setTarget({ antennas: [0.2, 0.2] }), { status: 'ok', clamped: [] }, 'the overdue tick ran first and completed the move');
  t.equal(await move.finished, 'move_completed');
  t.same(robot.present.antennas, [0.2, 0.2]);
});

t.test('an overdue tick has run by the time any request is answered', async (t) => {
  const app = await buildDaemon({ appsDir: t.testdir(), sim: true });
  t.teardown(() => app.close());
  await app.ready();
  const robot = app.daemon.robot;
  const loop = (robot as unknown as { loop: FixedRateLoop }).loop;
  robot.goto({ antennas: REST_ANTENNAS }, 0, 'linear');
  holdUntilDue(loop);
  const due = loop.nextDeadline;
  const res = await app.inject({ method: 'GET', url: '/api/daemon/status' });
  t.equal(res.statusCode, 200);
  t.ok(loop.nextDeadline > due, 'the due tick ran');
  t.notOk(robot.moving, 'and completed the zero-length move');
});
