import { spawn } from 'node:child_process';

// A program run to completion by `robotctl app …` in a terminal: its output
// captured whole (pyproject.toml is read as JSON from it) and never a
// rejection; it stays in the command's process group, so a Ctrl-C reaches
// python as it reaches robotctl. Streamed output, for the daemon: run.ts.

export interface ProcessResult {
  code: number;
  /** The signal that ended the program (Ctrl-C, a kill), else null. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Run a program to completion and capture its output. A missing program
 * resolves with code 127 and the error in stderr, so callers report it
 * instead of crashing. A program still running after timeoutMs (default five
 * minutes) is killed.
 */
export function runProcess(
  command: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {},
): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const timer = setTimeout(() => { child.kill('SIGKILL'); }, opts.timeoutMs ?? 300_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: 127, signal: null, stdout, stderr: `${stderr}${err.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), signal, stdout, stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
  });
}

/** The last `n` non-empty lines of a program's output, for error messages. */
export function tail(text: string, n = 10): string {
  return text.split('\n').filter((l) => l.trim() !== '').slice(-n).join('\n');
}
