import { spawn } from 'node:child_process';

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
 * instead of crashing.
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

/** The Python used to parse pyproject.toml and make venvs (`ROBOTCTL_PYTHON`, else python3). */
export function pythonCommand(env: NodeJS.ProcessEnv): string {
  return env.ROBOTCTL_PYTHON || 'python3';
}

/** The last `n` non-empty lines of a program's output, for error messages. */
export function tail(text: string, n = 10): string {
  return text.split('\n').filter((l) => l.trim() !== '').slice(-n).join('\n');
}
