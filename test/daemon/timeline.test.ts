import t from 'tap';
import { FixedRateLoop } from '../../runtime/daemon/sim/loop.js';
import { SharedTimeline } from '../../runtime/daemon/sim/timeline.js';

// The robots of one process share one timer per rate (sim/timeline.ts): a
// loop that starts while another runs takes its phase, and one timer callback
// runs both.

t.test('two loops of one rate tick in the same timer callback, on one phase', async (t) => {
  const seen: Record<'a' | 'b', number[]> = { a: [], b: [] };
  let waiter: (() => void) | null = null;
  const record = (k: 'a' | 'b') => (now: number): void => { seen[k].push(now); waiter?.(); };
  const a = new FixedRateLoop(50, record('a'));
  const b = new FixedRateLoop(50, record('b'));
  t.teardown(() => { a.stop(); b.stop(); });
  const ticks = (k: 'a' | 'b', n: number): Promise<void> => new Promise((resolve) => {
    const check = (): void => { if (seen[k].length >= n) { waiter = null; resolve(); } };
    waiter = check;
    check();
  });
  a.start();
  await ticks('a', 1);
  b.start();
  // On a loaded machine a may be due again already: b then takes the next point of a's grid.
  t.equal(Math.abs(b.nextDeadline - a.nextDeadline) % 20, 0, 'the loop that joins takes the running phase');
  await ticks('b', 3);
  const last = seen.b[seen.b.length - 1] as number;
  t.ok(seen.a.includes(last), 'both ticked with the same clock reading: one callback');
  a.stop();
  const count = seen.b.length;
  await ticks('b', count + 1);
  t.notOk(a.running, 'the other loop goes on when one stops');
});

t.test('a member that is held back keeps the grid; a newcomer joins the next deadline', async (t) => {
  const timeline = new SharedTimeline(20);
  t.equal(timeline.firstDeadline(1000), 1000, 'alone: due at once');
  const held = { nextDeadline: 1000, fire: () => {} };
  timeline.join(held);
  t.teardown(() => timeline.leave(held));
  t.equal(timeline.firstDeadline(990), 1000, 'the running deadline');
  t.equal(timeline.firstDeadline(1045), 1060, 'the next point of the same grid');
});
