import { InvalidArgumentError, type Command } from 'commander';
import { parseAllowedHost } from '../../lib/allowed-host.js';
import { errorMessage } from '../../lib/errors.js';

// `--allowed-host NAME` (repeatable) of every command that runs a server
// (daemon, hub, receiver, agent, up): a name besides localhost and this
// machine's own under which its pages and API answer (lib/allowed-host.ts).

export interface AllowedHostFlags {
  allowedHost: string[];
}

function collectHost(value: string, previous: string[]): string[] {
  try {
    return [...previous, parseAllowedHost(value)];
  } catch (err) {
    throw new InvalidArgumentError(errorMessage(err));
  }
}

export function withAllowedHostOption(cmd: Command): Command {
  return cmd.option('--allowed-host <name>', 'also answer requests whose Host is this name or address (repeatable); localhost and this machine\'s own names and addresses always are', collectHost, [] as string[]);
}
