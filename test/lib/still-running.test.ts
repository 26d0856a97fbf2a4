import t from 'tap';
import { StillRunning, elapsedText, type Ticker } from '../../lib/still-running.js';
import { RunLog } from '../../reconciler/agent/run-log.js';
import { createProgress } from '../../cli/views/progress.js';
import type { StartAction } from '../../reconciler/types.js';
import type { Io } from '../../lib/io.js';

// Long actions say they still run every 10 s (Terraform's `Still
// creating... [10s elapsed]`), in the agent's log and in apply's progress;
// driven by a manual clock, so nothing here waits.

class ManualTicker implements Ticker {
  time = 0;
  private timers: { every: number; next: number; fn: () => void; live: boolean }[] = [];
  now(): number { return this.time; }
  every(ms: number, fn: () => void): () => void {
    const timer = { every: ms, next: this.time + ms, fn, live: true };
    this.timers.push(timer);
    return () => { timer.live = false; };
  }
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((x) => x.live && x.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      this.time = due.next;
      due.next += due.every;
      due.fn();
    }
    this.time = end;
  }
  get live(): number { return this.timers.filter((x) => x.live).length; }
}

const start: StartAction = { type: 'start', robot: 'desk', app: 'hello_app', address: 'robots.desk.apps.hello_app', reason: 'active app not running' };

t.test('elapsed text', async (t) => {
  t.equal(elapsedText(10_000), '[10s elapsed]');
  t.equal(elapsedText(80_000), '[1m20s elapsed]');
});

t.test('StillRunning emits every interval while an item runs, and stops at end', async (t) => {
  const clock = new ManualTicker();
  const lines: string[] = [];
  const still = new StillRunning((what, ms) => lines.push(`${what} ${elapsedText(ms)}`), 10_000, clock);
  still.begin('a', 'install x');
  clock.advance(9_999);
  t.same(lines, [], 'nothing before 10 s');
  clock.advance(21_000);
  t.same(lines, ['install x [10s elapsed]', 'install x [20s elapsed]', 'install x [30s elapsed]']);
  still.end('a');
  clock.advance(60_000);
  t.equal(lines.length, 3, 'silent once ended');
  t.equal(clock.live, 0, 'no timer left');
});

t.test('the agent log says what it starts and that it still runs', async (t) => {
  const clock = new ManualTicker();
  const lines: string[] = [];
  const log = new RunLog((l) => lines.push(l), clock);
  log.onEvent({ type: 'action.started', unit: 'desk', action: start });
  clock.advance(25_000);
  log.onEvent({ type: 'action.done', unit: 'desk', action: start, ms: 25_000, performed: { result: {}, detail: '' } });
  clock.advance(30_000);
  log.close();
  t.same(lines, [
    '  running start hello_app on desk...',
    '  running start hello_app on desk... [10s elapsed]',
    '  running start hello_app on desk... [20s elapsed]',
    '  done    start hello_app on desk (25000 ms)',
  ]);
  t.equal(clock.live, 0);
});

t.test('apply progress prints plain still-running lines when not on a terminal', async (t) => {
  const clock = new ManualTicker();
  let out = '';
  const io: Io = { out: (s) => { out += s; }, err: () => {}, isTTY: false, stdinIsTTY: false, env: {}, cwd: '/' };
  const progress = createProgress(io, 1, clock);
  progress.onEvent({ type: 'action.started', unit: 'desk', action: start });
  clock.advance(10_000);
  progress.finish();
  clock.advance(30_000);
  t.match(out, /^robots\.desk.*: start.*: still running\.\.\. \[10s elapsed\]\n$/);
  t.notMatch(out, /\x1b/, 'no control codes in a pipe');
  t.equal(clock.live, 0);
});

t.test('apply progress on a terminal: the elapsed line above the status line, which is redrawn', async (t) => {
  const clock = new ManualTicker();
  let out = '';
  const io: Io = { out: (s) => { out += s; }, err: () => {}, isTTY: true, stdinIsTTY: true, env: { NO_COLOR: '1' }, cwd: '/' };
  const progress = createProgress(io, 1, clock);
  progress.onEvent({ type: 'action.started', unit: 'desk', action: start });
  clock.advance(20_000);
  progress.finish();
  const status = '\r\x1b[K[0/1] robots.desk start hello_app…';
  t.equal(out, [
    status,
    '\r\x1b[Krobots.desk: start hello_app: still running... [10s elapsed]\n',
    status,
    '\r\x1b[Krobots.desk: start hello_app: still running... [20s elapsed]\n',
    status,
    '\r\x1b[K',
  ].join(''));
  t.equal(clock.live, 0);
});
