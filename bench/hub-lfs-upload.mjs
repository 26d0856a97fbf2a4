// The hub driver's LFS upload of a large file: a 256 MB model committed from
// disk to the embedded hub (`robotctl hub`, its own process), as `app
// publish` does it. The driver hashes the file and PUTs it as streams, so
// this process's memory must not grow with the file: its peak RSS over the
// commit is compared with its RSS before. Then the same commit again, which
// the batch API answers without actions (nothing uploaded). Build first.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createHubClient } from '../dist/drivers/hub/client.js';
import { figure } from './lib/figures.mjs';

const TOKEN = 'hf_demo_local_token'; // the hub's user `demo` when started without --user
const MB = 1024 * 1024;
const SIZE = 256 * MB;
const bin = fileURLToPath(new URL('../bin/robotctl.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-lfs-'));
const hub = spawn(process.execPath, [bin, 'hub', '--port', '0', '--quiet-deliveries', '--data', join(dir, 'hub')], { stdio: ['ignore', 'pipe', 'inherit'] });
const exited = once(hub, 'exit');
const url = (await new Promise((r) => createInterface({ input: hub.stdout }).once('line', r))).replace('listening on ', '');
const client = createHubClient({ endpoint: url, token: TOKEN });

/** Peak RSS while `work` runs, sampled every 10 ms. */
async function peakRss(work) {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 10);
  try {
    const start = performance.now();
    await work();
    return { peak, ms: performance.now() - start };
  } finally {
    clearInterval(timer);
  }
}

try {
  const file = join(dir, 'model.bin');
  // Written in 1 MB pieces of varied content, so that nothing here holds 256 MB either.
  const piece = Buffer.alloc(MB);
  writeFileSync(file, '');
  for (let i = 0; i < SIZE / MB; i++) { piece.fill(i % 251); writeFileSync(file, piece, { flag: 'a' }); }
  await client.createRepo('space', 'demo/model_app', { spaceSdk: 'static' });
  global.gc?.();
  const before = process.memoryUsage().rss;
  const first = await peakRss(() => client.commit('space', 'demo/model_app', [{ op: 'add', path: 'model.bin', file }], 'Add the model'));
  const growth = (first.peak - before) / MB;
  figure({ name: 'hub driver: RSS growth while committing a 256 MB LFS file', value: Math.round(growth), unit: 'MiB', target: '< 64', ok: growth < 64,
    note: `before ${Math.round(before / MB)} MiB, peak ${Math.round(first.peak / MB)} MiB: hashed and uploaded as streams` });
  figure({ name: 'hub driver: 256 MB LFS commit (hash + upload + verify + commit)', value: Math.round((SIZE / MB) / (first.ms / 1000)), unit: 'MB/s',
    note: `${Math.round(first.ms)} ms, the embedded hub on the same machine` });
  const again = await peakRss(() => client.commit('space', 'demo/model_app', [{ op: 'add', path: 'model.bin', file }], 'Same model'));
  figure({ name: 'hub driver: the same 256 MB commit again (hub has the object)', value: Math.round(again.ms), unit: 'ms', note: 'hashed, not uploaded' });
} finally {
  await client.close();
  hub.kill('SIGTERM');
  await exited;
  rmSync(dir, { recursive: true, force: true });
}
