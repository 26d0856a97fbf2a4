import { parentPort, receiveMessageOnPort, threadId, workerData } from 'node:worker_threads';
import { monotonicMs } from './clock.js';
import { TICK_PENDING, TICK_WANTED, WAKE, type ControlWorkerData, type FromControl, type ToControl } from './control-protocol.js';
import { claimSlot, completeMove, markJoined, markLeft, slotOf, writePose, type ControlSlot } from './control-slot.js';
import { poseAt, type MoveSpec } from './motion.js';
import { recordTick, tickCount, tickLogOf } from './tick-log.js';

// The control thread: the 50 Hz loop of every simulated robot in the
// process, as the real daemon runs its control loop in a thread of its own.
// It sleeps in Atomics.wait until the next tick is due (or a message wakes
// it), so requests on the main thread cannot hold a tick back, and it never
// turns an event loop: messages are read with receiveMessageOnPort.
// Ticks follow the ideal timeline (deadline += period) while they are on
// time or a little late, so timer slack does not slow the rate. A tick later
// than a quarter of a period (the machine gave the thread no CPU) re-phases
// the grid: the next tick comes a full period after it, where the ideal
// timeline would make it early, or fire it at once to catch up, a second
// period off by as much as the first. The periods are measured here, as they
// happened, late ones included, once per tick for all the robots that ticked
// in it (tick-log.ts).

interface Member {
  id: number;
  slot: ControlSlot;
  move: MoveSpec | null;
}

const { hz, port, words: wordsBuffer, ticks: ticksBuffer } = workerData as ControlWorkerData;
const words = new Int32Array(wordsBuffer);
const log = tickLogOf(ticksBuffer);
const periodMs = 1000 / hz;
/** In joining order: walked by index 50 times a second. */
let members: Member[] = [];
/** When the last tick ran; 0 when there was none since the thread was idle (no period to measure). */
let lastTick = 0;

function handle(msg: ToControl): void {
  switch (msg.kind) {
    case 'join': {
      const slot = slotOf(msg.buffer);
      claimSlot(slot, threadId);
      markJoined(slot, tickCount(log));
      members.push({ id: msg.id, slot, move: msg.move });
      return;
    }
    case 'leave': {
      const m = members.find((r) => r.id === msg.id);
      if (m) markLeft(m.slot, tickCount(log));
      members = members.filter((r) => r.id !== msg.id);
      return;
    }
    case 'move': {
      const m = members.find((r) => r.id === msg.id);
      if (m) m.move = msg.move;
      return;
    }
    case 'cancel': {
      const m = members.find((r) => r.id === msg.id);
      if (m?.move?.seq === msg.seq) m.move = null;
    }
  }
}

function drain(): void {
  for (let r = receiveMessageOnPort(port); r !== undefined; r = receiveMessageOnPort(port)) handle(r.message as ToControl);
}

function tick(now: number): void {
  recordTick(log, lastTick > 0 ? now - lastTick : NaN);
  lastTick = now;
  const completed: number[] = [];
  for (let i = 0; i < members.length; i++) {
    const m = members[i] as Member;
    if (!m.move) continue;
    const { pose, done } = poseAt(m.move, now);
    writePose(m.slot, pose, m.move.seq);
    if (done) {
      completeMove(m.slot, m.move.seq);
      m.move = null;
      completed.push(m.id);
    }
  }
  // A tick note only when someone listens and the last one was handled: a busy main thread gets one, not a queue.
  const tickNote = Atomics.load(words, TICK_WANTED) > 0 && Atomics.compareExchange(words, TICK_PENDING, 0, 1) === 0;
  if (completed.length > 0 || tickNote) parentPort?.postMessage({ kind: 'tick', completed, tick: tickNote } satisfies FromControl);
}

function run(): void {
  let next = Infinity;
  for (;;) {
    const wake = Atomics.load(words, WAKE);
    drain();
    if (members.length === 0) {
      next = Infinity;
      lastTick = 0;
    } else if (next === Infinity) next = monotonicMs(); // the first robot ticks at once
    const now = monotonicMs();
    if (now >= next) {
      tick(now);
      next = now - next > periodMs / 4 ? now + periodMs : next + periodMs;
      continue;
    }
    // Woken early by a message (WAKE changed), or at the deadline.
    Atomics.wait(words, WAKE, wake, next === Infinity ? Infinity : next - now);
  }
}

parentPort?.postMessage({ kind: 'up' } satisfies FromControl);
run();
