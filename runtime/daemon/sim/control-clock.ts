import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { CONTROL_HZ } from './constants.js';
import { TICK_PENDING, TICK_WANTED, WAKE, WORDS, type ControlWorkerData, type FromControl, type ToControl } from './control-protocol.js';
import type { MoveSpec } from './motion.js';
import { createTickLog, type TickLog } from './tick-log.js';
import { controlWorkerEntry } from './worker-entry.js';

// The main thread's side of the control thread (control-worker.ts): one
// worker for every robot of the process. A robot's creation starts it (warm
// up), so it boots on the other core while the daemon sets up its routes. It
// holds the process open only while a robot's loop runs; with none it waits
// idle (no tick, no CPU), so a backend restart finds it booted; it ends when
// the last robot is closed, so a closed daemon leaves no thread behind. It
// forwards the rare events to the thread and hands the thread's notes (moves
// completed, a tick) to the robots.

export interface ControlClient {
  /** The control thread completed this robot's move; its slot says which. */
  moveCompleted(): void;
  /** A control tick happened (only for robots that asked, wantTicks). */
  ticked(): void;
}

interface Thread {
  worker: Worker;
  port: MessagePort;
  words: Int32Array;
  /** Resolves when the loop runs. */
  up: Promise<void>;
}

export class ControlClock {
  private thread: Thread | null = null;
  private readonly members = new Map<number, ControlClient>();
  private readonly tickers = new Map<number, ControlClient>();
  private nextId = 1;
  /** The periods of every tick, for every robot's statistics. */
  readonly ticks: TickLog = createTickLog();

  constructor(private readonly hz: number) {}

  /** An id for a robot, unique in the process. */
  newId(): number {
    return this.nextId++;
  }

  get running(): boolean {
    return this.thread !== null;
  }

  /** Starts the thread if there is none: idle, it does not hold the process. */
  warmUp(): void {
    this.thread ??= this.startThread();
  }

  /** Resolves when the thread's loop runs (at once when there is no thread to wait for). */
  up(): Promise<void> {
    return this.thread?.up ?? Promise.resolve();
  }

  join(id: number, client: ControlClient, buffer: SharedArrayBuffer, move: MoveSpec | null): void {
    if (this.members.has(id)) return;
    this.members.set(id, client);
    this.send({ kind: 'join', id, buffer, move });
    if (this.members.size === 1) this.thread?.worker.ref();
  }

  /** The robot's loop stops; with no robot left the thread idles and no longer holds the process. */
  leave(id: number): void {
    if (!this.members.delete(id)) return;
    this.send({ kind: 'leave', id });
    if (this.members.size === 0) this.thread?.worker.unref();
  }

  /** A robot is closed: with no loop running the thread ends, even one only warmed up. */
  release(): void {
    if (this.members.size > 0) return;
    const t = this.thread;
    this.thread = null;
    if (!t) return;
    t.port.close();
    void t.worker.terminate();
  }

  startMove(id: number, move: MoveSpec): void {
    if (this.members.has(id)) this.send({ kind: 'move', id, move });
  }

  cancelMove(id: number, seq: number): void {
    if (this.members.has(id)) this.send({ kind: 'cancel', id, seq });
  }

  /** Tick notes for this robot's listeners while `on`; a fleet nobody watches gets none. */
  wantTicks(id: number, client: ControlClient, on: boolean): void {
    if (on) this.tickers.set(id, client);
    else this.tickers.delete(id);
    if (this.thread) Atomics.store(this.thread.words, TICK_WANTED, this.tickers.size);
  }

  private send(msg: ToControl): void {
    const t = (this.thread ??= this.startThread());
    t.port.postMessage(msg);
    Atomics.add(t.words, WAKE, 1);
    Atomics.notify(t.words, WAKE);
  }

  private startThread(): Thread {
    const { port1, port2 } = new MessageChannel();
    const words = new Int32Array(new SharedArrayBuffer(WORDS * 4));
    Atomics.store(words, TICK_WANTED, this.tickers.size);
    const data: ControlWorkerData = { hz: this.hz, port: port2, words: words.buffer as SharedArrayBuffer, ticks: this.ticks.buffer };
    const worker = new Worker(controlWorkerEntry(import.meta.url), { workerData: data, transferList: [port2], name: 'robotctl control loop' });
    worker.unref();
    let markUp: () => void = () => {};
    const thread: Thread = { worker, port: port1, words, up: new Promise((resolve) => { markUp = resolve; }) };
    worker.on('message', (note: FromControl) => {
      if (note.kind === 'up') markUp();
      else this.onTick(thread, note.completed, note.tick);
    });
    // The loop is the robot: if it dies, the daemon must not go on answering as if it moved.
    worker.on('error', (err) => { throw err; });
    worker.on('exit', (code) => {
      if (this.thread === thread) throw new Error(`the robots' control thread exited (code ${code})`);
    });
    return thread;
  }

  private onTick(thread: Thread, completed: number[], tick: boolean): void {
    for (const id of completed) this.members.get(id)?.moveCompleted();
    if (!tick) return;
    Atomics.store(thread.words, TICK_PENDING, 0);
    for (const [id, client] of this.tickers) if (this.members.has(id)) client.ticked();
  }
}

/** The process's control loop. */
export const controlClock = new ControlClock(CONTROL_HZ);
