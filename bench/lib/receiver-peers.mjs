// The servers the receiver is measured against, each doing the least work
// equivalent to a delivery: read the body, check the X-Webhook-Secret header,
// parse the JSON, answer {"repo": name}. Each returns { url, cpuMicros(),
// close() }; cpuMicros() is that server's CPU time so far (user + system).
import { createServer } from 'node:http';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cpuSecondsOf } from './measure.mjs';

const ownCpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

function listening(server, close) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}`, cpuMicros: ownCpu, close,
  })));
}

/** Bare node:http: the floor any node server pays. */
export function bareServer(secret) {
  const server = createServer((req, res) => {
    if (req.headers['x-webhook-secret'] !== secret) {
      res.writeHead(403).end();
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const text = JSON.stringify({ repo: payload.repo.name });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  return listening(server, () => new Promise((r) => { server.close(() => r()); server.closeAllConnections(); }));
}

/** fastify with its own JSON body parser: an upper bound for a receiver built on fastify (DESIGN.md). */
export async function fastifyServer(secret) {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.post('/webhooks/bench', async (req, reply) => {
    if (req.headers['x-webhook-secret'] !== secret) return reply.code(403).send({ error: 'Invalid webhook secret.' });
    return { repo: req.body.repo.name };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${app.server.address().port}`, cpuMicros: ownCpu, close: () => app.close() };
}

// Debian's python3-fastapi lives in /usr/bin/python3's dist-packages; a
// pyenv python3 earlier on PATH does not see it.
function pythonWithFastapi() {
  for (const py of ['/usr/bin/python3', 'python3']) {
    const r = spawnSync(py, ['-c', 'import fastapi, uvicorn'], { stdio: 'ignore' });
    if (r.status === 0) return py;
  }
  return null;
}

/** FastAPI + uvicorn as huggingface_hub's WebhooksServer runs it; null when not installed. */
export async function fastapiServer(secret) {
  const py = pythonWithFastapi();
  if (!py) return null;
  const script = fileURLToPath(new URL('./fastapi_receiver.py', import.meta.url));
  const child = spawn(py, [script, secret], { stdio: ['ignore', 'pipe', 'inherit'] });
  const closed = new Promise((r) => child.once('close', r));
  const [port, versions] = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve([line.split(' ', 1)[0], line.slice(line.indexOf(' ') + 1)]));
    child.once('close', (code) => reject(new Error(`fastapi server exited ${code}`)));
  });
  const cpuMicros = () => cpuSecondsOf(child.pid) * 1e6;
  return {
    url: `http://127.0.0.1:${port}`, cpuMicros, versions,
    close: async () => { child.kill('SIGTERM'); await closed; },
  };
}
