// Embedded hub throughput with 1,000 stored webhooks: get one webhook, list
// them all (~270 KB an answer), and a 90/10 mix. The hub runs as users run it
// (`robotctl hub`, its own process); the webhooks are created through the hub
// driver, and the load comes from wrk (bench/lib/wrk.mjs: one thread, 16
// connections), whose CPU is printed and checked below saturation, with the
// hub's own CPU per request. Build first: npm run build.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createHubClient } from '../dist/drivers/hub/client.js';
import { figure } from './lib/figures.mjs';
import { cpuSecondsOf } from './lib/measure.mjs';
import { CLIENT_SATURATION_PCT, WRK_MISSING, requestsScript, runWrk, wrkAvailable } from './lib/wrk.mjs';

const TOKEN = 'hf_demo_local_token'; // the hub's user `demo` when started without --user
const SECONDS = 3;
const CONNECTIONS = 16;
const bin = fileURLToPath(new URL('../bin/robotctl.js', import.meta.url));

if (!wrkAvailable()) {
  console.log(`hub-list: ${WRK_MISSING}`);
  figure({ name: 'hub: get webhook with 1,000 stored', value: 0, unit: 'req/s', target: '≥ 2000', note: WRK_MISSING });
  process.exit(0);
}

const hub = spawn(process.execPath, [bin, 'hub', '--port', '0', '--quiet-deliveries'], { stdio: ['ignore', 'pipe', 'inherit'] });
const exited = once(hub, 'exit');
const url = (await new Promise((r) => createInterface({ input: hub.stdout }).once('line', r))).replace('listening on ', '');
const client = createHubClient({ endpoint: url, token: TOKEN });

/** One wrk run of `paths` round-robin: requests/s, the hub's CPU µs per request, wrk's CPU in % of a core. */
async function rate(paths, seconds = SECONDS) {
  const script = requestsScript({ paths, headers: { authorization: `Bearer ${TOKEN}` } });
  const before = cpuSecondsOf(hub.pid);
  const res = await runWrk({ url, script, seconds, connections: CONNECTIONS });
  const used = cpuSecondsOf(hub.pid) - before;
  if (res.bad > 0 || res.socketErrors) throw new Error(`${res.bad} answers not 2xx, socket errors ${res.socketErrors}`);
  return { rps: res.rps, cpuUs: (used * 1e6) / res.requests, clientPct: res.clientCpuPct };
}

try {
  const ids = [];
  for (let i = 0; i < 1000; i++) {
    const w = await client.createWebhook({ watched: [{ type: 'space', name: `bench/app-${i}` }], url: `https://example.org/hooks/${i}`, domains: ['repo'] });
    ids.push(w.id);
  }
  const one = (id) => `/api/settings/webhooks/${id}`;
  const list = '/api/settings/webhooks';
  await rate(ids.slice(0, 100).map(one), 1); // warm-up
  const get = await rate(ids.map(one));
  const all = await rate([list]);
  const mixed = await rate(ids.slice(0, 90).flatMap((id, i) => (i % 9 === 8 ? [one(id), list] : [one(id)])));
  const runs = { get, all, mixed };
  const wrkNote = (m) => `wrk, 1 thread, ${CONNECTIONS} connections, ${m.clientPct.toFixed(0)}% of a core; the hub's CPU ${m.cpuUs.toFixed(0)} µs a request`;
  figure({ name: 'hub: get webhook with 1,000 stored', value: Math.round(get.rps), unit: 'req/s', target: '≥ 2000', ok: get.rps >= 2000, note: wrkNote(get) });
  figure({ name: 'hub: list 1,000 webhooks (~270 KB an answer)', value: Math.round(all.rps), unit: 'req/s', note: wrkNote(all) });
  figure({ name: 'hub: 90% get / 10% list', value: Math.round(mixed.rps), unit: 'req/s', target: '≥ 2000', ok: mixed.rps >= 2000, note: wrkNote(mixed) });
  const worst = Math.max(...Object.values(runs).map((m) => m.clientPct));
  figure({ name: `load generator CPU, busiest hub run (wrk, 1 thread, ${CONNECTIONS} connections)`, value: worst, unit: '% of a core',
    target: `< ${CLIENT_SATURATION_PCT}`, ok: worst < CLIENT_SATURATION_PCT });
} finally {
  await client.close();
  hub.kill('SIGTERM');
  await exited;
}
