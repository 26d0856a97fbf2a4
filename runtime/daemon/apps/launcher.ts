import { spawn, type ChildProcess } from 'node:child_process';
import { finished, PassThrough } from 'node:stream';

// Apps are spawned by a small helper process, not by the daemon itself.
// Spawning forks the caller: its page tables are copied and it waits for the
// child's exec. A `--robots 1000` daemon holds about 900 MB, and a spawn from
// it cost 25 ms of CPU and, on a loaded machine, 60–400 ms during which the
// daemon (every robot in it, their control loops) did nothing else; a fleet
// switching its app starts a hundred apps at once. The helper is a bare Node
// of a few tens of MB, shared by every robot of the process, started on
// first use; its children are exactly what the daemon spawned before (same
// command, environment, folder, own process group, piped output). It relays
// each app's output (pausing the app's pipes while the daemon is behind),
// its exit and its close. If the helper dies, its apps are reported killed
// (their owner then sweeps them, process.ts); the next start makes a new one.
// It runs in a process group of its own, as the apps do: a terminal's Ctrl-C
// reaches the whole foreground group, and the daemon stops its apps itself
// (a helper killed by it made a shutdown look like a crash, `code -9`); it
// ends when the daemon's channel closes.

const HELPER = `
const { spawn } = require('node:child_process');
const kids = new Map();
const send = (m, done) => { if (process.connected) process.send(m, done); };
process.on('message', (m) => {
  if (m.type === 'kill') { kids.get(m.id)?.kill(m.signal); return; }
  if (m.type !== 'spawn') return;
  const c = spawn(m.cmd, m.args, { cwd: m.cwd, env: m.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  kids.set(m.id, c);
  send({ type: 'spawned', id: m.id, pid: c.pid ?? null });
  c.on('error', (e) => send({ type: 'error', id: m.id, message: e.message }));
  let unsent = 0;
  const pipes = [c.stdout, c.stderr];
  pipes.forEach((s, i) => {
    s.on('data', (data) => {
      if (++unsent > 32) pipes.forEach((p) => p.pause());
      send({ type: 'data', id: m.id, fd: i + 1, data }, () => { if (--unsent === 8) pipes.forEach((p) => p.resume()); });
    });
    s.on('end', () => send({ type: 'end', id: m.id, fd: i + 1 }));
  });
  c.on('exit', (code, signal) => send({ type: 'exit', id: m.id, code, signal }));
  c.on('close', () => { kids.delete(m.id); send({ type: 'close', id: m.id }); });
});
process.on('disconnect', () => process.exit(0));
`;

type HelperMessage =
  | { type: 'spawned'; id: number; pid: number | null }
  | { type: 'error'; id: number; message: string }
  | { type: 'data'; id: number; fd: 1 | 2; data: Uint8Array }
  | { type: 'end'; id: number; fd: 1 | 2 }
  | { type: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null }
  | { type: 'close'; id: number };

export interface LaunchOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export interface LaunchExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all. */
  error: Error | null;
}

/**
 * A process the helper started: the parts of a ChildProcess an app needs.
 * Its exit and close are promises, not events: they may come in the same
 * read of the helper's channel as the launch itself, before anyone listens.
 */
export class Launched {
  readonly stdout: PassThrough = new PassThrough();
  readonly stderr: PassThrough = new PassThrough();
  readonly exit: Promise<LaunchExit>;
  /** After the exit, once the output relayed before it has been read. */
  readonly closed: Promise<void>;
  exitWith: (e: LaunchExit) => void = () => {};
  closeNow: () => void = () => {};

  constructor(readonly pid: number | undefined, private readonly signalIt: (signal: NodeJS.Signals) => void) {
    this.exit = new Promise((resolve) => { this.exitWith = resolve; });
    this.closed = new Promise((resolve) => { this.closeNow = resolve; });
  }

  kill(signal: NodeJS.Signals): void {
    this.signalIt(signal);
  }

  pipe(fd: 1 | 2): PassThrough {
    return fd === 1 ? this.stdout : this.stderr;
  }
}

interface Entry {
  launched: Launched | null;
  resolve: (l: Launched | PromiseLike<Launched>) => void;
  exited: boolean;
  /** What to start, kept until the helper answers: a launch it never answered is tried once more. */
  request: { cmd: string; args: string[]; opts: LaunchOptions; retried: boolean };
}

class Helper {
  private readonly entries = new Map<number, Entry>();
  private next = 1;

  constructor(private readonly child: ChildProcess, private readonly onGone: () => void) {
    child.on('message', (m: HelperMessage) => this.onMessage(m));
    child.once('exit', () => this.gone());
    child.on('error', () => this.gone());
    this.refresh();
  }

  launch(cmd: string, args: string[], opts: LaunchOptions, retried = false): Promise<Launched> {
    const id = this.next++;
    return new Promise<Launched>((resolve) => {
      this.entries.set(id, { launched: null, resolve, exited: false, request: { cmd, args, opts, retried } });
      this.refresh();
      this.child.send({ type: 'spawn', id, cmd, args, cwd: opts.cwd, env: opts.env });
    });
  }

  private onMessage(m: HelperMessage): void {
    const e = this.entries.get(m.id);
    if (!e) return;
    if (m.type === 'spawned') {
      e.launched = new Launched(m.pid ?? undefined, (signal) => { if (!e.exited) this.child.send({ type: 'kill', id: m.id, signal }); });
      e.resolve(e.launched);
      return;
    }
    const l = e.launched;
    if (!l) return;
    if (m.type === 'data') l.pipe(m.fd).write(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength));
    else if (m.type === 'end') l.pipe(m.fd).end();
    else if (m.type === 'error') { e.exited = true; l.exitWith({ code: null, signal: null, error: new Error(m.message) }); }
    else if (m.type === 'exit') { e.exited = true; l.exitWith({ code: m.code, signal: m.signal, error: null }); }
    else this.close(m.id, e);
  }

  /** 'close' once the output relayed before it has been read, as a ChildProcess's 'close' follows its pipes'. */
  private close(id: number, e: Entry): void {
    this.entries.delete(id);
    this.refresh();
    const l = e.launched;
    if (!l) return;
    let open = 2;
    for (const p of [l.stdout, l.stderr]) {
      p.end();
      finished(p, () => { if (--open === 0) l.closeNow(); });
    }
  }

  /** The helper keeps the daemon alive only while it runs something for it. */
  private refresh(): void {
    const channel = this.child.channel as { ref?: () => void; unref?: () => void } | undefined;
    if (this.entries.size > 0) { this.child.ref(); channel?.ref?.(); } else { this.child.unref(); channel?.unref?.(); }
  }

  private gone(): void {
    this.onGone();
    for (const [id, e] of this.entries) {
      const l = e.launched;
      if (!l) {
        // Nothing was started for it. A helper starting up can die of a
        // terminal's Ctrl-C: the signal reaches the whole foreground group in
        // the instant the helper is forked, before it leaves for a group of
        // its own, and kills it at its exec. A new helper (started after the
        // signal) runs the launch once more; a second loss is reported.
        this.entries.delete(id);
        const r = e.request;
        e.resolve(r.retried ? this.failed() : relaunch(r.cmd, r.args, r.opts));
        continue;
      }
      if (!e.exited) { e.exited = true; l.exitWith({ code: null, signal: 'SIGKILL', error: null }); }
      this.close(id, e);
    }
  }

  /** A launch the helper never answered: reported like a spawn that failed. */
  private failed(): Launched {
    const l = new Launched(undefined, () => {});
    l.exitWith({ code: null, signal: null, error: new Error('the app launcher exited') });
    l.closeNow();
    return l;
  }
}

let helper: Helper | null = null;

function startHelper(): Helper {
  // Its own environment is empty: each app gets its environment with its launch.
  const child = spawn(process.execPath, ['-e', HELPER], { env: {}, stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced', detached: true });
  const h = new Helper(child, () => { if (helper === h) helper = null; });
  return h;
}

/** Starts `cmd args` in its own process group with piped output, through the helper. */
export function launch(cmd: string, args: string[], opts: LaunchOptions): Promise<Launched> {
  helper ??= startHelper();
  return helper.launch(cmd, args, opts);
}

/** A launch the helper died before answering, through a new helper: once. */
function relaunch(cmd: string, args: string[], opts: LaunchOptions): Promise<Launched> {
  helper ??= startHelper();
  return helper.launch(cmd, args, opts, true);
}
