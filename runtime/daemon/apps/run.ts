import { spawn } from 'node:child_process';

// Run a command (python, pip) to completion, streaming its output line by
// line; a non-zero exit rejects with the last lines so the job log explains it.

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  onLine?: (line: string) => void;
  signal?: AbortSignal;
}

export class CommandError extends Error {
  constructor(message: string, readonly code: number | null, readonly tail: string[]) {
    super(message);
    this.name = 'CommandError';
  }
}

export function pipEnv(): NodeJS.ProcessEnv {
  return { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1', PYTHONDONTWRITEBYTECODE: '1' };
}

export function runCommand(cmd: string, args: string[], opts: RunOptions = {}): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? pipEnv(), stdio: ['ignore', 'pipe', 'pipe'], signal: opts.signal });
    const lines: string[] = [];
    const feed = (stream: NodeJS.ReadableStream): void => {
      let buf = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => {
        buf += d;
        const parts = buf.split(/\r?\n/);
        buf = parts.pop() ?? '';
        for (const l of parts) emit(l);
      });
      stream.on('end', () => { if (buf) emit(buf); });
    };
    const emit = (l: string): void => {
      lines.push(l);
      if (lines.length > 400) lines.shift();
      opts.onLine?.(l);
    };
    feed(child.stdout);
    feed(child.stderr);
    child.on('error', (err) => reject(new CommandError(`${cmd} could not run: ${err.message}`, null, [])));
    child.on('close', (code) => {
      if (code === 0) resolve(lines);
      else reject(new CommandError(`${cmd} ${args.slice(0, 3).join(' ')} exited with code ${code ?? 'null'}`, code, lines.slice(-10)));
    });
  });
}
