import { readFileSync } from 'node:fs';
import { commands } from './registry.js';
import { processIo, type Io } from '../lib/io.js';
import { ExitError, UserError, errorMessage } from '../lib/errors.js';
import { packagePath } from '../lib/paths.js';

export function version(): string {
  const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: robotctl <command> [options]',
    '',
    'Keep Hugging Face Hub webhooks and Reachy Mini robot apps in the state robot.yaml declares.',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `robotctl <command> --help` for the options of a command.',
    'Exit codes: 0 ok (no changes), 1 error, 2 changes or drift (plan/diff) or usage error.',
    '',
  ].join('\n');
}

/** The one top-level catch: maps error classes to exit codes. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    if (name === 'help' && rest[0]) return main([rest[0], '--help'], io);
    io.out(usage());
    return 0;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.out(`${version()}\n`);
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.err(`Error: unknown command '${name}'. Run \`robotctl --help\` for the list.\n`);
    return 2;
  }
  try {
    const mod = await entry.load();
    return await mod.run(rest, io);
  } catch (err) {
    if (err instanceof ExitError) return err.exitCode;
    if (err instanceof UserError) {
      io.err(`Error: ${err.message}\n`);
      return err.exitCode;
    }
    io.err(`robotctl: internal error: ${errorMessage(err)}\n`);
    if (io.env.ROBOTCTL_DEBUG) io.err(`${err instanceof Error ? err.stack : ''}\n`);
    return 1;
  }
}
