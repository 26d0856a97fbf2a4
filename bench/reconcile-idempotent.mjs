// An idempotent apply over 1,000 webhooks on the embedded hub: the second
// apply must make exactly one list request and no write. Build first: it
// imports ../dist. Figures are counted at the hub (its stats()).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHub } from '../dist/runtime/hub/server.js';
import { main } from '../dist/cli/main.js';
import { figure } from './lib/figures.mjs';

const USER = { name: 'bench', token: 'hf_bench_token_idempotent' };
const N = 1000;
const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-idem-'));
const hub = await startHub({ users: [USER] });
try {
  const hooks = Array.from({ length: N }, (_, i) =>
    `  hook-${i}:\n    url: https://example.org/hooks/${i}\n    watched: [space:bench/app_${i % 50}, user:bench]\n    domains: [repo]\n    secret: \${WEBHOOK_SECRET}\n`).join('');
  writeFileSync(join(dir, 'robot.yaml'), `version: 1\nwebhooks:\n${hooks}`);
  let errors = '';
  const io = {
    out: () => {}, err: (t) => { errors += t; }, isTTY: false, stdinIsTTY: false, cwd: dir,
    env: { HF_ENDPOINT: hub.url, HF_TOKEN: USER.token, WEBHOOK_SECRET: 'bench-secret', NO_COLOR: '1' },
  };
  let started = performance.now();
  const first = await main(['apply', '-f', 'robot.yaml', '--yes'], io);
  const firstMs = performance.now() - started;
  if (first !== 0) throw new Error(`first apply failed (${first}): ${errors}`);
  hub.resetStats();
  started = performance.now();
  const second = await main(['apply', '-f', 'robot.yaml', '--yes'], io);
  const ms = performance.now() - started;
  const stats = hub.stats();
  const lists = stats.byRoute['GET /api/settings/webhooks'] ?? 0;
  figure({ name: `first apply, in process: create ${N} webhooks`, value: Math.round(firstMs), unit: 'ms' });
  figure({ name: `idempotent apply over ${N} webhooks`, value: Math.round(ms), unit: 'ms', note: `exit ${second}` });
  figure({ name: `idempotent apply over ${N} webhooks: list requests`, value: lists, unit: 'requests', target: '1', ok: lists === 1 });
  figure({ name: `idempotent apply over ${N} webhooks: all requests`, value: stats.requests, unit: 'requests', target: '1', ok: stats.requests === 1 });
  figure({ name: `idempotent apply over ${N} webhooks: writes`, value: stats.writes, unit: 'writes', target: '0', ok: stats.writes === 0 });
} finally {
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
}
