import type { Io } from '../../../lib/io.js';
import { UserError } from '../../../lib/errors.js';
import { createHubClient } from '../../../drivers/hub/client.js';
import { resolveEndpoint } from '../../../drivers/hub/endpoint.js';
import { resolveToken } from '../../../drivers/hub/token.js';
import type { HubClient } from '../../../drivers/hub/types.js';

/** A hub client for a CLI command: endpoint from HF_ENDPOINT, token from --token / HF_TOKEN / token file. */
export function cliHubClient(io: Io, tokenFlag: string | undefined): HubClient {
  return createHubClient({ endpoint: resolveEndpoint(io.env), token: requireToken(io, tokenFlag) });
}

export function requireToken(io: Io, tokenFlag: string | undefined): string {
  const resolved = resolveToken({ flag: tokenFlag ?? null, env: io.env });
  if (!resolved) throw new UserError('Not logged in: pass --token, set HF_TOKEN, or run `robotctl auth login`.');
  return resolved.token;
}
