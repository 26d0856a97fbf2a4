import type { Io } from '../../lib/io.js';
import { UsageError, UserError } from '../../lib/errors.js';
import { newCommand, parse, subCommand } from '../command.js';
import { parseDuration } from '../session/session.js';
import { EXIT } from '../exit-codes.js';
import type { DiscoverFormat } from '../views/discover-view.js';

// `robotctl robots discover`: the Reachy Mini daemons that answer over mDNS
// on this machine's networks (drivers/discovery). Exit 0 whether or not any
// answered (none: stdout has no robot, stderr says what to check); exit 1
// only when no interface could browse at all (multicast unavailable).

interface DiscoverFlags {
  timeout: string;
  json?: boolean;
  yaml?: boolean;
}

const MAX_TIMEOUT_MS = 60_000;

async function discover(io: Io, o: DiscoverFlags): Promise<void> {
  if (o.json && o.yaml) throw new UsageError('--json and --yaml: choose one');
  const timeoutMs = parseDuration(o.timeout, '--timeout');
  if (timeoutMs < 100 || timeoutMs > MAX_TIMEOUT_MS) throw new UsageError(`--timeout must be from 100ms to 60s, got '${o.timeout}'`);
  const { browseRobots, DiscoveryUnavailable } = await import('../../drivers/discovery/browse.js');
  const { robotKeys } = await import('./robots/robot-keys.js');
  const { newDiscoverView } = await import('../views/discover-view.js');
  const format: DiscoverFormat = o.json ? 'json' : o.yaml ? 'yaml' : 'human';
  let found;
  try {
    found = await browseRobots({ timeoutMs });
  } catch (err) {
    if (err instanceof DiscoveryUnavailable) {
      throw new UserError(`${err.message}. mDNS needs a network interface that passes multicast (UDP 5353 to 224.0.0.251); declare robots by URL in robot.yaml meanwhile.`);
    }
    throw err;
  }
  newDiscoverView(format, io).show(found, robotKeys(found.robots), timeoutMs);
}

export async function run(args: string[], io: Io): Promise<number> {
  const root = newCommand('robots', io).description('Robots on this machine\'s networks');
  subCommand(root, 'discover', io)
    .description('List the Reachy Mini robots that answer over mDNS (_reachy-mini._tcp): name, URL, daemon version, hardware id, model')
    .option('--timeout <duration>', 'how long to listen for answers', '3s')
    .option('--json', 'print a JSON document (format_version)')
    .option('--yaml', 'print a robots: block for robot.yaml (url and hardware_id of each robot)')
    .action((o: DiscoverFlags) => discover(io, o));
  await parse(root, args);
  return EXIT.ok;
}
