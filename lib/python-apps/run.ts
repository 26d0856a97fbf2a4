import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { markerEnv } from './marker.js';
import { splitLines } from './line-splitter.js';
import { installEnvironment } from '../app-env.js';

// Run a command (python, pip) to completion, streaming its output line by
// line; a non-zero exit rejects with the last lines so the job log explains it.
// Its temporary folders are its own and go with it. The command runs in its
// own process group carrying the daemon's marker, so an abort (daemon exit)
// kills pip with its build subprocesses, and a daemon killed with -9 has them
// reaped at its next start (runtime/daemon/apps/proc.ts). A command the CLI
// runs stays in its process group instead (ownGroup: false). Output captured
// whole, for the CLI: process.ts.

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  onLine?: (line: string) => void;
  signal?: AbortSignal;
  /** The daemon instance's marker, put in the command's environment. */
  marker?: string;
  /** What to write to the command's stdin once known (null: nothing); without it stdin is closed. */
  input?: Promise<string | null>;
  /**
   * Its own process group (default), killed whole when it ends or on abort;
   * false keeps it in the caller's, so a Ctrl-C in the terminal reaches it (the CLI).
   */
  ownGroup?: boolean;
}

export class CommandError extends Error {
  constructor(message: string, readonly code: number | null, readonly tail: string[], readonly signal: NodeJS.Signals | null = null) {
    super(message);
    this.name = 'CommandError';
  }
}

/**
 * The environment pip runs in: the caller's without its secrets
 * (lib/app-env.ts; pip reads its own PIP_* settings there), quiet and
 * non-interactive. Offline, it never reaches for an index (PIP_NO_INDEX).
 */
export function pipEnv(base: NodeJS.ProcessEnv = process.env, opts: { offline?: boolean } = {}): NodeJS.ProcessEnv {
  const quiet = { ...installEnvironment(base), PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1', PYTHONDONTWRITEBYTECODE: '1' };
  return opts.offline ? { ...quiet, PIP_NO_INDEX: '1' } : quiet;
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try { process.kill(-pid, 'SIGKILL'); } catch { /* ESRCH: already gone */ }
}

export function runCommand(cmd: string, args: string[], opts: RunOptions = {}): Promise<string[]> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new CommandError(`${cmd} not run: the daemon is stopping`, null, []));
    const base = opts.env ?? pipEnv();
    // The command's temporary folders (pip's build and unpack folders) go in
    // one of ours, removed when it ends: a pip killed mid-build cannot clean up.
    const scratch = mkdtempSync(join(base.TMPDIR || tmpdir(), 'robotctl-run-'));
    const dropScratch = (): void => rmSync(scratch, { recursive: true, force: true });
    const env = { ...base, TMPDIR: scratch, ...(opts.marker ? markerEnv(opts.marker) : {}) };
    const ownGroup = opts.ownGroup !== false;
    const child = spawn(cmd, args, { cwd: opts.cwd, env, stdio: [opts.input ? 'pipe' : 'ignore', 'pipe', 'pipe'], detached: ownGroup });
    if (opts.input && child.stdin) {
      const stdin = child.stdin;
      stdin.on('error', () => {}); // EPIPE when the command ended first: its exit code tells
      void opts.input.then((text) => stdin.end(text ?? ''), () => stdin.end());
    }
    const onAbort = (): void => { if (ownGroup) killGroup(child.pid); else child.kill('SIGKILL'); };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const lines: string[] = [];
    const emit = (l: string): void => {
      lines.push(l);
      if (lines.length > 400) lines.shift();
      opts.onLine?.(l);
    };
    // Both are pipes (stdio above); only stdin's kind varies.
    splitLines(child.stdout as Readable, emit);
    splitLines(child.stderr as Readable, emit);
    child.on('error', (err) => {
      dropScratch();
      reject(new CommandError(`${cmd} could not run: ${err.message}`, null, []));
    });
    child.on('close', (code, sig) => {
      opts.signal?.removeEventListener('abort', onAbort);
      // Build subprocesses pip left behind die with it.
      if (ownGroup) killGroup(child.pid);
      dropScratch();
      if (code === 0) resolve(lines);
      else reject(new CommandError(`${cmd} ${args.slice(0, 3).join(' ')} ${code !== null ? `exited with code ${code}` : `was killed by ${sig ?? 'a signal'}`}`, code, lines.slice(-10), sig));
    });
  });
}
