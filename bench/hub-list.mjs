// List/get throughput of the embedded hub with 1,000 stored webhooks, through
// the hub driver (undici keep-alive), hub and client in one process.
// Build first: npm run build.
import { startHub } from '../dist/runtime/hub/server.js';
import { createHubClient } from '../dist/drivers/hub/client.js';

const user = { name: 'bench', token: 'hf_bench_token' };
const hub = await startHub({ users: [user] });
const client = createHubClient({ endpoint: hub.url, token: user.token });

const ids = [];
for (let i = 0; i < 1000; i++) {
  const w = await client.createWebhook({ watched: [{ type: 'space', name: `bench/app-${i}` }], url: `https://example.org/hooks/${i}`, domains: ['repo'] });
  ids.push(w.id);
}

async function rate(name, seconds, concurrency, op) {
  let done = 0;
  const until = Date.now() + seconds * 1000;
  const worker = async () => { while (Date.now() < until) { await op(done); done++; } };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / ((performance.now() - start) / 1000);
}

try {
  await rate('warmup', 0.5, 8, (i) => client.getWebhook(ids[i % ids.length]));
  const get = await rate('get', 3, 8, (i) => client.getWebhook(ids[i % ids.length]));
  const list = await rate('list', 3, 8, () => client.listWebhooks());
  const mixed = await rate('mixed', 3, 8, (i) => (i % 10 === 0 ? client.listWebhooks() : client.getWebhook(ids[i % ids.length])));
  console.log(`hub get webhook (1,000 stored): ${get.toFixed(0)} req/s (target ≥ 2000)`);
  console.log(`hub list webhooks (1,000 per answer): ${list.toFixed(0)} req/s (target: informational, ~270 KB per answer)`);
  console.log(`hub mixed 90% get / 10% list: ${mixed.toFixed(0)} req/s (target ≥ 2000)`);
} finally {
  await client.close();
  await hub.close();
}
