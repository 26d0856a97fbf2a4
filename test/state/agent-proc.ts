import { spawn, type ChildProcess } from 'node:child_process';
import { bin, repoRoot, unstamped } from '../helpers/cli.js';
import { until } from '../agent/fixture.js';

// A `robotctl agent` child for the failover tests (not a test itself): its
// output, and its fleet page's URL once it serves it.

export interface AgentProc { child: ChildProcess; out: () => string; url: Promise<string> }

export function startAgentProc(file: string, env: NodeJS.ProcessEnv): AgentProc {
  const child = spawn(process.execPath, [bin, 'agent', '-f', file, '--receiver-port', '0', '--interval', '60s'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr?.on('data', (d: Buffer) => { out += d.toString(); });
  const url = until(() => {
    if (child.exitCode !== null) throw new Error(`the agent exited: ${out}`);
    return /fleet page: (\S+)\//.exec(out)?.[1] ?? '';
  }, 60_000, 'the fleet page');
  url.catch(() => {}); // awaited by the tests that need it
  // Lines are matched after their time stamps.
  return { child, out: () => unstamped(out), url };
}

/** The `done` lines of an agent's output (one per action it did). */
export function doneLines(out: string): string[] {
  return out.split('\n').filter((l) => /^\s+done\s/.test(l));
}
