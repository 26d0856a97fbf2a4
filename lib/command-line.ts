// A robotctl command line shown to the user (a hint, a "Next:" line, a usage
// line) must work as printed, and how robotctl is run depends on the machine:
// `robotctl` after `npm link`, `node bin/robotctl.js` after `npm ci` alone.
// Only the CLI's view knows (cli/views/command-line.ts); the layers below it
// take this function from their caller and never write `robotctl …` themselves.

/** Writes `<how robotctl runs here> <args>`; args are already shell words (see shellWord). */
export type CommandLine = (args: string) => string;

const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A word as a POSIX shell reads it back unchanged: as is when plain, else in single quotes. */
export function shellWord(word: string): string {
  return PLAIN_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A command a message suggests, in backquotes: written out by the caller's
 * CommandLine, or, when the layer was given none (library use), named as
 * robotctl's, so no line that could fail as typed is printed.
 */
export function suggested(command: CommandLine | undefined, args: string): string {
  return command ? `\`${command(args)}\`` : `robotctl's \`${args}\``;
}
