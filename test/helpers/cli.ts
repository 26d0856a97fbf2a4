import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Io } from '../../lib/io.js';
import { main } from '../../cli/main.js';

export const repoRoot = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
export const bin = join(repoRoot, 'bin', 'robotctl.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the built CLI (dist/) as a user would, in a child process. */
export function runCli(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: opts.cwd ?? repoRoot,
      env: { ...process.env, NO_COLOR: '1', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`robotctl ${args.join(' ')} timed out`)); }, opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code: code ?? 1, stdout, stderr }); });
    child.stdin.end(opts.input ?? '');
  });
}

/** Run the CLI in-process with a captured Io (fast; same code path as the binary). */
export async function runInProcess(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; isTTY?: boolean; stdinIsTTY?: boolean } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    out: (t) => { stdout += t; },
    err: (t) => { stderr += t; },
    isTTY: opts.isTTY ?? false,
    stdinIsTTY: opts.stdinIsTTY ?? false,
    env: { NO_COLOR: '1', ...opts.env },
    cwd: opts.cwd ?? repoRoot,
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}
