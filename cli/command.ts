import { Command, CommanderError, Help } from 'commander';
import type { Io } from '../lib/io.js';
import { ExitError, UsageError } from '../lib/errors.js';
import { EXIT } from './exit-codes.js';
import { commandLine } from './views/command-line.js';

/**
 * A commander Command wired to an Io: help goes to io.out, parse errors become
 * UsageError (exit 64, see exit-codes.ts), and nothing calls process.exit behind our back.
 */
const PROGRAM = 'robotctl';

export function newCommand(name: string, io: Io): Command {
  const cmd = new Command(`${PROGRAM} ${name}`);
  configure(cmd, io);
  return cmd;
}

function configure(cmd: Command, io: Io): void {
  cmd.exitOverride();
  cmd.configureOutput({
    writeOut: (s) => io.out(s),
    writeErr: (s) => io.err(s),
    // Errors are printed once by the top-level catch.
    outputError: () => {},
  });
  cmd.showHelpAfterError(false);
  cmd.allowExcessArguments(false);
  // The Usage line is a command line too; written when help is shown, so a run without --help looks up nothing.
  cmd.configureHelp({
    commandUsage(c: Command): string {
      const usage = Help.prototype.commandUsage.call(this, c);
      return usage.startsWith(`${PROGRAM} `) ? commandLine(io)(usage.slice(PROGRAM.length + 1)) : usage;
    },
  });
}

/** Add a sub-command that inherits the io wiring. */
export function subCommand(parent: Command, name: string, io: Io): Command {
  const sub = parent.command(name);
  configure(sub, io);
  return sub;
}

/** Parse args; map commander's own errors to our classes. */
export async function parse(cmd: Command, args: string[]): Promise<void> {
  try {
    await cmd.parseAsync(args, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help' || err.code === 'commander.version') {
        throw new ExitError(EXIT.ok);
      }
      throw new UsageError(err.message.replace(/^error: /, ''));
    }
    throw err;
  }
}
