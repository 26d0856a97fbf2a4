// `robotctl plan` and `robotctl diff` end to end, as a user runs them, against
// the embedded hub: 100 / 1,000 / 10,000 / 50,000 webhooks in robot.yaml, in
// two worlds: an empty hub (everything to create) and a hub that already holds
// every webhook (no state file: everything adopted). Wall time, CPU and peak
// memory of the command, and the ratio per 10× (target ≤ 10×).
// Targets: 10,000 < 0.5 s; 50,000 < 2 s and < 300 MB. Build first.
// The sizes with a target run RUNS times each and report the median wall
// (every run's in the note) and the highest peak: one run of this 2-core VM
// varies by ±15%, which a single figure cannot tell from a change. The note
// also gives the whole process (spawn to exit), without NODE_EXTRA_CA_CERTS,
// which this machine sets and a user of the embedded hub would not (Node
// reads the whole CA bundle at start for it: about 90 ms).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, measureCli } from './lib/measure.mjs';
import { figure } from './lib/figures.mjs';
import { SECRET_ENV, webhooksYaml } from './lib/robot-yaml.mjs';

const { startHub } = await import('../dist/runtime/hub/server.js');
const SIZES = [100, 1_000, 10_000, 50_000];
const user = { name: 'bench', token: 'hf_bench_token' };
const WALL_TARGET = { 10_000: 500, 50_000: 2000 };
const PEAK_TARGET_MB = 300;
const RUNS = 3;

// The hub's data file holding the same webhooks robot.yaml declares.
function hubData(n) {
  const now = new Date(0).toISOString();
  const webhooks = Array.from({ length: n }, (_, i) => ({
    id: `bench${String(i).padStart(20, '0')}`, owner: user.name, url: `https://example.org/hooks/${i}`, jobSourceId: null,
    watched: [{ type: 'space', name: `demo/app_${i % 50}` }, { type: 'user', name: 'demo' }], domains: ['repo'],
    secret: SECRET_ENV.WEBHOOK_SECRET, disabled: false, createdAt: now, updatedAt: now,
  }));
  return JSON.stringify({ format_version: 2, webhooks, repos: [], activity: {}, triggers: {}, jobRuns: [] });
}

async function world(dir, n, populated) {
  const data = join(dir, `hub-${n}-${populated}`);
  mkdirSync(data, { recursive: true });
  if (populated) writeFileSync(join(data, 'hub.json'), hubData(n));
  return startHub({ users: [user], dataDir: data, log: () => {} });
}

/** The run with the median wall time (its CPU goes with it). */
function medianRun(runs) {
  return [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)];
}

const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-plan-'));
try {
  console.log(`plan-diff-e2e (${load()})`);
  for (const populated of [false, true]) {
    for (const command of ['plan', 'diff']) {
      let previous;
      for (const n of SIZES) {
        const file = join(dir, `${n}-${populated}`, 'robot.yaml');
        mkdirSync(join(dir, `${n}-${populated}`), { recursive: true });
        writeFileSync(file, webhooksYaml(n));
        const hub = await world(dir, n, populated);
        try {
          const env = { ...SECRET_ENV, HF_ENDPOINT: hub.url, HF_TOKEN: user.token };
          // As a user runs it: no --state (robot.yaml is read for a state: block), the state beside the file.
          const wallTarget = WALL_TARGET[n];
          const runs = [];
          for (let r = 0; r < (wallTarget ? RUNS : 1); r++) {
            const run = await measureCli([command, '-f', file], { env, unset: ['NODE_EXTRA_CA_CERTS'] });
            if (run.code !== 2) throw new Error(`${command} of ${n} webhooks exited ${run.code} (expected 2: changes)`);
            runs.push(run);
          }
          const u = medianRun(runs);
          const peakMb = Math.max(...runs.map((r) => r.maxRssMb));
          const label = `${command} ${n.toLocaleString('en')} webhooks, ${populated ? 'hub holds them (adopt)' : 'empty hub (create)'}`;
          const spread = runs.length > 1 ? `median of ${runs.length} (${runs.map((r) => Math.round(r.wallMs)).sort((a, b) => a - b).join(', ')}), ` : '';
          figure({
            name: `${label}, wall`, value: Math.round(u.wallMs), unit: 'ms',
            ...(wallTarget ? { target: `< ${wallTarget}`, ok: u.wallMs < wallTarget } : {}),
            note: `${spread}cpu ${u.cpuMs.toFixed(0)} ms, peak ${peakMb.toFixed(0)} MB, whole process ${u.processMs.toFixed(0)} ms`,
          });
          if (n === 50_000) figure({ name: `${label}, peak RSS`, value: Math.round(peakMb), unit: 'MB', target: `< ${PEAK_TARGET_MB}`, ok: peakMb < PEAK_TARGET_MB });
          if (previous) {
            const step = u.wallMs / previous.wallMs;
            const span = n / previous.n;
            figure({
              name: `${label}, wall ratio to ${previous.n.toLocaleString('en')} (×${span} webhooks)`, value: step, unit: '×',
              target: `≤ ${span}`, ok: step <= span, note: `cpu ×${(u.cpuMs / previous.cpuMs).toFixed(1)}`,
            });
          }
          previous = { ...u, n };
        } finally {
          await hub.close();
        }
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
