// Receiver requests/s on unique deliveries (every body different, as real
// deliveries are; identical bodies would be answered by the dedupe cache),
// side by side with a bare node:http server, fastify and FastAPI+uvicorn doing
// the least equivalent work (bench/lib/receiver-peers.mjs), all driven by the
// same load generator: wrk (bench/lib/wrk.mjs), one thread, 32 connections, a
// Lua script that makes every body unique. A node client (one undici Pool)
// saturated near 8–9k requests/s and made every server look alike; wrk's
// CPU is printed for every run and checked below saturation. Also the CPU
// time per request of each server, and the p99 latency at a fixed 1,000
// requests/s from an open-loop generator in a node child (this file with
// --client). Build first: it imports ../dist.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';
import { figure } from './lib/figures.mjs';
import { pacedLoad } from './lib/paced-load.mjs';
import { bareServer, fastapiServer, fastifyServer } from './lib/receiver-peers.mjs';
import { CLIENT_SATURATION_PCT, WRK_MISSING, runWrk, uniqueBodyScript, wrkAvailable } from './lib/wrk.mjs';

const self = fileURLToPath(import.meta.url);
const SECRET = 'bench-secret';
const PATH = '/webhooks/bench';
const HEADERS = { 'content-type': 'application/json', 'x-webhook-secret': SECRET };
const ROUNDS = 5;
const SECONDS = 2;
const CONNECTIONS = 32;
const THREADS = 1;

if (process.argv[2] === '--client') await client(JSON.parse(process.argv[3]));
else await main();

// A push to a Space as the Hub sends it; headSha and newSha differ per delivery.
function delivery(sha) {
  return `{"event":{"action":"update","scope":"repo.content"},"repo":{"type":"space","name":"Wauplin/gradio-user-history","id":"651311c46de9c503f3f34a9e","private":false,"subdomain":"wauplin-gradio-user-history","url":{"web":"https://huggingface.co/spaces/Wauplin/gradio-user-history","api":"https://huggingface.co/api/spaces/Wauplin/gradio-user-history"},"headSha":"${sha}","owner":{"id":"6273f303f6d63a28483fde12"}},"webhook":{"id":"65a14fd933eca76f4639fc84","version":3},"updatedRefs":[{"ref":"refs/heads/main","oldSha":"5e7f29fffcc579cb52539fddb14a1a4f85f39e44","newSha":"${sha}"}]}`;
}

// ---- the paced latency generator (child) ----
async function client({ url, seconds, rate }) {
  const prefix = randomBytes(8).toString('hex');
  const result = await pacedLoad({
    url, path: PATH, headers: HEADERS, rate, seconds,
    body: (i) => delivery(`${prefix}${i.toString(16).padStart(24, '0')}`),
  });
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
async function receiverServer() {
  const { createReceiver } = await import('../dist/runtime/receiver/index.js');
  const receiver = createReceiver({ port: 0, secret: SECRET, env: {}, log: () => {} });
  receiver.add(function bench(payload) { return { repo: payload.repo.name }; });
  const { url } = await receiver.start();
  const cpu = process.cpuUsage;
  return { url, cpuMicros: () => { const u = cpu(); return u.user + u.system; }, close: () => receiver.close() };
}

/** Latency at 1,000 req/s, with the receiver's garbage-collection pauses meanwhile (it runs in this process). */
async function latencyRun(url) {
  const pauses = [];
  const gc = new PerformanceObserver((list) => { for (const e of list.getEntries()) pauses.push(e.duration); });
  gc.observe({ entryTypes: ['gc'] });
  try {
    const res = await runClient({ url, seconds: 5, rate: 1000 });
    if (res.statuses['200'] !== res.count) throw new Error(`latency run: answers ${JSON.stringify(res.statuses)}`);
    return { ...res, gcCount: pauses.length, gcMax: Math.max(0, ...pauses) };
  } finally {
    gc.disconnect();
  }
}

/**
 * One throughput run under wrk: requests/s, the server's CPU µs per request
 * and its share of a core (below 100 when the machine's other work took the
 * rest), and wrk's own share of a core.
 */
async function measure(server, seconds = SECONDS) {
  const before = server.cpuMicros();
  // A new script each run: its bodies start from a new prefix, so the
  // receiver's dedupe cache has seen none of them in an earlier run.
  const script = uniqueBodyScript({ path: PATH, headers: HEADERS, body: delivery('%s') });
  const res = await runWrk({ url: `${server.url}${PATH}`, script, seconds, connections: CONNECTIONS, threads: THREADS });
  const used = server.cpuMicros() - before;
  if (res.bad > 0 || res.socketErrors) throw new Error(`${server.url}: ${res.bad} answers not 2xx, socket errors ${res.socketErrors}`);
  return { rps: res.rps, cpu: used / res.requests, serverPct: used / (res.seconds * 1e4), clientPct: res.clientCpuPct };
}

function median(xs) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

async function main() {
  const servers = { bare: await bareServer(SECRET), receiver: await receiverServer(), fastify: await fastifyServer(SECRET) };
  const fastapi = await fastapiServer(SECRET);
  try {
    let rounds = null;
    if (wrkAvailable()) {
      for (const s of [...Object.values(servers), fastapi].filter(Boolean)) await measure(s, 1); // warm-up
      // Short rounds in rotating order: other load on the machine drifts, so
      // each ratio compares runs taken back to back.
      const names = Object.keys(servers);
      rounds = [];
      for (let round = 0; round < ROUNDS; round++) {
        const r = {};
        for (let i = 0; i < names.length; i++) {
          const name = names[(i + round) % names.length];
          r[name] = await measure(servers[name]);
        }
        if (fastapi && round % 2 === 0) r.fastapi = await measure(fastapi);
        rounds.push(r);
        console.log(`round ${round + 1}: ${Object.entries(r).map(([n, m]) => `${n} ${Math.round(m.rps)} req/s (server ${m.serverPct.toFixed(0)}%, wrk ${m.clientPct.toFixed(0)}% of a core)`).join('; ')}`);
      }
    } else {
      console.log(`receiver-throughput: ${WRK_MISSING}; only the latency at 1,000 req/s is measured`);
    }
    const latency = await latencyRun(servers.receiver.url);
    report(rounds, latency, fastapi?.versions ?? null);
  } finally {
    for (const s of [...Object.values(servers), fastapi].filter(Boolean)) await s.close();
  }
}

function report(rounds, latency, fastapiVersions) {
  if (rounds) throughputFigures(rounds, fastapiVersions);
  else figure({ name: 'receiver CPU per request ÷ bare node:http\'s', value: 0, unit: '×', target: '≤ 1.5', note: WRK_MISSING });
  const paced = 'open loop, from each request\'s due time (lib/paced-load.mjs), 5,000 unique deliveries';
  figure({ name: 'receiver p50 latency at 1,000 req/s', value: latency.p50, unit: 'ms', note: paced });
  figure({ name: 'receiver p99 latency at 1,000 req/s', value: latency.p99, unit: 'ms', target: '< 5', ok: latency.p99 < 5,
    note: `p99.9 ${latency.p999.toFixed(2)} ms, max ${latency.max.toFixed(1)} ms; the generator's own sends late by p99 ${latency.lateP99.toFixed(2)} ms (max ${latency.lateMax.toFixed(1)}); the receiver's GC: ${latency.gcCount} pauses, longest ${latency.gcMax.toFixed(1)} ms` });
  figure({ name: 'latency generator CPU at 1,000 req/s (node, 16 sockets)', value: latency.clientCpuPct, unit: '% of a core',
    target: `< ${CLIENT_SATURATION_PCT}`, ok: latency.clientCpuPct < CLIENT_SATURATION_PCT });
}

function throughputFigures(rounds, fastapiVersions) {
  const of = (name, key) => rounds.filter((r) => r[name]).map((r) => r[name][key]);
  const rps = (name) => median(of(name, 'rps'));
  const cpu = (name) => median(of(name, 'cpu'));
  const busy = (name) => median(of(name, 'serverPct')).toFixed(0);
  const vsBare = median(rounds.map((r) => (100 * r.receiver.rps) / r.bare.rps));
  const vsFastify = median(rounds.map((r) => r.receiver.rps / r.fastify.rps));
  const per = (name) => `median of ${of(name, 'rps').length} runs of ${SECONDS} s under wrk (${THREADS} thread, ${CONNECTIONS} connections), unique deliveries; the server had ${busy(name)}% of a core`;
  figure({ name: 'receiver requests/s', value: Math.round(rps('receiver')), unit: 'req/s', note: per('receiver') });
  figure({ name: 'bare node:http requests/s (same work)', value: Math.round(rps('bare')), unit: 'req/s', note: per('bare') });
  figure({ name: 'fastify requests/s (same work)', value: Math.round(rps('fastify')), unit: 'req/s', note: per('fastify') });
  // No target on this ratio: on the shared 2-core machine neither server gets
  // a whole core, and the pairs swing with the scheduler (32–193% in a round).
  // The receiver's cost is judged on CPU per request below (docs/decisions.md).
  figure({ name: 'receiver vs bare node:http, requests/s', value: vsBare, unit: '%',
    note: `median of back-to-back pairs; rounds: ${rounds.map((r) => ((100 * r.receiver.rps) / r.bare.rps).toFixed(0)).join(', ')}` });
  // fastify here validates no payload and dedupes nothing: a receiver built
  // on it would pay that work on top, so this is fastify's best case.
  figure({
    name: 'receiver vs fastify (fastify without payload validation or dedupe)', value: vsFastify, unit: '×',
    note: `the receiver is ${vsFastify >= 1 ? 'faster even so' : 'slower than bare fastify'}`,
  });
  figure({ name: 'bare node:http CPU per request', value: cpu('bare'), unit: 'µs' });
  figure({ name: 'receiver CPU per request', value: cpu('receiver'), unit: 'µs', note: `bare / receiver = ${((100 * cpu('bare')) / cpu('receiver')).toFixed(0)} %` });
  // What the receiver adds to the floor (a dedupe key over the body, payload
  // validation, a delivery record) may cost up to half of bare node's own work.
  const overBare = cpu('receiver') / cpu('bare');
  figure({ name: 'receiver CPU per request ÷ bare node:http\'s', value: overBare, unit: '×', target: '≤ 1.5', ok: overBare <= 1.5,
    note: `+${(cpu('receiver') - cpu('bare')).toFixed(1)} µs a request for dedupe, validation and the delivery record` });
  figure({ name: 'fastify CPU per request', value: cpu('fastify'), unit: 'µs' });
  if (fastapiVersions) {
    const x = rps('receiver') / rps('fastapi');
    figure({ name: 'FastAPI+uvicorn requests/s (same work)', value: Math.round(rps('fastapi')), unit: 'req/s', note: `${fastapiVersions}; ${per('fastapi')}` });
    figure({ name: 'FastAPI+uvicorn CPU per request', value: cpu('fastapi'), unit: 'µs' });
    figure({ name: 'receiver vs FastAPI+uvicorn', value: x, unit: '×', target: '≥ 5', ok: x >= 5,
      note: `requests/s; by CPU per request ${(cpu('fastapi') / cpu('receiver')).toFixed(1)}×` });
  } else {
    figure({ name: 'receiver vs FastAPI+uvicorn', value: 0, unit: '×', target: '≥ 5', note: 'skipped: apt-get install python3-fastapi python3-uvicorn' });
  }
  const clients = rounds.flatMap((r) => Object.values(r).map((m) => m.clientPct));
  const worst = Math.max(...clients);
  figure({ name: `load generator CPU, busiest throughput run (wrk, ${THREADS} thread, ${CONNECTIONS} connections)`, value: worst, unit: '% of a core',
    target: `< ${CLIENT_SATURATION_PCT}`, ok: worst < CLIENT_SATURATION_PCT, note: `median of all runs ${median(clients).toFixed(0)}%` });
}
