import { spawn } from 'node:child_process';

// A job webhook's run: the hub runs `--job-command` in a shell with the
// WEBHOOK_* environment the real Jobs runtime gives a triggered job.

export interface JobResult {
  exitCode: number | null;
  error: string | null;
  output: string;
}

const MAX_OUTPUT = 4000;

export function runJobCommand(command: string, env: Record<string, string>, timeoutMs: number, signal: AbortSignal): Promise<JobResult> {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (d: Buffer) => { output = (output + d.toString()).slice(-MAX_OUTPUT); };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const kill = () => { child.kill('SIGKILL'); };
    const timer = setTimeout(kill, timeoutMs);
    signal.addEventListener('abort', kill, { once: true });
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ exitCode: null, error: err.message, output });
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', kill);
      resolve({ exitCode: code, error: sig ? `killed by ${sig}` : null, output });
    });
  });
}
