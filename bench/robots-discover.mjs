// `robotctl robots discover` against one `robotctl daemon --sim --robots 100`
// process (issue 31): the time from the first query until all 100 robots are
// listed (the driver's browse, ended as soon as the last one answered; median
// of 5), target < 2 s; and the CLI's own run, which listens for its whole
// --timeout, checked to list all 100. Multicast on loopback needs a private
// network namespace (MACHINE.md): the script re-runs itself inside one
// (`unshare -n`, as root), so nothing else on the machine hears it.
// Build first: npm run build.
import { spawn, spawnSync, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { figure } from './lib/figures.mjs';

const SETUP = 'ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo';
const N = 100;
const RUNS = 5;

if (process.env.ROBOTCTL_BENCH_NETNS !== '1') {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync('unshare', ['-n', 'bash', '-c', `${SETUP} && exec "$@"`, 'netns', process.execPath, self], {
    stdio: 'inherit', env: { ...process.env, ROBOTCTL_BENCH_NETNS: '1' },
  });
  if (r.error || r.status !== 0) console.log(`robots-discover: could not run in a private network namespace (${r.error?.message ?? `exit ${r.status}`}): unshare -n needs root`);
  process.exit(r.status ?? 1);
}

const bin = fileURLToPath(new URL('../bin/robotctl.js', import.meta.url));
const { browseRobots } = await import('../dist/drivers/discovery/browse.js');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = await mkdtemp(join(tmpdir(), 'robotctl-bench-discover-'));
const started = performance.now();
const fleet = spawn(process.execPath, [bin, 'daemon', '--sim', '--port', '0', '--robots', String(N), '--apps-dir', join(dir, 'apps')], {
  env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'ignore'],
});
try {
  let listening = 0;
  await new Promise((resolve, reject) => {
    fleet.once('exit', (code) => reject(new Error(`daemon exited with ${code}`)));
    createInterface({ input: fleet.stdout }).on('line', (l) => { if (l.startsWith('listening on ') && ++listening === N) resolve(); });
  });
  const upMs = performance.now() - started;
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await browseRobots({ timeoutMs: 10_000, until: (robots) => robots.length >= N });
    if (r.robots.length < N) throw new Error(`run ${i}: ${r.robots.length} of ${N} robots listed within 10 s`);
    times.push(r.elapsedMs);
  }
  const ms = median(times);
  figure({
    name: `robots discover: all ${N} robots of one daemon --sim --robots ${N} listed (median of ${RUNS})`, value: ms, unit: 'ms', target: '< 2000', ok: ms < 2000,
    note: `runs ${times.map((t) => Math.round(t)).join(', ')} ms; the fleet was up after ${(upMs / 1000).toFixed(1)} s`,
  });
  const t0 = performance.now();
  const cli = await promisify(execFile)(process.execPath, [bin, 'robots', 'discover', '--timeout', '2s', '--json'], { maxBuffer: 16 * 1024 * 1024 });
  const listed = JSON.parse(cli.stdout).robots.length;
  figure({ name: `robots discover --timeout 2s --json (the CLI, ${N} robots): robots listed`, value: listed, unit: 'robots', target: `= ${N}`, ok: listed === N, note: `${Math.round(performance.now() - t0)} ms wall, its timeout included` });
} finally {
  const gone = new Promise((r) => fleet.once('exit', r));
  fleet.kill('SIGTERM');
  await gone;
  await rm(dir, { recursive: true, force: true });
}
