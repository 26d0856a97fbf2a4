// Where the test suite's CPU goes: runs test files one at a time, each alone
// with `tap FILE` as a developer runs it, and prints each one's CPU (user +
// system of tap and every process it reaped, read with bash's `times` as
// .ci/run reads the suite's), its wall time and its result, heaviest first.
// CPU, not wall: on the shared machine wall time is mostly the others' load.
// Not run by `npm run bench` (it runs tests, not robotctl). Build first.
// Usage:
//   node bench/tools/suite-cpu.mjs [--runs N] FILE [FILE…]
// The runs share one temporary run folder (ROBOTCTL_TEST_RUN_DIR), so the
// Python venvs the `before` script builds are built once, by a first run of
// test/lib/throttled-log.test.ts that is measured as the baseline (tap's runner,
// the `before` script with its caches warm, one small test process) and
// printed apart; it is removed at the end. With --runs N each file runs N
// times in turn and the median CPU is printed.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
let runs = 1;
if (args[0] === '--runs') {
  runs = Number(args[1]);
  args.splice(0, 2);
}
if (args.length === 0 || !Number.isInteger(runs) || runs < 1) {
  console.error('usage: node bench/tools/suite-cpu.mjs [--runs N] FILE [FILE…]');
  process.exit(64);
}

const base = mkdtempSync(join(tmpdir(), 'robotctl-suite-cpu-'));
// Not named like a run's own folder, so the `after` script of each run leaves it (test/setup/run-folder.mjs).
const runDir = join(base, 'shared-run');
mkdirSync(runDir);
// As test/setup/run-folder.mjs: other users reach their folders in it (the
// tests run PostgreSQL as its `postgres` user), so the way there is open too.
chmodSync(base, 0o755);
chmodSync(runDir, 0o1777);

/** bash's `times` figure "1m2.345s" → seconds. */
function seconds(text) {
  const m = /^(\d+)m([\d.]+)s$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
}

/** One `tap FILE`: { cpu, user, sys, wall, ok, summary }. */
async function measure(file) {
  const started = performance.now();
  const cmd = `"${root}node_modules/.bin/tap" "$1" >"$2" 2>&1; rc=$?; tail -n 3 "$2" | grep -a '^# {' ; echo times:; times; exit $rc`;
  const child = spawn('bash', ['-c', cmd, 'bash', file, join(base, 'log.txt')], {
    cwd: root,
    env: { ...process.env, TMPDIR: base, ROBOTCTL_TEST_RUN_DIR: runDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  const code = await new Promise((resolve) => child.on('close', resolve));
  const wall = (performance.now() - started) / 1000;
  // `times` prints the shell's own user and system time, then its children's.
  const t = /times:\n\S+ \S+\n(\S+) (\S+)/.exec(out);
  const user = t ? seconds(t[1]) : NaN;
  const sys = t ? seconds(t[2]) : NaN;
  const summary = (/^# \{.*\}$/m.exec(out) ?? ['?'])[0].replace(/^# /, '');
  return { cpu: user + sys, user, sys, wall, ok: code === 0, summary };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const f1 = (x) => x.toFixed(1);

try {
  const loadBefore = loadavg()[0];
  await measure('test/lib/throttled-log.test.ts'); // builds the venvs once
  const baseline = await measure('test/lib/throttled-log.test.ts');
  console.log(`# baseline (tap + before script + one small file): ${f1(baseline.cpu)} s CPU, ${f1(baseline.wall)} s wall`);
  const rows = [];
  for (const file of args) {
    const results = [];
    for (let r = 0; r < runs; r++) results.push(await measure(file));
    const cpu = median(results.map((x) => x.cpu));
    const one = results.find((x) => x.cpu === cpu) ?? results[0];
    const row = { file, cpu, user: one.user, sys: one.sys, wall: median(results.map((x) => x.wall)), ok: results.every((x) => x.ok), summary: one.summary };
    rows.push(row);
    console.log(`# ${file}: ${f1(cpu)} s CPU (user ${f1(row.user)}, sys ${f1(row.sys)}), ${f1(row.wall)} s wall, ${row.ok ? 'ok' : 'FAILED'} ${row.summary}`);
  }
  rows.sort((a, b) => b.cpu - a.cpu);
  console.log(`\n| file | CPU s (user+sys) | user | sys | wall s | result |\n|---|---:|---:|---:|---:|---|`);
  for (const r of rows) console.log(`| ${r.file} | ${f1(r.cpu)} | ${f1(r.user)} | ${f1(r.sys)} | ${f1(r.wall)} | ${r.ok ? 'pass' : 'FAIL'} |`);
  const total = rows.reduce((s, r) => s + r.cpu, 0);
  console.log(`\n# ${rows.length} files, ${f1(total)} s CPU in all (baseline ${f1(baseline.cpu)} s each included); load ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}; ${new Date().toISOString()}`);
} finally {
  rmSync(base, { recursive: true, force: true });
}
