import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Io } from '../../lib/io.js';
import { ExitError, UserError } from '../../lib/errors.js';
import { newCommand, parse, subCommand } from '../command.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { resolveEndpoint } from '../../drivers/hub/endpoint.js';
import { HubError } from '../../drivers/hub/errors.js';
import { resolveToken, tokenFilePath } from '../../drivers/hub/token.js';
import { atomicWrite } from '../../lib/atomic-write.js';
import { readSecret } from '../prompt.js';
import { tokenFromFlags, withTokenOptions, type TokenFlags } from '../session/token-flags.js';
import { EXIT } from '../exit-codes.js';
import { commandLine } from '../views/command-line.js';

// `robotctl auth`: the token file huggingface_hub also reads, so `hf auth login`
// and `robotctl auth login` are interchangeable.

async function whoamiName(io: Io, token: string): Promise<string> {
  const hub = createHubClient({ endpoint: resolveEndpoint(io.env), token, maxRetries: 2 });
  try {
    return (await hub.whoami()).name;
  } catch (err) {
    if (err instanceof HubError && err.status === 401) throw new UserError('Invalid token: the hub refused it (401).');
    if (err instanceof HubError) throw new UserError(err.message);
    throw err;
  } finally {
    await hub.close();
  }
}

async function login(io: Io, flags: TokenFlags): Promise<void> {
  const token = (tokenFromFlags(io, flags) ?? (await readSecret((t) => io.err(t))))?.trim();
  if (!token) throw new UserError('No token given: type it when asked, pipe it on stdin, or pass --token-file.');
  const name = await whoamiName(io, token);
  const file = tokenFilePath(io.env);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await atomicWrite(file, token, 0o600);
  io.out(`Logged in as ${name}\n`);
  io.out(`Token saved to ${file}\n`);
  if (io.env.HF_TOKEN) io.err('Note: HF_TOKEN is set in the environment and takes precedence over the saved token.\n');
}

async function whoami(io: Io, flags: TokenFlags): Promise<void> {
  const resolved = resolveToken({ flag: tokenFromFlags(io, flags), env: io.env });
  if (!resolved) {
    io.err(`Not logged in. Run \`${commandLine(io)('auth login')}\` (or set HF_TOKEN).\n`);
    throw new ExitError(EXIT.error);
  }
  const name = await whoamiName(io, resolved.token);
  io.out(`${name}\n`);
  const source = flags.tokenFile !== undefined ? flags.tokenFile : resolved.source;
  io.err(`token from ${source}, endpoint ${resolveEndpoint(io.env)}\n`);
}

async function logout(io: Io): Promise<void> {
  const file = tokenFilePath(io.env);
  await rm(file, { force: true });
  io.out(`Logged out: removed ${file}\n`);
  if (io.env.HF_TOKEN) io.err('Note: HF_TOKEN is still set in the environment.\n');
}

export async function run(args: string[], io: Io): Promise<number> {
  const root = newCommand('auth', io).description('Log in to the Hub: the token file is shared with huggingface_hub.');
  withTokenOptions(subCommand(root, 'login', io).description('Verify a token with the hub and save it (mode 0600)'),
    'Token to save (otherwise read from the terminal or stdin)')
    .action(async (o: TokenFlags) => login(io, o));
  withTokenOptions(subCommand(root, 'whoami', io).description('Show the user the current token belongs to'), 'Token to check')
    .action(async (o: TokenFlags) => whoami(io, o));
  subCommand(root, 'logout', io).description('Remove the saved token file').action(async () => logout(io));
  await parse(root, args);
  return EXIT.ok;
}
