import t, { type Test } from 'tap';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import { packagePath } from '../../lib/paths.js';
import { controlWorkerEntry } from '../../runtime/daemon/sim/worker-entry.js';
import { SimRobot } from '../../runtime/daemon/sim/robot.js';
import { controlClock } from '../../runtime/daemon/sim/control-clock.js';
import { completedMove, controlThreadOf, type ControlSlot } from '../../runtime/daemon/sim/control-slot.js';
import { summarizePeriods } from '../../runtime/daemon/sim/loop-stats.js';
import { REST_ANTENNAS } from '../../runtime/daemon/sim/constants.js';
import { buildDaemon } from '../../runtime/daemon/server.js';
import { until } from '../helpers/wait.js';

// The 50 Hz control loop runs on the process's control thread
// (sim/control-clock.ts, sim/control-worker.ts): one thread for every robot,
// ticking while the main thread is busy, its moves and statistics read by the
// main thread from each robot's shared slot; a closed daemon leaves no thread.

const slotOf = (robot: SimRobot): ControlSlot => (robot as unknown as { slot: ControlSlot }).slot;

/**
 * Holds this thread, as a burst of requests does (no timer, no message is
 * handled meanwhile), until cond() holds; 30 s at most.
 */
function blockUntil(cond: () => boolean, what: string): void {
  const nap = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 30_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out, the main thread held, waiting for ${what}`);
    Atomics.wait(nap, 0, 0, 1);
  }
}

function started(t: Test): SimRobot {
  const robot = new SimRobot();
  robot.start();
  t.teardown(() => robot.close());
  return robot;
}

t.test('every robot of the process ticks on one control thread, not the main one', async (t) => {
  const a = started(t);
  const b = started(t);
  await until(() => controlThreadOf(slotOf(a)) !== 0 && controlThreadOf(slotOf(b)) !== 0, 30_000, 'both robots ticked');
  t.equal(controlThreadOf(slotOf(a)), controlThreadOf(slotOf(b)), 'one thread for both');
  t.not(controlThreadOf(slotOf(a)), threadId, 'not this thread');
  await until(() => a.loopStats().samples > 2 && b.loopStats().samples > 2, 30_000, 'periods measured for each');
  a.stop();
  const samples = b.loopStats().samples;
  await until(() => b.loopStats().samples > samples, 30_000, 'the other robot ticking on');
  const stopped = a.loopStats().samples;
  await until(() => b.loopStats().samples > samples + 2, 30_000, 'two ticks more');
  t.equal(a.loopStats().samples, stopped, 'a stopped robot has no more periods');
  b.stop();
  t.ok(controlClock.running, 'with no loop running the thread idles, booted for the next');
  a.close();
  b.close();
  t.notOk(controlClock.running, 'and ends once the robots are closed');
});

t.test('the loop keeps time while the main thread is held', async (t) => {
  const robot = started(t);
  await until(() => robot.loopStats().samples > 0, 30_000, 'the first period');
  const before = robot.loopStats().samples;
  blockUntil(() => robot.loopStats().samples >= before + 10, 'ten more periods');
  t.ok(robot.loopStats().samples >= before + 10, 'ten periods measured with no turn of this event loop');
});

t.test('a move the control thread completed is over here before its note arrives', async (t) => {
  const robot = started(t);
  const events: string[] = [];
  robot.onMove((e) => events.push(e.type));
  const move = robot.goto({ antennas: REST_ANTENNAS }, 0, 'linear');
  t.same(robot.running(), [move.uuid]);
  blockUntil(() => completedMove(slotOf(robot)) !== 0, 'the thread to complete the move');
  t.same(robot.setTarget({ antennas: [0.2, 0.2] }), { status: 'ok', clamped: [] }, 'the target applies at once, the move being over');
  t.same(events, ['move_started', 'move_completed']);
  t.equal(await move.finished, 'move_completed');
  t.same(robot.present.antennas, [0.2, 0.2]);
});

t.test('a cancelled move stays where the loop put it; the thread lets it go', async (t) => {
  const robot = started(t);
  const start = robot.present.antennas[0];
  const move = robot.goto({ antennas: [3, -3] }, 60, 'linear');
  await until(() => robot.present.antennas[0] !== start, 30_000, 'the move under way');
  t.ok(robot.cancel(move.uuid));
  t.equal(await move.finished, 'move_cancelled');
  const held = robot.present;
  const samples = robot.loopStats().samples;
  blockUntil(() => robot.loopStats().samples >= samples + 3, 'three more ticks');
  t.same(robot.present, held, 'no later tick moves it');
  t.notOk(robot.moving);
});

t.test('a late tick counts against the statistics', async (t) => {
  const periods = Float64Array.from([...Array<number>(99).fill(20), 60]);
  const s = summarizePeriods(periods, 50);
  t.equal(s.samples, 100);
  t.equal(s.period_p99_ms, 60);
  t.equal(s.jitter_max_ms, 40);
  t.equal(s.jitter_p99_ms, 40);
});

t.test('a move the thread completed is over for any request; closing the daemon ends the thread', async (t) => {
  const app = await buildDaemon({ appsDir: t.testdir(), sim: true });
  await app.ready();
  const robot = app.daemon.robot;
  robot.goto({ antennas: REST_ANTENNAS }, 0, 'linear');
  blockUntil(() => completedMove(slotOf(robot)) !== 0, 'the thread to complete the move');
  const res = await app.inject({ method: 'GET', url: '/api/move/running' });
  t.same(res.json(), []);
  t.ok(controlClock.running);
  await app.close();
  t.notOk(controlClock.running, 'no control thread once the daemon closed');
});

t.test('the worker file is found from the sources, from dist/ and from the CLI bundle', async (t) => {
  const source = controlWorkerEntry(pathToFileURL(packagePath('runtime', 'daemon', 'sim', 'control-clock.ts')).href);
  t.ok(existsSync(fileURLToPath(source)), 'the TypeScript source under the test hooks');
  for (const caller of [packagePath('dist', 'robotctl.cjs'), packagePath('dist', 'runtime', 'daemon', 'sim', 'control-clock.js')]) {
    const entry = fileURLToPath(controlWorkerEntry(pathToFileURL(caller).href));
    t.match(entry, /dist\/runtime\/daemon\/sim\/control-worker\.js$/, `from ${caller}`);
    t.ok(existsSync(entry), `${entry} exists (npm run build)`);
  }
});
