// One push fanned out to 100 webhooks, all received by a local receiver:
// time from the commit call to the 100th delivery. Build first: npm run build.
import { createServer } from 'node:http';
import { startHub } from '../dist/runtime/hub/server.js';
import { createHubClient } from '../dist/drivers/hub/client.js';
import { figure } from './lib/figures.mjs';

const user = { name: 'bench', token: 'hf_bench_token' };
let received = 0;
let onAll = () => {};
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.end('{}'); if (++received % 100 === 0) onAll(); });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const rxUrl = `http://127.0.0.1:${receiver.address().port}`;

const hub = await startHub({ users: [user] });
const client = createHubClient({ endpoint: hub.url, token: user.token });
try {
  for (let i = 0; i < 100; i++) {
    await client.createWebhook({ watched: [{ type: 'space', name: 'bench/app' }], url: `${rxUrl}/webhooks/${i}`, secret: 's' });
  }
  await client.createRepo('space', 'bench/app'); // event 1 (also warms connections)
  await new Promise((r) => { onAll = r; if (received >= 100) r(); });
  const runs = [];
  for (let n = 0; n < 5; n++) {
    const all = new Promise((r) => { onAll = r; });
    const start = performance.now();
    await client.commit('space', 'bench/app', [{ op: 'add', path: `f${n}.txt`, content: Buffer.from(String(n)) }], `push ${n}`);
    await all;
    runs.push(performance.now() - start);
  }
  runs.sort((a, b) => a - b);
  figure({ name: 'hub: one push fanned out to 100 webhooks, median of 5', value: runs[2], unit: 'ms', target: '< 1000', ok: runs[2] < 1000 });
  figure({ name: 'hub: one push fanned out to 100 webhooks, worst of 5', value: runs[4], unit: 'ms', target: '< 1000', ok: runs[4] < 1000 });
} finally {
  await client.close();
  await hub.close();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
}
