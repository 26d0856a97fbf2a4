import { spawn } from 'node:child_process';

// The one place the hub runs git. Every repository is a bare repo that git's
// own plumbing reads and writes, so a push and an API commit are the same thing.

export interface GitRun {
  cwd: string;
  args: string[];
  input?: Buffer | string;
  env?: Record<string, string>;
  /** Exit codes that are answers, not failures (e.g. 1 from `rev-parse --verify`). */
  okCodes?: number[];
}

export interface GitResult {
  code: number;
  stdout: Buffer;
}

export class GitError extends Error {
  constructor(readonly args: string[], readonly code: number | null, readonly stderr: string) {
    super(`git ${args[0] ?? ''} failed (${String(code)}): ${stderr.trim().slice(0, 500)}`);
    this.name = 'GitError';
  }
}

/** Environment that keeps the user's and the system's git settings out of the hub's repos. */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    ...extra,
  };
}

export function runGit(run: GitRun): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', run.args, { cwd: run.cwd, env: gitEnv(run.env), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => reject(new GitError(run.args, null, e.message)));
    child.on('close', (code) => {
      const c = code ?? -1;
      if (c === 0 || run.okCodes?.includes(c)) resolve({ code: c, stdout: Buffer.concat(out) });
      else reject(new GitError(run.args, c, Buffer.concat(err).toString('utf8')));
    });
    child.stdin.on('error', () => {}); // a git that exits early closes its stdin
    child.stdin.end(run.input ?? '');
  });
}
