// `robotctl app check` wall time on the default template: as users run it (a
// temporary venv copied from the machine's venv template, made by the first
// check or daemon) and with ROBOTCTL_CHECK_VENV_CACHE (a base venv reused, as
// the tests run it). Build first.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { figure } from './lib/figures.mjs';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'robotctl.js');
const dir = await mkdtemp(join(tmpdir(), 'robotctl-bench-check-'));

function timed(args, env = {}) {
  const start = performance.now();
  const r = spawnSync(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`robotctl ${args.join(' ')}: ${r.stderr}`);
  return (performance.now() - start) / 1000;
}

try {
  const create = timed(['app', 'create', 'bench_app', dir]);
  const app = join(dir, 'bench_app');
  const cold = timed(['app', 'check', app]);
  const cache = { ROBOTCTL_CHECK_VENV_CACHE: join(dir, 'cache') };
  const first = timed(['app', 'check', app], cache);
  const warm = [timed(['app', 'check', app], cache), timed(['app', 'check', app], cache)].sort()[0];
  figure({ name: 'robotctl app create', value: create, unit: 's', target: '< 1', ok: create < 1 });
  figure({ name: 'robotctl app check, fresh venv', value: cold, unit: 's' });
  figure({ name: 'robotctl app check, cache being built', value: first, unit: 's' });
  figure({ name: 'robotctl app check, cached base venv', value: warm, unit: 's', target: '< 5', ok: warm < 5 });
} finally {
  await rm(dir, { recursive: true, force: true });
}
