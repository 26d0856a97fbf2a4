import { spawn, type ChildProcess } from 'node:child_process';
import { killAll, markerEnv } from './proc.js';
import { splitLines } from './line-splitter.js';

// One app process: `<python> -u -m <pkg>.main`, in its own process group
// (detached) and carrying its own marker in its environment, so that stopping
// it kills everything it started, even a child in a new session (proc.ts). Keeps the
// last stderr lines for the crash message and reports every output line.

export interface ExitInfo {
  /** Python-style return code: the exit status, or -signal when killed. */
  rc: number;
}

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGABRT: 6, SIGKILL: 9, SIGSEGV: 11, SIGTERM: 15 };

export class AppProcess {
  readonly exited: Promise<ExitInfo>;
  private readonly child: ChildProcess;
  private readonly stderrRing: string[] = [];
  private done = false;

  private readonly marker: string;

  constructor(python: string, module: string, opts: { env: NodeJS.ProcessEnv; cwd: string; marker: string; onLine: (stream: 'stdout' | 'stderr', line: string) => void }) {
    this.marker = opts.marker;
    const env = { ...opts.env, ...markerEnv(opts.marker) };
    this.child = spawn(python, ['-u', '-m', module], { cwd: opts.cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.pipe('stdout', opts.onLine);
    this.pipe('stderr', opts.onLine);
    this.exited = new Promise((resolve) => {
      this.child.on('error', (err) => {
        this.stderrRing.push(`could not start ${python}: ${err.message}`);
        this.done = true;
        resolve({ rc: 127 });
      });
      // On exit, kill the group (children must not outlive the app and may
      // hold our pipes open), then let the pipes drain so the stderr tail is
      // complete before the exit is reported.
      this.child.on('exit', (code, signal) => {
        const rc = code ?? -(SIGNALS[signal ?? ''] ?? 1);
        this.killGroup();
        const finish = (): void => { this.done = true; resolve({ rc }); };
        const t = setTimeout(finish, 500);
        this.child.once('close', () => { clearTimeout(t); finish(); });
      });
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

  /** SIGKILL to the whole group, the app's process tree and every process with its marker. */
  killGroup(): void {
    const pid = this.child.pid;
    if (!pid) return;
    killAll({ pgid: pid, root: pid, marker: this.marker });
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
