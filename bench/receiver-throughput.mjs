// Receiver requests/s against a bare node:http JSON server (same run, same
// client), and p99 latency at a fixed 1,000 requests/s. The load generator
// runs in a child process (this file with --client) so it does not share the
// servers' event loop. Build first: it imports ../dist.
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const PAYLOAD = {"event":{"action":"update","scope":"repo.content"},"repo":{"type":"space","name":"Wauplin/gradio-user-history","id":"651311c46de9c503f3f34a9e","private":false,"subdomain":"wauplin-gradio-user-history","url":{"web":"https://huggingface.co/spaces/Wauplin/gradio-user-history","api":"https://huggingface.co/api/spaces/Wauplin/gradio-user-history"},"headSha":"5e7f29fffcc579cb52539fddb14a1a4f85f39e44","owner":{"id":"6273f303f6d63a28483fde12"}},"webhook":{"id":"65a14fd933eca76f4639fc84","version":3},"updatedRefs":[{"ref":"refs/pr/5","oldSha":null,"newSha":"227c78346870a85e5de4fff8a585db68df975406"}]};
const SECRET = 'bench-secret';

if (process.argv[2] === '--client') await client(JSON.parse(process.argv[3]));
else await main();

// ---- load generator (child) ----
async function client({ url, mode, seconds, rate }) {
  const { Pool } = await import('undici');
  const pool = new Pool(url, { connections: 8, pipelining: 8 });
  const headers = { 'content-type': 'application/json', 'x-webhook-secret': SECRET };
  let n = 0;
  // Every body differs (like real deliveries), so dedupe never short-cuts.
  const send = async () => {
    const body = JSON.stringify({ ...PAYLOAD, seq: n++, run: process.pid });
    const started = performance.now();
    const res = await pool.request({ path: '/webhooks/bench', method: 'POST', headers, body });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
    return performance.now() - started;
  };
  let result;
  if (mode === 'throughput') {
    const until = performance.now() + seconds * 1000;
    let done = 0;
    const worker = async () => { while (performance.now() < until) { await send(); done++; } };
    await Promise.all(Array.from({ length: 64 }, worker));
    result = { rps: done / seconds, done };
  } else {
    const latencies = [];
    const total = Math.round(rate * seconds);
    const start = performance.now();
    const inflight = [];
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inflight.push(send().then((ms) => latencies.push(ms)));
    }
    await Promise.all(inflight);
    latencies.sort((a, b) => a - b);
    const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
    result = { p50: at(0.5), p99: at(0.99), count: latencies.length };
  }
  await pool.close();
  process.stdout.write(JSON.stringify(result));
}

function runClient(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [self, '--client', JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`client exited ${code}`))));
  });
}

// ---- servers (parent) ----
function bareServer() {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const text = JSON.stringify({ repo: payload.repo.name });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((r) => { server.close(() => r()); server.closeAllConnections(); }),
  })));
}

async function receiverServer() {
  const { createReceiver } = await import('../dist/runtime/receiver/index.js');
  const receiver = createReceiver({ port: 0, secret: SECRET, env: {}, log: () => {} });
  receiver.add(function bench(payload) { return { repo: payload.repo.name }; });
  const { url } = await receiver.start();
  return { url, close: () => receiver.close() };
}

async function main() {
  const bare = await bareServer();
  const recv = await receiverServer();
  // Warm up both, then alternate short rounds: other load on the machine
  // drifts, so each ratio compares two runs taken back to back.
  await runClient({ url: bare.url, mode: 'throughput', seconds: 1 });
  await runClient({ url: recv.url, mode: 'throughput', seconds: 1 });
  const rounds = [];
  const cpu = { bare: [], receiver: [] };
  for (let round = 0; round < 6; round++) {
    const r = {};
    for (const which of round % 2 === 0 ? ['bare', 'receiver'] : ['receiver', 'bare']) {
      const before = process.cpuUsage();
      const res = await runClient({ url: (which === 'bare' ? bare : recv).url, mode: 'throughput', seconds: 2 });
      const used = process.cpuUsage(before);
      // This process only runs the servers, so its CPU time per request is
      // their cost, whatever else the machine is doing.
      cpu[which].push((used.user + used.system) / res.done);
      r[which] = res.rps;
    }
    rounds.push(r);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const best = { bare: median(rounds.map((r) => r.bare)), receiver: median(rounds.map((r) => r.receiver)) };
  const ratioMedian = median(rounds.map((r) => (100 * r.receiver) / r.bare));
  const cpuPer = { bare: median(cpu.bare), receiver: median(cpu.receiver) };
  const latency = await runClient({ url: recv.url, mode: 'latency', seconds: 5, rate: 1000 });
  await bare.close();
  await recv.close();
  console.log(`bare node:http requests/s: ${Math.round(best.bare)} req/s (baseline, median of 6 rounds)`);
  console.log(`receiver requests/s: ${Math.round(best.receiver)} req/s (target ≥ 80% of bare, median of 6 rounds)`);
  console.log(`receiver vs bare: ${ratioMedian.toFixed(1)} % (target ≥ 80 %, median of back-to-back pairs)`);
  console.log(`bare node:http CPU per request: ${cpuPer.bare.toFixed(1)} µs (baseline)`);
  console.log(`receiver CPU per request: ${cpuPer.receiver.toFixed(1)} µs (target ≤ 125% of bare)`);
  console.log(`receiver capacity vs bare (CPU): ${((100 * cpuPer.bare) / cpuPer.receiver).toFixed(1)} % (target ≥ 80 %)`);
  console.log(`receiver p50 latency at 1000 req/s: ${latency.p50.toFixed(2)} ms (target none)`);
  console.log(`receiver p99 latency at 1000 req/s: ${latency.p99.toFixed(2)} ms (target < 5 ms)`);
}
