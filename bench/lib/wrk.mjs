// wrk (Debian's `wrk`, C, epoll) as the load generator of the throughput
// benchmarks: a node client (one undici Pool in one process) topped out near
// 8–9k requests/s on this machine, so every server it drove measured the
// client instead (issue 28, point 8). wrk runs in its own process; the CPU it
// used is read with bash's `times` once it exits, so each run says how busy
// its client was and whether it stayed below saturation.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A client thread busier than this (% of one core) may be what limits the figure. */
export const CLIENT_SATURATION_PCT = 90;

/** Whether wrk is on PATH; the benchmarks that need it say so and skip when it is not. */
export function wrkAvailable() {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

export const WRK_MISSING = 'wrk is not installed (apt-get install wrk): skipped';

/**
 * A Lua script that POSTs a different body on every request: `body` is the
 * body's text with `%s` where a 40-hex id goes (the same id in every `%s`).
 * The id is a prefix new for each script (each run), the thread's number and
 * a counter, so no two requests of any run carry the same body: a receiver's
 * dedupe cache never answers one.
 */
export function uniqueBodyScript({ path, headers, body }) {
  const lua = (s) => JSON.stringify(s); // a JSON string is a valid Lua string literal for this ASCII text
  const headerLines = Object.entries(headers).map(([k, v]) => `wrk.headers[${lua(k)}] = ${lua(v)}`).join('\n');
  const parts = body.split('%s').map(lua).join(', ');
  return `
wrk.method = "POST"
${headerLines}
local parts = { ${parts} }
local threads = 0
function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end
local counter = 0
local prefix = ""
function init(args)
  prefix = ${lua(randomBytes(7).toString('hex'))} .. string.format("%02x", id)
end
function request()
  counter = counter + 1
  return wrk.format(nil, ${lua(path)}, nil, table.concat(parts, prefix .. string.format("%024x", counter)))
end
`;
}

/**
 * A Lua script that sends `paths` round-robin (one path: the same request
 * each time), with `method`, `headers` and an optional fixed `body`; a path
 * is chosen per request, so a script can mix routes (9 gets, then a list).
 */
export function requestsScript({ method = 'GET', paths, headers = {}, body = null }) {
  const lua = (s) => JSON.stringify(s);
  const headerLines = Object.entries(headers).map(([k, v]) => `wrk.headers[${lua(k)}] = ${lua(v)}`).join('\n');
  return `
wrk.method = ${lua(method)}
${body === null ? '' : `wrk.body = ${lua(body)}`}
${headerLines}
local paths = { ${paths.map(lua).join(', ')} }
local i = 0
function request()
  i = i % #paths + 1
  return wrk.format(nil, paths[i])
end
`;
}

/**
 * One wrk run against `url` with the given Lua script.
 * @returns {Promise<{ rps: number, requests: number, seconds: number, bad: number, socketErrors: string | null, clientCpuPct: number }>}
 *   clientCpuPct is wrk's CPU (user + system) over the run, in % of one core per thread.
 */
export async function runWrk({ url, script, seconds, connections = 32, threads = 1 }) {
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-wrk-'));
  try {
    const file = join(dir, 'script.lua');
    writeFileSync(file, script);
    const cmd = `wrk -t${threads} -c${connections} -d${seconds}s --latency -s '${file}' '${url}'; rc=$?; echo times:; times; exit $rc`;
    const out = await new Promise((resolve, reject) => {
      const child = spawn('bash', ['-c', cmd], { stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (d) => { text += d; });
      child.stderr.on('data', (d) => { text += d; });
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
    });
    return parseWrk(out, threads);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** bash's `times` line "0m1.234s 0m0.567s" → seconds. */
const duration = (text) => {
  const m = /^(\d+)m([\d.]+)s$/.exec(text);
  if (!m) throw new Error(`unreadable time ${text}`);
  return Number(m[1]) * 60 + Number(m[2]);
};

function parseWrk(out, threads) {
  const done = /(\d+) requests in ([\d.]+)(ms|s|m)/.exec(out);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  // `times` prints the shell's own user and system time, then its children's (wrk's).
  const cpu = /times:\n\S+ \S+\n(\S+) (\S+)/.exec(out);
  if (!done || !rps || !cpu) throw new Error(`unreadable wrk output:\n${out}`);
  const seconds = Number(done[2]) * ({ ms: 0.001, s: 1, m: 60 })[done[3]];
  const bad = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socketErrors = /Socket errors: (.*)/.exec(out)?.[1] ?? null;
  const cpuSeconds = duration(cpu[1]) + duration(cpu[2]);
  return { rps: Number(rps[1]), requests: Number(done[1]), seconds, bad, socketErrors, clientCpuPct: (100 * cpuSeconds) / seconds / threads };
}
