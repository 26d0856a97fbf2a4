import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// A real PostgreSQL server for a test file: Debian's binaries, a fresh
// cluster in a temp folder, a free loopback port, trust auth. The server
// refuses to run as root, so as root it runs as the `postgres` user the
// package creates. `skip` says why there is none (binaries missing).

const run = promisify(execFile);

export interface TestPostgres {
  url: string;
  port: number;
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

function binDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

export function postgresMissing(): string | null {
  return binDir() ? null : 'PostgreSQL binaries not found under /usr/lib/postgresql (apt-get install postgresql; .ci/run does)';
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const addr = srv.address();
  await new Promise<void>((r) => srv.close(() => r()));
  return typeof addr === 'object' && addr ? addr.port : 0;
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  if (!bin) throw new Error(postgresMissing() ?? 'no postgres');
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-pg-'));
  const asRoot = userInfo().uid === 0;
  const as = (cmd: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : run(join(bin, cmd), args));
  if (asRoot) chownSync(dir, Number((await run('id', ['-u', 'postgres'])).stdout.trim()), Number((await run('id', ['-g', 'postgres'])).stdout.trim()));
  const data = join(dir, 'data');
  await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const port = await freePort();
  await as('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off`, '-w', 'start']);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url, port,
    env: { PGHOST: '127.0.0.1', PGPORT: String(port), PGUSER: 'postgres', PGDATABASE: 'postgres' },
    stop: async () => {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
