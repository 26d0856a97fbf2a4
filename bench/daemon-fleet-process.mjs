// `robotctl daemon --sim --robots N`: a simulated fleet in one process.
// For N robots: time until every robot listens, resident memory, and CPU
// used while idle (all control loops running, no client). Target (issue 16):
// 1,000 simulated robots fit on this 2-core machine.
// Build first: npm run build.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/robotctl.js', import.meta.url));
const TICKS = 100; // USER_HZ of /proc/<pid>/stat on Linux

function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime + stime
}

function rssMiB(pid) {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function run(n) {
  const dir = await mkdtemp(join(tmpdir(), 'robotctl-bench-fleet-'));
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'daemon', '--sim', '--port', '0', '--robots', String(n), '--apps-dir', join(dir, 'apps')], {
    env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    let listening = 0;
    await new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`daemon exited with ${code}`)));
      createInterface({ input: child.stdout }).on('line', (l) => {
        if (l.startsWith('listening on ') && ++listening === n) resolve();
      });
    });
    const readyMs = performance.now() - started;
    const cpu0 = cpuSeconds(child.pid);
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 5000));
    const idleCore = (cpuSeconds(child.pid) - cpu0) / ((performance.now() - t0) / 1000);
    console.log(`${String(n).padStart(5)} robots: all listening in ${(readyMs / 1000).toFixed(2)} s, RSS ${rssMiB(child.pid).toFixed(0)} MiB (${(rssMiB(child.pid) / n).toFixed(2)} MiB a robot), idle CPU ${(idleCore * 100).toFixed(1)}% of a core`);
  } finally {
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
    await rm(dir, { recursive: true, force: true });
  }
}

console.log(`load average at start: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
for (const n of [1, 100, 1000]) await run(n);
