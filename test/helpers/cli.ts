import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Io } from '../../lib/io.js';
import { main } from '../../cli/main.js';
import { until } from './wait.js';
import { LOG_STAMP } from '../../lib/log-stamp.js';

export const repoRoot = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
export const bin = join(repoRoot, 'bin', 'robotctl.js');

/** The text without the time stamps `robotctl agent` puts at the start of its lines (lib/log-stamp.ts). */
export function unstamped(text: string): string {
  return text.split('\n').map((line) => line.replace(LOG_STAMP, '')).join('\n');
}

/** PATH without any folder that has a \`robotctl\`: a fresh terminal after \`npm ci\`, even on a machine with \`npm link\` done. */
export function pathWithoutRobotctl(path = process.env.PATH ?? ''): string {
  return path.split(':').filter((d) => d && !existsSync(join(d, 'robotctl'))).join(':');
}

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

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Any command to its exit, output collected (`bash -c …` of a README hint, the bin with a bare env). */
export function runProcess(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface LongRunning {
  child: ChildProcess;
  /** stdout and stderr as they arrived, interleaved. */
  output(): string;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
  /** Until the output holds `marker` (or the process ended), at most `ms`. */
  waitFor(marker: string, ms: number): Promise<unknown>;
}

/**
 * `robotctl …args` left running (`up`, `agent`), with exactly `env` (no
 * NO_COLOR or inherited variable added), in the clone's root unless `cwd`;
 * killed at the test's teardown if it is still running.
 */
export function spawnLongRunning(t: { teardown(fn: () => void): void }, args: string[], env: NodeJS.ProcessEnv, opts: { cwd?: string; ownGroup?: boolean } = {}): LongRunning {
  // ownGroup: a process group of its own, as a terminal's foreground job (Ctrl-C is \`process.kill(-pid, 'SIGINT')\`).
  const child = spawn(process.execPath, [bin, ...args], { cwd: opts.cwd ?? repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'], detached: opts.ownGroup === true });
  let all = '';
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => { out += d.toString(); all += d.toString(); });
  child.stderr?.on('data', (d: Buffer) => { err += d.toString(); all += d.toString(); });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  return {
    child, exited, output: () => all, stdout: () => out, stderr: () => err,
    waitFor: (marker, ms) => until(() => all.includes(marker) || child.exitCode !== null, ms, marker),
  };
}
