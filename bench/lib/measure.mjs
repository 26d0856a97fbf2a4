// Measuring the CLI as a user runs it: one child process per run, so start-up,
// peak memory and garbage are the command's own.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
const usageScript = fileURLToPath(new URL('./cli-usage.mjs', import.meta.url));
const bin = join(root, 'bin', 'robotctl.js');

/**
 * `robotctl …args` in a child: { code, wallMs, cpuMs, maxRssMb, processMs }
 * (wall from the CLI's first import to the command's end; processMs from
 * the spawn to the process's exit, Node's start and exit included); `unset`
 * names variables removed from the child's environment.
 * Asynchronous, so that servers in this process (the embedded hub) keep answering.
 */
export async function measureCli(args, { cwd = root, env = {}, unset = [] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-usage-'));
  try {
    const file = join(dir, 'usage.json');
    const spawned = performance.now();
    const childEnv = { ...process.env, NO_COLOR: '1', ...env, BENCH_USAGE_FILE: file };
    for (const name of unset) delete childEnv[name];
    const child = spawn(process.execPath, [usageScript, ...args], { cwd, env: childEnv, stdio: 'ignore', timeout: 600_000 });
    const [code, signal] = await new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (c, s) => resolve([c, s]));
    });
    const processMs = performance.now() - spawned;
    if (code === null) throw new Error(`robotctl ${args.join(' ')}: ${signal}`);
    return { ...JSON.parse(readFileSync(file, 'utf8')), processMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Whole-process wall time of `node bin/robotctl.js …args` (node's own start
 * included), median of `runs`; `unset` names variables removed from the environment.
 */
export function processWallMs(args, { cwd = root, env = {}, unset = [], runs = 7 } = {}) {
  return nodeWallMs([bin, ...args], { cwd, env, unset, runs });
}

/** Whole-process wall time of `node …args`, median of `runs` (see processWallMs). */
export function nodeWallMs(args, { cwd = root, env = {}, unset = [], runs = 7 } = {}) {
  const childEnv = { ...process.env, NO_COLOR: '1', ...env };
  for (const name of unset) delete childEnv[name];
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, args, { cwd, env: childEnv, stdio: 'ignore' });
    times.push(performance.now() - t0);
  }
  return median(times);
}

export function median(xs) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/** The machine's load, printed with every figure: the box is shared. */
export function load() {
  return `load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`;
}

/** `×3.9` for a step of 10× (or 4×) in size. */
export function ratio(a, b) {
  return `×${(b / a).toFixed(1)}`;
}

/** CPU seconds (user + system) a live process used so far, from /proc/<pid>/stat (USER_HZ 100 on Linux). */
export function cpuSecondsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
