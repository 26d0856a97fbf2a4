// An open-loop load generator for latency at a fixed rate, run in its own
// process (bench/receiver-throughput.mjs --client). Every request has a due
// time (start + i / rate) fixed before the run, and its latency is counted
// from that due time to the last byte of its answer: a request the generator
// sends late, because its own timer or event loop was late or every
// connection was still busy, is charged for the wait (no coordinated
// omission). The generator stays light so that it measures the server, not
// itself: all request bytes are built before the clock starts (nothing
// allocated per request but the answer's chunk), plain keep-alive sockets
// with one request at a time on each (no pipelining: a slow answer delays no
// other), and answers parsed by scanning for the header end and its
// Content-Length. Besides the latency it reports how late its own sends were
// and how long its event loop stalled, so a slow percentile can be told apart
// from a slow generator, and its CPU share shows it stayed below saturation.
import { connect } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * @param {object} o
 * @param {string} o.url      http://127.0.0.1:PORT
 * @param {string} o.path     request path
 * @param {Record<string,string>} o.headers  extra headers (content-type included)
 * @param {(i: number) => string} o.body     the body of request i (built before the run)
 * @param {number} o.rate     requests per second
 * @param {number} o.seconds  length of the run
 * @param {number} [o.connections]  keep-alive connections (default 16)
 */
export async function pacedLoad({ url, path, headers, body, rate, seconds, connections = 16 }) {
  const { hostname, port } = new URL(url);
  const total = Math.round(rate * seconds);
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  const requests = Array.from({ length: total }, (_, i) => {
    const b = Buffer.from(body(i));
    return Buffer.concat([Buffer.from(`POST ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\n${head}content-length: ${b.length}\r\n\r\n`), b]);
  });
  const latency = new Float64Array(total);
  const lateness = new Float64Array(total);
  const statuses = new Map();
  const sockets = await Promise.all(Array.from({ length: connections }, () => open(hostname, Number(port))));
  const idle = [...sockets];
  let next = 0;
  let done = 0;
  let start = 0;
  let finish;
  const finished = new Promise((resolve) => { finish = resolve; });

  const send = (sock, i) => {
    sock.current = i;
    lateness[i] = performance.now() - (start + (i * 1000) / rate);
    sock.write(requests[i]);
  };
  const pump = () => {
    const now = performance.now();
    while (next < total && start + (next * 1000) / rate <= now && idle.length > 0) send(idle.pop(), next++);
    if (next < total) setTimeout(pump, Math.max(0, start + (next * 1000) / rate - performance.now()));
  };
  for (const sock of sockets) {
    let buf = null;
    sock.on('data', (chunk) => {
      buf = buf ? Buffer.concat([buf, chunk]) : chunk;
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const headText = buf.toString('latin1', 0, end);
        const m = /content-length: *(\d+)/i.exec(headText);
        const size = end + 4 + (m ? Number(m[1]) : 0);
        if (buf.length < size) return;
        const status = headText.slice(9, 12);
        const i = sock.current;
        latency[i] = performance.now() - (start + (i * 1000) / rate);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        buf = buf.length === size ? null : buf.subarray(size);
        done++;
        // A request already due goes out on this socket at once.
        if (next < total && start + (next * 1000) / rate <= performance.now()) send(sock, next++);
        else idle.push(sock);
        if (done === total) finish();
        if (!buf) return;
      }
    });
  }
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const cpuBefore = process.cpuUsage();
  start = performance.now();
  pump();
  await finished;
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  loop.disable();
  for (const s of sockets) s.destroy();
  const sorted = (xs) => Float64Array.from(xs).sort();
  const at = (xs, q) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  const lat = sorted(latency);
  const late = sorted(lateness);
  return {
    count: total, statuses: Object.fromEntries(statuses),
    p50: at(lat, 0.5), p99: at(lat, 0.99), p999: at(lat, 0.999), max: lat[lat.length - 1],
    lateP99: at(late, 0.99), lateMax: late[late.length - 1],
    loopP99: loop.percentile(99) / 1e6, loopMax: loop.max / 1e6,
    // The generator's own CPU over the run, in % of one core: near 100 it would be what limits the figure.
    clientCpuPct: (100 * (cpu.user + cpu.system) / 1000) / wall,
  };
}

function open(host, port) {
  return new Promise((resolve, reject) => {
    const sock = connect({ host, port, noDelay: true }, () => resolve(sock));
    sock.once('error', reject);
  });
}
