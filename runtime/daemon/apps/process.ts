import { killAll, procInfo, type Sweep } from './proc.js';
import { markerEnv } from '../../../lib/python-apps/marker.js';
import { launch, type Launched } from './launcher.js';
import { sweepSoon } from './sweeper.js';
import { splitLines } from '../../../lib/python-apps/line-splitter.js';

// One app process: `<python> -u -m <pkg>.main`, started by the launcher
// (launcher.ts) in its own process group (detached) and carrying its own
// marker in its environment, so that stopping it kills everything it
// started, even a child in a new session (proc.ts). Keeps the last stderr
// lines for the crash message and reports every output line.

export interface ExitInfo {
  /** Python-style return code: the exit status, or -signal when killed. */
  rc: number;
}

export interface AppProcessOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  marker: string;
  onLine: (stream: 'stdout' | 'stderr', line: string) => void;
}

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGABRT: 6, SIGKILL: 9, SIGSEGV: 11, SIGTERM: 15 };

export class AppProcess {
  readonly exited: Promise<ExitInfo>;
  private readonly child: Launched;
  private readonly stderrRing: string[] = [];
  private done = false;
  /** The group was swept after the app exited: nothing of it is left to kill. */
  private swept = false;

  private readonly marker: string;
  /** The app's start time in /proc: what it started came later (proc.ts, Sweep.since). */
  readonly start: number | null;

  static async start(python: string, module: string, opts: AppProcessOptions): Promise<AppProcess> {
    const env = { ...opts.env, ...markerEnv(opts.marker) };
    return new AppProcess(await launch(python, ['-u', '-m', module], { cwd: opts.cwd, env }), python, opts);
  }

  private constructor(child: Launched, python: string, opts: AppProcessOptions) {
    this.marker = opts.marker;
    this.child = child;
    this.start = this.child.pid ? procInfo(this.child.pid)?.start ?? null : null;
    this.pipe('stdout', opts.onLine);
    this.pipe('stderr', opts.onLine);
    // On exit, kill the group (children must not outlive the app and may
    // hold our pipes open), then let the pipes drain so the stderr tail is
    // complete before the exit is reported.
    this.exited = child.exit.then(async ({ code, signal, error }) => {
      if (error) {
        this.stderrRing.push(`could not start ${python}: ${error.message}`);
        this.done = true;
        return { rc: 127 };
      }
      const rc = code ?? -(SIGNALS[signal ?? ''] ?? 1);
      const pid = child.pid;
      if (pid && !this.swept) await sweepSoon(this.sweep(pid));
      this.swept = true;
      let t: NodeJS.Timeout | undefined;
      await Promise.race([child.closed, new Promise((r) => { t = setTimeout(r, 500); })]);
      clearTimeout(t);
      this.done = true;
      return { rc };
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return !this.done;
  }

  stderrTail(n = 10): string[] {
    return this.stderrRing.slice(-n);
  }

  interrupt(): void {
    if (this.child.pid && !this.done) this.child.kill('SIGINT');
  }

  /**
   * SIGKILL to the whole group, the app's process tree and every process with
   * its marker. Once the sweep made at the app's exit found none left, none
   * can appear (only a live one could start it), so a later call does nothing:
   * a sweep reads every process of the machine, and a stop used to make two.
   */
  killGroup(): void {
    const pid = this.child.pid;
    if (!pid || this.swept) return;
    killAll(this.sweep(pid));
  }

  private sweep(pid: number): Sweep {
    return { pgid: pid, root: pid, marker: this.marker, ...(this.start === null ? {} : { since: this.start }) };
  }

  private pipe(stream: 'stdout' | 'stderr', onLine: (s: 'stdout' | 'stderr', l: string) => void): void {
    const src = this.child[stream];
    if (!src) return;
    splitLines(src, (line) => {
      if (stream === 'stderr') {
        this.stderrRing.push(line);
        if (this.stderrRing.length > 100) this.stderrRing.shift();
      }
      onLine(stream, line);
    });
  }
}
