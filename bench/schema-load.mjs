// robot.yaml loading cost: the first load in a process (includes loading the
// standalone validator generated at build time), then warm loads of examples/fleet.yaml and of a generated
// large fleet (500 robots, 100 webhooks). Build first: it imports ../dist.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { figure } from './lib/figures.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const env = { WEBHOOK_SECRET: 'bench-secret' };

function bigFleet(robots, webhooks) {
  const lines = ['version: 1', 'webhooks:'];
  for (let i = 0; i < webhooks; i++) {
    lines.push(`  hook-${i}:`, `    url: https://example.org/hooks/${i}`, `    watched: [space:demo/app_${i}, user:demo]`, '    domains: [repo]', '    secret: ${WEBHOOK_SECRET}');
  }
  lines.push('apps:');
  for (let i = 0; i < 20; i++) lines.push(`  app_${i}: { source: https://huggingface.co/spaces/demo/app_${i} }`);
  lines.push('active: app_0', 'robots:');
  for (let i = 0; i < robots; i++) lines.push(`  robot-${i}: { url: http://10.0.${i >> 8}.${i & 255}:8000${i % 3 === 0 ? ', apps: [app_0, app_1], active: app_1' : ''} }`);
  lines.push('rollout: { parallelism: 10, canary: 5, max_failures: 10% }');
  return `${lines.join('\n')}\n`;
}

function time(fn, runs) {
  const started = performance.now();
  for (let i = 0; i < runs; i++) fn();
  return (performance.now() - started) / runs;
}

const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-schema-'));
try {
  const big = join(dir, 'robot.yaml');
  writeFileSync(big, bigFleet(500, 100));
  const importStart = performance.now();
  const { loadConfig } = await import('../dist/schema/load.js');
  const fleet = join(root, 'examples', 'fleet.yaml');
  const check = (r) => { if (!r.ok) throw new Error(JSON.stringify(r.diagnostics[0])); };
  const first = performance.now();
  check(loadConfig(fleet, env));
  const firstMs = performance.now() - first;
  const importMs = first - importStart;
  const warmMs = time(() => check(loadConfig(fleet, env)), 200);
  const bigMs = time(() => check(loadConfig(big, env)), 10);
  figure({ name: 'schema-load: import of schema/load.js', value: importMs, unit: 'ms', target: '< 150', ok: importMs < 150 });
  figure({ name: 'schema-load: first load of examples/fleet.yaml (standalone validator)', value: firstMs, unit: 'ms', target: '< 150', ok: firstMs < 150 });
  figure({ name: 'schema-load: examples/fleet.yaml, warm', value: warmMs, unit: 'ms', target: '< 5', ok: warmMs < 5, note: 'mean of 200' });
  figure({ name: 'schema-load: 500 robots and 100 webhooks, warm', value: bigMs, unit: 'ms', target: '< 200', ok: bigMs < 200, note: 'mean of 10' });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
