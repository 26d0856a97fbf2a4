// A real PostgreSQL server for a benchmark, started as the tests start it
// (test/helpers/postgres.ts): Debian's binaries, a fresh cluster in a temp
// folder, a free loopback port, trust auth, run as the `postgres` user when
// we are root (the server refuses root). stop() removes the folder.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

function binDir() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

/** Why there is no server here, or null when the binaries are installed. */
export function postgresMissing() {
  return binDir() ? null : 'PostgreSQL binaries not found under /usr/lib/postgresql (apt-get install postgresql)';
}

async function freePort() {
  const srv = createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

export async function startPostgres() {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-pg-'));
  const asRoot = userInfo().uid === 0;
  const as = (cmd, args) => (asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : run(join(bin, cmd), args));
  const data = join(dir, 'data');
  const stop = async () => {
    if (existsSync(join(data, 'postmaster.pid'))) await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (asRoot) chownSync(dir, Number((await run('id', ['-u', 'postgres'])).stdout.trim()), Number((await run('id', ['-g', 'postgres'])).stdout.trim()));
    await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    const port = await freePort();
    await as('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off`, '-w', 'start']);
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
