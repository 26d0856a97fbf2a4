import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Io } from '../../lib/io.js';
import { UsageError, UserError, errorMessage } from '../../lib/errors.js';
import { commandLine } from '../views/command-line.js';

// --token and --token-file, the same for every command that talks to the hub.
// A token in argv is visible to every user of the machine (`ps`), so --token
// keeps working but warns; --token-file and HF_TOKEN keep it out of argv.

export interface TokenFlags {
  token?: string;
  tokenFile?: string;
}

export const TOKEN_WARNING = 'Warning: --token is visible to other users in the process list (ps); use --token-file PATH or HF_TOKEN instead.\n';

/** After a 401: the hub is there, the token is not accepted. */
export function refusedTokenHint(io: Io): string {
  return `The hub refused the token: log in with \`${commandLine(io)('auth login')}\`, set HF_TOKEN, or pass --token-file.`;
}

/** Add both options to a command; `what` says which token (e.g. 'Hub token'). */
export function withTokenOptions(cmd: Command, what = 'hub token (default: HF_TOKEN, then the token file)'): Command {
  return cmd
    .option('--token <token>', `${what}; visible in the process list, prefer --token-file`)
    .option('--token-file <path>', 'read the hub token from this file (first line)');
}

/** The token the flags give (warning about --token), or null to fall back to HF_TOKEN and the token file. */
export function tokenFromFlags(io: Io, o: TokenFlags): string | null {
  if (o.token !== undefined && o.tokenFile !== undefined) throw new UsageError('give --token or --token-file, not both');
  if (o.token !== undefined) {
    io.err(TOKEN_WARNING);
    return o.token;
  }
  if (o.tokenFile === undefined) return null;
  return readTokenFile(io, o.tokenFile);
}

/** The first line of a token file, trimmed; a clear error when it cannot be read or is empty. */
export function readTokenFile(io: Io, file: string): string {
  let text: string;
  try {
    text = readFileSync(resolve(io.cwd, file), 'utf8');
  } catch (err) {
    throw new UserError(`cannot read --token-file ${file}: ${errorMessage(err)}`);
  }
  const token = text.split(/\r?\n/)[0]?.trim() ?? '';
  if (token === '') throw new UserError(`--token-file ${file} is empty: put the token on its first line`);
  return token;
}
