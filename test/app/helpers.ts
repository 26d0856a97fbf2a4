import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../helpers/cli.js';

export const sdkDir = join(repoRoot, 'sdk', 'python');
export const examplesDir = join(repoRoot, 'examples', 'apps');

/** Env for a Python app run from its source folder with the SDK from the repo. */
export function appEnv(daemonUrl: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PYTHONPATH: sdkDir,
    // Never leave __pycache__ folders in the repository.
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONUNBUFFERED: '1',
    ROBOT_DAEMON_URL: daemonUrl,
    ROBOTCTL_APP_SETTINGS_URL: 'http://127.0.0.1:0',
    ...extra,
  };
}

export interface RunningApp {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `python3 -u -m <pkg>.main` in `cwd`, as the daemon starts an app (own process group). */
export function startApp(cwd: string, pkg: string, env: NodeJS.ProcessEnv): RunningApp {
  const child = spawn('python3', ['-u', '-m', `${pkg}.main`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}
