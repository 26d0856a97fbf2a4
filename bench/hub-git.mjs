// The Space author's loop and the API's write path, on the embedded hub:
// 1. `git push` of a 50-file Space → the delivery reaching a receiver (target < 1 s);
// 2. commits per second through the API into a repo that holds 1,000 files.
// Build first: npm run build. Needs Debian's git.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHub } from '../dist/runtime/hub/server.js';
import { figure } from './lib/figures.mjs';

const user = { name: 'bench', token: 'hf_bench_git_token' };
const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-git-'));
const home = join(dir, 'home');
mkdirSync(home);
writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.org\n[credential]\n\thelper = store\n');
const env = { PATH: process.env.PATH, HOME: home, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
const git = (args, cwd) => new Promise((resolve, reject) => execFile('git', args, { cwd, env }, (e, out, err) => (e ? reject(new Error(err)) : resolve(out))));

let onDelivery = () => {};
const receiver = createServer((req, res) => { req.resume(); req.on('end', () => { res.end('{}'); onDelivery(); }); });
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const hub = await startHub({ users: [user] });
writeFileSync(join(home, '.git-credentials'), `${hub.url.replace('://', `://${user.name}:${user.token}@`)}\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  await hub.createRepo('bench', 'space', 'bench/app');
  await fetch(`${hub.url}/api/settings/webhooks`, {
    method: 'POST', headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ watched: [{ type: 'space', name: 'bench/app' }], url: `http://127.0.0.1:${receiver.address().port}/h` }),
  });
  const work = join(dir, 'app');
  await git(['clone', '--quiet', `${hub.url}/spaces/bench/app`, work], dir);
  const runs = [];
  for (let n = 0; n < 5; n++) {
    for (let i = 0; i < 50; i++) writeFileSync(join(work, `file_${i}.py`), `# revision ${n}\nprint(${i})\n`.repeat(20));
    await git(['add', '.'], work);
    await git(['commit', '--quiet', '-m', `revision ${n}`], work);
    const delivered = new Promise((r) => { onDelivery = r; });
    const start = performance.now();
    await git(['push', '--quiet', 'origin', 'main'], work);
    await delivered;
    runs.push(performance.now() - start);
  }
  const pushMid = median(runs);
  figure({ name: 'hub: git push of a 50-file Space to its delivery, median of 5', value: Math.round(pushMid), unit: 'ms', target: '< 1000', ok: pushMid < 1000, note: `worst ${Math.max(...runs).toFixed(0)} ms` });

  await hub.createRepo('bench', 'model', 'bench/big');
  const files = {};
  for (let i = 0; i < 1000; i++) files[`data/part_${String(i).padStart(4, '0')}.txt`] = `row ${i}\n`;
  await hub.commit('bench', 'model', 'bench/big', files, '1,000 files');
  const n = 50;
  const start = performance.now();
  for (let i = 0; i < n; i++) await hub.commit('bench', 'model', 'bench/big', { [`data/part_${String(i).padStart(4, '0')}.txt`]: `changed ${i}\n` }, `change ${i}`);
  const s = (performance.now() - start) / 1000;
  figure({ name: 'hub: API commits into a repo of 1,000 files', value: n / s, unit: 'commits/s', note: `${n} sequential commits, one file each` });
} finally {
  await hub.close();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  rmSync(dir, { recursive: true, force: true });
}
