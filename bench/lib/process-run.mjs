// A robotctl command timed as a user runs it: `node bin/robotctl.js …` in a
// child, from the spawn to the exit (Node's start, module loading and exit
// included), with its CPU time and peak RSS (bench/lib/usage-hook.cjs).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const hook = join(here, 'usage-hook.cjs');

/**
 * `robotctl …args` in a child: { code, wallMs, cpuMs, maxRssMb }. `root` is
 * the checkout whose bin/robotctl.js runs (default: this one); `unset` names
 * variables removed from the child's environment. Asynchronous, so that
 * servers in this process (the embedded hub) keep answering.
 */
export async function measureProcess(args, { root = join(here, '..', '..'), cwd = root, env = {}, unset = [] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-process-'));
  try {
    const file = join(dir, 'usage.json');
    const childEnv = { ...process.env, NO_COLOR: '1', ...env, BENCH_USAGE_FILE: file };
    for (const name of unset) delete childEnv[name];
    const started = performance.now();
    const child = spawn(process.execPath, ['-r', hook, join(root, 'bin', 'robotctl.js'), ...args], { cwd, env: childEnv, stdio: 'ignore', timeout: 600_000 });
    const [code, signal] = await new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (c, s) => resolve([c, s]));
    });
    const wallMs = performance.now() - started;
    if (code === null) throw new Error(`robotctl ${args.join(' ')}: ${signal}`);
    return { ...JSON.parse(readFileSync(file, 'utf8')), code, wallMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
