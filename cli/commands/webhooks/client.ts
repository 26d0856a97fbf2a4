import type { Io } from '../../../lib/io.js';
import { UserError } from '../../../lib/errors.js';
import { createHubClient } from '../../../drivers/hub/client.js';
import { resolveEndpoint } from '../../../drivers/hub/endpoint.js';
import { resolveToken } from '../../../drivers/hub/token.js';
import type { HubClient } from '../../../drivers/hub/types.js';
import { tokenFromFlags, type TokenFlags } from '../../session/token-flags.js';
import { commandLine } from '../../views/command-line.js';

/** A hub client for a CLI command: endpoint from HF_ENDPOINT, token from --token/--token-file, HF_TOKEN, token file. */
export function cliHubClient(io: Io, token: string): HubClient {
  return createHubClient({ endpoint: resolveEndpoint(io.env), token });
}

/** The token to use, or a clear error naming every way to give one. */
export function requireToken(io: Io, flags: TokenFlags): string {
  const resolved = resolveToken({ flag: tokenFromFlags(io, flags), env: io.env });
  if (!resolved) throw new UserError(`Not logged in: run \`${commandLine(io)('auth login')}\`, set HF_TOKEN, or pass --token-file.`);
  return resolved.token;
}
