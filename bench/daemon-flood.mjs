// An app printing 100 MB with no newline (issue 12.5): the daemon's RSS
// before and at its peak, and GET /api/daemon/status latency while it floods.
// The daemon runs as `robotctl daemon --sim` in its own process, so its RSS
// is its own. Build first: npm run build.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createDaemonClient } from '../dist/drivers/daemon/client.js';
import { figure } from './lib/figures.mjs';

const MB = 100;
const dir = await mkdtemp(join(tmpdir(), 'robotctl-bench-flood-'));
const src = join(dir, 'src', 'flood_app');
mkdirSync(join(src, 'flood_app'), { recursive: true });
writeFileSync(join(src, 'pyproject.toml'), `[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"
[project]
name = "flood_app"
version = "0.1.0"
[project.entry-points."reachy_mini_apps"]
flood_app = "flood_app.main:App"
[tool.setuptools]
packages = ["flood_app"]
`);
writeFileSync(join(src, 'flood_app', '__init__.py'), '');
writeFileSync(join(src, 'flood_app', 'main.py'), `import sys, time
class App: pass
if __name__ == "__main__":
    chunk = "x" * (1024 * 1024)
    for _ in range(${MB}):
        sys.stdout.write(chunk)
    sys.stdout.write("\\nflood done\\n")
    sys.stdout.flush()
    try:
        while True:
            time.sleep(0.05)
    except KeyboardInterrupt:
        pass
`);

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const daemon = spawn(process.execPath, ['bin/robotctl.js', 'daemon', '--sim', '--port', '0', '--apps-dir', join(dir, 'apps')], { stdio: ['ignore', 'pipe', 'ignore'] });
const exited = new Promise((r) => daemon.on('close', r));
try {
  const url = (await new Promise((r) => createInterface({ input: daemon.stdout }).once('line', r))).replace('listening on ', '');
  const client = createDaemonClient({ baseUrl: url, jobTimeoutMs: 120_000 });
  await client.install({ name: 'flood_app', source_kind: 'local', description: '', url: null, extra: { path: src } });
  const before = rssMb(daemon.pid);
  let peak = before;
  const latencies = [];
  await client.startApp('flood_app');
  const t0 = Date.now();
  for (;;) {
    const s = performance.now();
    await (await fetch(`${url}/api/daemon/status`)).json();
    latencies.push(performance.now() - s);
    peak = Math.max(peak, rssMb(daemon.pid));
    const logs = await (await fetch(`${url}/api/apps/current-app-logs?limit=5`)).json();
    if (logs.logs.includes('flood done') || Date.now() - t0 > 120_000) break;
  }
  const floodMs = Date.now() - t0;
  await client.stopCurrentApp();
  await client.close();
  latencies.sort((a, b) => a - b);
  const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1);
  figure({ name: `daemon: an app prints ${MB} MB with no newline, time to absorb it`, value: floodMs, unit: 'ms' });
  figure({ name: 'daemon: RSS growth during that flood', value: Math.round(peak - before), unit: 'MB', note: `${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at the peak` });
  figure({ name: 'daemon: GET /api/daemon/status during that flood, median', value: Number(q(0.5)), unit: 'ms', note: `${latencies.length} calls, p99 ${q(0.99)} ms, max ${q(1 - 1e-9)} ms` });
} finally {
  daemon.kill('SIGTERM');
  await exited;
  await rm(dir, { recursive: true, force: true });
}
