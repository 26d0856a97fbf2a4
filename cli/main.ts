import { readFileSync } from 'node:fs';
import { commands } from './registry.js';
import { processIo, type Io } from '../lib/io.js';
import { ExitError, UserError, errorMessage } from '../lib/errors.js';
import { EXIT, exitCodeOf } from './exit-codes.js';
import { packagePath } from '../lib/paths.js';
import { commandLine } from './views/command-line.js';

export function version(): string {
  const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

function usage(io: Io): string {
  const command = commandLine(io);
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    `Usage: ${command('<command> [options]')}`,
    '',
    'Keep Hugging Face Hub webhooks and Reachy Mini robot apps in the state robot.yaml declares.',
    '',
    'Commands:',
    ...lines,
    '',
    `Run \`${command('<command> --help')}\` for the options of a command.`,
    'Exit codes: 0 ok (no changes), 1 error, 2 changes or drift (plan/diff), 64 usage error, 130 interrupted.',
    '',
  ].join('\n');
}

/** The one top-level catch: maps error classes to exit codes. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    if (name === 'help' && rest[0]) return main([rest[0], '--help'], io);
    io.out(usage(io));
    return EXIT.ok;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.out(`${version()}\n`);
    return EXIT.ok;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.err(`Error: unknown command '${name}'. Run \`${commandLine(io)('--help')}\` for the list.\n`);
    return EXIT.usage;
  }
  try {
    const mod = await entry.load();
    return await mod.run(rest, io);
  } catch (err) {
    if (err instanceof UserError) io.err(`Error: ${err.message}\n`);
    else if (!(err instanceof ExitError)) {
      io.err(`robotctl: internal error: ${errorMessage(err)}\n`);
      if (io.env.ROBOTCTL_DEBUG) io.err(`${err instanceof Error ? err.stack : ''}\n`);
    }
    return exitCodeOf(err);
  }
}
