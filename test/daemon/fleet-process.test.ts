import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { bin, runInProcess } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';
import { portFree } from '../helpers/ports.js';

// Issue 16: `robotctl daemon --sim --robots N` simulates a fleet in one
// process: each robot its own port, name, apps folder and state.

t.test('--robots 3: three robots, each with its own port, name, apps folder and pose; SIGTERM closes all', async (t) => {
  const dir = t.testdir();
  const child = spawn(process.execPath, [bin, 'daemon', '--sim', '--port', '0', '--robots', '3', '--apps-dir', join(dir, 'apps'), '--robot-name', 'lab'], {
    env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (l) => lines.push(l));
  await until(() => lines.length >= 3 || child.exitCode !== null, 30_000, () => `three listening lines (${lines.join(' | ')}; ${stderr})`);
  const urls = lines.map((l, i) => {
    const m = new RegExp(`^listening on (http://127\\.0\\.0\\.1:(\\d+)) \\(lab-${i}\\)$`).exec(l);
    t.ok(m, `line ${i}: ${l}`);
    return m?.[1] ?? '';
  });
  t.equal(new Set(urls).size, 3, 'three ports');

  for (const [i, url] of urls.entries()) {
    const st = (await (await fetch(`${url}/api/daemon/status`)).json()) as { robot_name: string; state: string };
    t.equal(st.robot_name, `lab-${i}`);
    t.ok(existsSync(join(dir, 'apps', `robot-${i}`, 'running.json')), `robot ${i} keeps its own apps folder`);
  }
  const antennas = async (url: string): Promise<number[]> =>
    ((await (await fetch(`${url}/api/state/full?with_antenna_positions=true`)).json()) as { antennas_position: number[] }).antennas_position;
  const before = await antennas(urls[1] ?? '');
  const res = await fetch(`${urls[0]}/api/move/set_target`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ target_antennas: [0.4, -0.4] }) });
  t.equal(res.status, 200);
  t.same(await antennas(urls[0] ?? ''), [0.4, -0.4], 'robot 0 moved');
  t.same(await antennas(urls[1] ?? ''), before, 'robot 1 did not: each robot its own state');

  // SIGUSR2: the requests the robots answered (what benchmarks count per robot), and the fleet keeps running.
  child.kill('SIGUSR2');
  await until(() => /requests: \d+/.test(stderr), 30_000, () => `a requests line (${stderr})`);
  t.match(stderr, /^requests: 7 \(1 writes\) over 3 robots$/m, '3 status reads, 3 state reads, 1 set_target (the one write)');
  t.equal((await fetch(`${urls[2]}/api/daemon/status`)).status, 200, 'still serving');

  child.kill('SIGTERM');
  t.equal(await exited, 0, stderr);
  for (const url of urls) t.ok(await portFree(Number(new URL(url).port)), `${url} is free again`);
});

t.test('--robots must be a whole number from 1', async (t) => {
  for (const bad of ['0', '2.5', 'many']) {
    const r = await runInProcess(['daemon', '--sim', '--robots', bad]);
    t.equal(r.code, 64, `--robots ${bad}`);
    t.match(r.stderr, /--robots must be/);
  }
});
