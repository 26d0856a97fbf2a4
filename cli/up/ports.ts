import { createServer } from 'node:http';
import { UserError } from '../../lib/errors.js';
import { DEFAULT_RECEIVER_PORT } from '../../lib/receiver-port.js';
import type { Config } from '../../schema/types.js';
import { isLoopback, portOf } from './robots.js';

// Before `up` starts or writes anything, every port it will listen on is
// tried: a port another session (or program) holds stops it at once, naming
// each one and what would work, instead of a robot failing half-way after
// the hub started and the env file was written.

export interface WantedPort {
  port: number;
  what: string;
}

/** The hub's port (unless 0), each robot's on this machine, the receiver's. */
export function portsOf(config: Config, hubPort: number): WantedPort[] {
  const wanted: WantedPort[] = [];
  if (hubPort !== 0) wanted.push({ port: hubPort, what: 'the hub' });
  for (const r of Object.values(config.robots)) {
    if (isLoopback(r.url)) wanted.push({ port: portOf(r.url), what: `robot ${r.name}` });
  }
  const receiver = config.receiver?.port ?? DEFAULT_RECEIVER_PORT;
  if (receiver !== 0) wanted.push({ port: receiver, what: 'the receiver' });
  return wanted;
}

/** Throws a UserError naming every port in use; `file` as the user wrote it. */
export async function checkPorts(wanted: WantedPort[], file: string): Promise<void> {
  const busy: WantedPort[] = [];
  for (const w of wanted) if (await inUse(w.port)) busy.push(w);
  if (busy.length === 0) return;
  const list = busy.map((b) => `${b.port} (${b.what})`).join(', ');
  throw new UserError(`robotctl up cannot start ${file}: port${busy.length === 1 ? '' : 's'} ${list} ${busy.length === 1 ? 'is' : 'are'} in use, by another robotctl up or another program. Stop it first, or give this file other ports (the robots' url, receiver.port) and --hub-port; nothing was started or written.`);
}

/** A bind and an immediate close (a server, no connection: node:http's, as the house keeps node:net to drivers and runtimes). */
function inUse(port: number): Promise<boolean> {
  const srv = createServer();
  return new Promise((resolve) => {
    srv.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE'));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(false)));
  });
}
